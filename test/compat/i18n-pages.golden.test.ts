// The localized `page` type of the fixture app in en and fr, on the database real Strapi wrote: locales,
// reads per locale and `all`, populated localizations under live and preview, the interplay of locale and
// publicationState with filters, sort, pagination and fields, create (default, fr, unknown locale),
// create-localization (errors, copy, sync, draft), updates of the shared `order` with and without
// populate, delete. Every answer must equal Strapi 4.26.2's (test/golden/i18n-pages.*), apart from the
// entry-level meta.availableLocales Tessera adds (test/golden/i18n-pages.deviations.json).
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

it('answers the i18n request list as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('i18n-pages', running.url, running.token)).toEqual([]);
});

it('meta.availableLocales lists what populating localizations shows, in every publication state', async () => {
  for (const state of ['live', 'preview']) {
    const res = await fetch(`${running.url}/api/pages?locale=all&publicationState=${state}&fields[0]=locale&populate[localizations][fields][0]=locale&pagination[pageSize]=100`, {
      headers: { authorization: `Bearer ${running.token}` },
    });
    const body = (await res.json()) as { data: Array<{ attributes: { localizations: { data: Array<{ id: number; attributes: { locale: string } }> } }; meta: { availableLocales: Array<{ id: number; locale: string }> } }> };
    expect(body.data.length).toBeGreaterThan(0);
    for (const e of body.data) {
      expect(e.meta.availableLocales.map((l) => [l.id, l.locale])).toEqual(e.attributes.localizations.data.map((l) => [l.id, l.attributes.locale]));
    }
  }
});
