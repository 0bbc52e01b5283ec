// Scalar CRUD on the fixture app, on the database real Strapi wrote: every answer must equal what
// Strapi 4.26.2 answered to the same request (test/golden/crud.*, recorded with strapi-diff --record),
// apart from the deviations listed in test/golden/crud.deviations.json (and docs/compatibility.md).
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

it('answers the CRUD request list exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('crud', running.url, running.token)).toEqual([]);
});
