// Relation writes where Tessera answers differently from Strapi 4.26.2 on purpose (each listed in
// test/golden/relations-deviations.deviations.json and docs/compatibility.md): the recorded answers must
// differ exactly there and nowhere else.
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

it('differs from Strapi 4.26.2 only where listed', async () => {
  expect(await goldenProblems('relations-deviations', running.url, running.token)).toEqual([]);
});
