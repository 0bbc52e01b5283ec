// strapi-plugin-publisher 1.5.9 (issue 21 part 6) on test/plugin-projects/content-plugins-app: its content type
// (plugin::publisher.action) through its content-API routes (/api/publisher/actions: list, create, update, delete;
// core controller and service from the plugin's `@strapi/strapi` factories), and its cron task (every second in
// this project) publishing and unpublishing what the actions name, through strapi.entityService with its deep
// populate, its hooks from config/plugins.js and the entry.publish / entry.unpublish events on strapi.eventHub
// (GET /api/probe/log). /api/probe/settle waits until the task has run what is due. Every answer must equal what
// Strapi 4.26.2 answered running the same project (test/golden/plugins-publisher.*), including the plugin's own
// ways: an action on a missing entry or on one already in the wanted state is removed without a hook or event.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import type { RunningApp } from '../helpers/fixture-app';
import { startPluginProject } from '../integration/plugins/plugin-project-app';

let running: RunningApp;
beforeAll(async () => {
  running = await startPluginProject('content-plugins-app');
});
afterAll(async () => {
  await running?.stop();
});

it('schedules publication through cron as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('plugins-publisher', running.url, running.token)).toEqual([]);
});
