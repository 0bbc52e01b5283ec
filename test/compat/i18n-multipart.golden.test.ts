// Multipart bodies on `POST /api/pages/:id/localizations` (`data` as JSON, files under `files.<path>`),
// recorded from Strapi 4.26.2 (test/golden/i18n-multipart.*): the `data` field is the body v4 reads the
// locale and attributes from. Deliberate differences (test/golden/i18n-multipart.deviations.json,
// docs/compatibility.md, i18n): the parser's 500s are 400s, a file naming no media attribute is refused,
// and a refused request writes nothing (v4 creates the localization of a 400 for an unprefixed file).
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

it('answers multipart localizations as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('i18n-multipart', running.url, running.token)).toEqual([]);
});
