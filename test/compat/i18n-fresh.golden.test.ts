// The fixture app on an EMPTY database: its bootstrap (src/index.js, unmodified) runs against Tessera's
// `strapi.plugin('i18n').service('locales')` and creates `fr` next to the first-start default `en`; then
// the first page and its fr localization. Answers as Strapi 4.26.2 gave them on its own first start
// (test/golden/i18n-fresh.*), apart from the entry-level meta.availableLocales (deviations file).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../helpers/fixture-app';
import { goldenProblems } from '../helpers/golden';

let running: RunningApp;
beforeAll(async () => {
  running = await startFixtureApp(false);
});
afterAll(async () => {
  await running?.stop();
});

it('starts on an empty database with the bootstrap creating fr, and answers as Strapi 4.26.2 did', async () => {
  expect(running.token).not.toBe('');
  expect(await goldenProblems('i18n-fresh', running.url, running.token)).toEqual([]);
});
