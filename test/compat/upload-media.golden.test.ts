// Media attributes of entries on the fixture app's database (single and multiple, in components and
// dynamic zones, with fields, filters and sort; a file's `related` entries): every answer must equal
// Strapi 4.26.2's (test/golden/upload-media.*).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../helpers/fixture-app';
import { goldenProblems } from '../helpers/golden';

let running: RunningApp;
beforeAll(async () => {
  running = await startFixtureApp(true);
});
afterAll(async () => {
  await running?.stop();
});

it('populates media as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('upload-media', running.url, running.token)).toEqual([]);
});
