// Requests with two or three mistakes each: Tessera reports the mistake v4 reports first (test/golden/
// error-precedence.*, recorded from Strapi 4.26.2 on the fixture data; made by error-precedence-make-requests.ts).
// Where v4 answers 500 or ignores the mistake, the deviation file says so.
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

it('reports the same mistake first as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('error-precedence', running.url, running.token)).toEqual([]);
});
