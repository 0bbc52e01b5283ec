// Issue 21 parts 1-2 on test/fixtures/plugin-app: the fixture app and its data with a local plugin `todo`
// (config default + validator, register/bootstrap, a content type, content-api routes with handler strings, a
// function handler, `auth: false`, `prefix: ''`, factory controllers over core ones, services, a policy and a
// middleware), extensions of it and of users-permissions (routes closed and added, `user.me` wrapped, an extra
// user attribute), and an app `register` that adds a middleware to every users-permissions route. Every answer
// must be what Strapi 4.26.2 answered serving the same project and database (test/golden/plugins-local.*,
// recorded as test/fixtures/plugin-app/README.md says).
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureAppWith, type RunningApp } from '../helpers/fixture-app';
import { goldenProblems } from '../helpers/golden';

const PLUGIN_APP = path.resolve(__dirname, '../fixtures/plugin-app');

let running: RunningApp;
beforeAll(async () => {
  running = await startFixtureAppWith(PLUGIN_APP);
});
afterAll(async () => {
  await running?.stop();
});

it('answers the local plugin, its extension and the users-permissions changes exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('plugins-local', running.url, running.token)).toEqual([]);
}, 60_000);
