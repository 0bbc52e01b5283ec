// The users-permissions routes on the fixture app (users): every answer must equal what Strapi 4.26.2 answered
// to the same requests (test/golden/auth-users.*, recorded with strapi-diff --record), apart from the
// deviations listed in test/golden/auth-users.deviations.json (and docs/compatibility.md).
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

it('answers the auth-users request list exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('auth-users', running.url, running.token)).toEqual([]);
});
