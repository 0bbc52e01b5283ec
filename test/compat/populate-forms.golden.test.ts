// Every form of `populate` on the fixture app (reads only): each answer must equal what Strapi 4.26.2
// answered (test/golden/populate-forms.*), apart from the deviations listed in
// test/golden/populate-forms.deviations.json (and docs/compatibility.md).
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

it('answers every populate form exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('populate-forms', running.url, running.token)).toEqual([]);
});
