// strapi-plugin-sitemap 3.2.1 (issue 21 part 6) on test/plugin-projects/sitemap-app: what its register does to
// every content type (a private, writable `sitemap_exclude`: refused in filters, sort and fields, accepted in
// writes and at registration, absent from answers and GraphQL types, present in GraphQL filters), how v4 merges
// its config, the Public permissions its bootstrap grants through the users-permissions role service, its content
// types (the sitemap is stored in the database; GraphQL shadow CRUD, no REST routes), its content-API routes
// (/api/sitemap/index.xml and the stylesheet files), and the sitemap its lifecycles rebuild after each write
// (autoGenerate, with its cache; GET /api/probe/sitemap: entries sorted). Every answer must equal what Strapi
// 4.26.2 answered running the same project (test/golden/plugins-sitemap.*); the sitemap after a create holds the
// new entry, as v4's afterCreate reads see the write.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import type { RunningApp } from '../helpers/fixture-app';
import { startPluginProject } from '../integration/plugins/plugin-project-app';

let running: RunningApp;
beforeAll(async () => {
  running = await startPluginProject('sitemap-app');
});
afterAll(async () => {
  await running?.stop();
});

it('answers and rebuilds the sitemap as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('plugins-sitemap', running.url, running.token)).toEqual([]);
});
