// `locale` given as more than a code: v4's i18n turns whatever it holds into a condition on the `locale`
// attribute (a list selects any of its locales, operators work). Recorded from Strapi 4.26.2
// (test/golden/i18n-locale-conditions.*); the only differences are the entry-level meta.availableLocales.
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

it('answers locale lists and operators as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('i18n-locale-conditions', running.url, running.token)).toEqual([]);
});

it('refuses an unknown operator in locale with a 400, like any filter', async () => {
  const res = await fetch(`${running.url}/api/pages?locale[$foo]=en`, { headers: { authorization: `Bearer ${running.token}` } });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { name: string } }).error.name).toBe('ValidationError');
});
