// i18n on a project of its own (./i18n-project.ts): create-localization, the sync of shared attributes
// (scalars, private ones, components, media) in ONE transaction, entry-level meta.availableLocales in one
// query per page, localized single types, and the locales service project code uses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startI18nProject, type I18nApp } from './i18n-project';

let t: I18nApp;
beforeAll(async () => {
  t = await startI18nProject();
});
afterAll(async () => {
  await t?.stop();
});

const query = (uid: string) => (t.app.strapi.query as (u: string) => any)(uid);

describe('collection type', () => {
  let en: number;
  let fr: number;

  it('lists the locales the bootstrap created, the default first', async () => {
    const r = await t.call('GET', '/api/i18n/locales');
    expect(r.status).toBe(200);
    expect(r.body.map((l: { code: string; isDefault: boolean }) => [l.code, l.isDefault])).toEqual([['en', true], ['fr', false], ['de', false]]);
    expect(Object.keys(r.body[0]).sort()).toEqual(['code', 'createdAt', 'id', 'isDefault', 'name', 'updatedAt']);
  });

  it('creates in the default locale, published', async () => {
    const r = await t.call('POST', '/api/docs?populate=meta', { data: { title: 'A', rank: 1, note: 'n', secret: 's', meta: { label: 'm1' } } });
    expect(r.status).toBe(200);
    en = r.body.data.id;
    expect(r.body.data.attributes).toMatchObject({ title: 'A', locale: 'en', rank: 1, note: 'n', meta: { label: 'm1' } });
    expect(r.body.data.attributes.publishedAt).not.toBeNull();
    expect(r.body.data.meta).toEqual({ availableLocales: [] });
  });

  it('creates a localization: shared scalars copied (private ones too), a draft, flat answer without private fields', async () => {
    const r = await t.call('POST', `/api/docs/${en}/localizations`, { locale: 'fr', title: 'A fr' });
    expect(r.status).toBe(200);
    fr = r.body.id;
    expect(r.body).toMatchObject({ title: 'A fr', locale: 'fr', rank: 1, note: 'n', publishedAt: null });
    expect(r.body).not.toHaveProperty('secret');
    expect(r.body.localizations.map((l: { id: number }) => l.id)).toEqual([en]);
    expect(r.body.localizations[0]).not.toHaveProperty('secret');
    const stored = await query('api::doc.doc').findOne({ where: { id: fr }, populate: { meta: true } });
    expect(stored.secret).toBe('s');
    expect(stored.meta).toBeNull(); // v4 reads the base without populate: components are not copied here
    const base = await t.call('GET', `/api/docs/${en}?populate[localizations][fields][0]=locale`);
    expect(base.body.data.attributes.localizations.data.map((l: { id: number }) => l.id)).toEqual([fr]);
  });

  it('validates a new localization as a published entry (v4), unless it is sent as a draft', async () => {
    const bad = await t.call('POST', `/api/docs/${en}/localizations`, { locale: 'de' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('title must be defined.');
    const draft = await t.call('POST', `/api/docs/${en}/localizations`, { locale: 'de', publishedAt: null });
    expect(draft.status).toBe(200);
    expect(draft.body.localizations.map((l: { locale: string }) => l.locale).sort()).toEqual(['en', 'fr']);
    // every sibling now links to the whole group
    const group = await query('api::doc.doc').findMany({ where: { id: { $in: [en, fr] } }, populate: { localizations: { select: ['locale'] } } });
    for (const e of group) expect(e.localizations).toHaveLength(2);
  });

  it('an update that populates localizations copies the shared attributes it carries, components as new rows', async () => {
    const r = await t.call('PUT', `/api/docs/${en}?populate=*`, { data: { rank: 5, meta: { label: 'm2' }, title: 'A2' } });
    expect(r.status).toBe(200);
    const rows = await query('api::doc.doc').findMany({ where: { id: { $ne: en } }, populate: { meta: true } });
    expect(rows.map((e: { rank: number; meta: { label: string } }) => [e.rank, e.meta?.label])).toEqual([[5, 'm2'], [5, 'm2']]);
    const ids = new Set([r.body.data.attributes.meta.id, ...rows.map((e: { meta: { id: number } }) => e.meta.id)]);
    expect(ids.size).toBe(3);
    expect(rows.map((e: { title: string }) => e.title)).toEqual(['A fr', null]); // localized: untouched
  });

  it('copies media as a link to the same file', async () => {
    const file = await query('plugin::upload.file').create({ data: { name: 'a.png', hash: 'a', ext: '.png', mime: 'image/png', size: 1, url: '/uploads/a.png', provider: 'local' } });
    const r = await t.call('PUT', `/api/docs/${en}?populate[cover]=true&populate[localizations]=true`, { data: { cover: file.id } });
    expect(r.status).toBe(200);
    const rows = await query('api::doc.doc').findMany({ where: { id: { $ne: en } }, populate: { cover: true } });
    expect(rows.map((e: { cover: { id: number } }) => e.cover?.id)).toEqual([file.id, file.id]);
  });

  it('without populate nothing is synced (v4.26.2)', async () => {
    await t.call('PUT', `/api/docs/${en}`, { data: { rank: 9 } });
    const fr1 = await query('api::doc.doc').findOne({ where: { id: fr } });
    expect(fr1.rank).toBe(5);
  });

  it('is one transaction: a sibling that fails rolls the whole write back', async () => {
    const r = await t.call('PUT', `/api/docs/${en}?populate=localizations`, { data: { ref: 'R1', rank: 10 } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('This attribute must be unique');
    const after = await query('api::doc.doc').findOne({ where: { id: en } });
    expect([after.ref, after.rank]).toEqual([null, 9]);
  });

  it('create checks the locale and links the group when the answer populates localizations', async () => {
    const bad = await t.call('POST', '/api/docs', { data: { title: 'x', locale: 'xx' } });
    expect([bad.status, bad.body.error.name, bad.body.error.message]).toEqual([400, 'ApplicationError', "This locale doesn't exist"]);
    const notString = await t.call('POST', '/api/docs', { data: { title: 'x', locale: { $ne: 'zz' } } });
    expect(notString.status).toBe(400);
    const b = await t.call('POST', '/api/docs', { data: { title: 'B' } });
    const bfr = await t.call('POST', '/api/docs?populate=localizations', { data: { title: 'B fr', locale: 'fr', localizations: [b.body.data.id], rank: 7 } });
    expect(bfr.status).toBe(200);
    const back = await query('api::doc.doc').findOne({ where: { id: b.body.data.id }, populate: { localizations: true } });
    expect([back.rank, back.localizations.map((l: { id: number }) => l.id)]).toEqual([7, [bfr.body.data.id]]);
  });

  it('meta.availableLocales: the other locales, drafts left out under live, one query per page', async () => {
    const preview = await t.call('GET', `/api/docs?locale=all&publicationState=preview&filters[id][$in][0]=${en}&filters[id][$in][1]=${fr}&fields[0]=locale`);
    const byId = Object.fromEntries(preview.body.data.map((e: { id: number; meta: { availableLocales: Array<{ locale: string }> } }) => [e.id, e.meta.availableLocales.map((l) => l.locale).sort()]));
    expect(byId).toEqual({ [en]: ['de', 'fr'], [fr]: ['de', 'en'] });
    const entry = preview.body.data.find((e: { id: number }) => e.id === en);
    expect(Object.keys(entry.meta.availableLocales[0]).sort()).toEqual(['id', 'locale', 'publishedAt']);
    const live = await t.call('GET', `/api/docs?filters[id]=${en}`);
    expect(live.body.data[0].meta).toEqual({ availableLocales: [] }); // fr and de are drafts
    const statements = async (size: number) => {
      const before = t.app.db.statementCount;
      await t.call('GET', `/api/docs?locale=all&publicationState=preview&pagination[pageSize]=${size}&pagination[withCount]=false`);
      return t.app.db.statementCount - before;
    };
    expect(await statements(5)).toBe(await statements(1));
  });
});

describe('single type', () => {
  it('creates once, refuses a second locale through PUT, takes one through POST .../localizations', async () => {
    expect((await t.call('GET', '/api/setting')).status).toBe(404);
    const en = await t.call('PUT', '/api/setting', { data: { title: 'S', footer: 'F' } });
    expect([en.status, en.body.data.attributes.locale]).toEqual([200, 'en']);
    const again = await t.call('PUT', '/api/setting?locale=fr', { data: { title: 'S fr' } });
    expect([again.status, again.body.error.name, again.body.error.message]).toEqual([400, 'ValidationError', 'singleType.alreadyExists']);
    const fr = await t.call('POST', '/api/setting/localizations', { locale: 'fr', title: 'S fr' });
    expect(fr.status).toBe(200);
    expect(fr.body).toMatchObject({ locale: 'fr', title: 'S fr', footer: 'F' });
  });

  it('reads per locale, every locale as a list with locale=all', async () => {
    const fr = await t.call('GET', '/api/setting?locale=fr');
    expect(fr.body.data.attributes.title).toBe('S fr');
    expect(fr.body.data.meta.availableLocales.map((l: { locale: string }) => l.locale)).toEqual(['en']);
    const all = await t.call('GET', '/api/setting?locale=all');
    expect(all.body.data.map((e: { attributes: { locale: string } }) => e.attributes.locale)).toEqual(['en', 'fr']);
    expect((await t.call('GET', '/api/setting?locale=de')).status).toBe(404);
  });

  it('updates the entry of the locale asked for; syncs shared attributes only with populate', async () => {
    await t.call('PUT', '/api/setting?locale=fr', { data: { footer: 'G' } });
    expect((await t.call('GET', '/api/setting')).body.data.attributes.footer).toBe('F');
    await t.call('PUT', '/api/setting?locale=fr&populate=localizations', { data: { footer: 'H' } });
    expect((await t.call('GET', '/api/setting')).body.data.attributes.footer).toBe('H');
  });

  it('deletes the entry of one locale', async () => {
    const del = await t.call('DELETE', '/api/setting?locale=fr');
    expect([del.status, del.body.data.attributes.locale]).toEqual([200, 'fr']);
    expect(del.body.data.meta.availableLocales.map((l: { locale: string }) => l.locale)).toEqual(['en']);
    expect((await t.call('GET', '/api/setting')).body.data.meta).toEqual({ availableLocales: [] });
  });
});

describe('the locales service (strapi.plugin("i18n").service("locales"))', () => {
  const locales = () => (t.app.strapi.plugin('i18n').service('locales') as any);

  it('find, findByCode, update', async () => {
    expect((await locales().find({ code: 'fr' })).map((l: { code: string }) => l.code)).toEqual(['fr']);
    const de = await locales().findByCode('de');
    const updated = await locales().update({ id: de.id }, { name: 'Deutsch' });
    expect(updated.name).toBe('Deutsch');
    expect((await locales().setIsDefault(updated)).isDefault).toBe(false);
  });

  it('setDefaultLocale moves the default of reads without locale, stored as v4 stores it', async () => {
    await locales().setDefaultLocale({ code: 'fr' });
    expect(await locales().getDefaultLocale()).toBe('fr');
    const r = await t.call('GET', '/api/docs?fields[0]=locale');
    expect(new Set(r.body.data.map((e: { attributes: { locale: string } }) => e.attributes.locale))).toEqual(new Set(['fr']));
    const row = await t.app.db.get<{ value: string; type: string; environment: null; tag: null }>("SELECT value, type, environment, tag FROM strapi_core_store_settings WHERE key = 'plugin_i18n_default_locale'");
    expect(row).toEqual({ value: '"fr"', type: 'string', environment: null, tag: null });
    await locales().setDefaultLocale({ code: 'en' });
  });

  it('delete removes the locale and every entry in it', async () => {
    const de = await locales().findByCode('de');
    const before = await query('api::doc.doc').count({ where: { locale: 'de' } });
    expect(before).toBe(1);
    await locales().delete({ id: de.id });
    expect(await locales().findByCode('de')).toBeNull();
    expect(await query('api::doc.doc').count({ where: { locale: 'de' } })).toBe(0);
  });

  it('the content-types service answers for project code', () => {
    const ct = t.app.strapi.plugin('i18n').service('content-types') as any;
    expect(ct.isLocalizedContentType(t.app.strapi.contentTypes['api::doc.doc'])).toBe(true);
  });
});

describe('permissions', () => {
  it('the locale list and create-localization need their own actions', async () => {
    const permissions = query('plugin::users-permissions.permission');
    for (const action of ['plugin::i18n.locales.listLocales', 'api::doc.doc.createLocalization']) await permissions.deleteMany({ where: { action } });
    const list = await t.call('GET', '/api/i18n/locales');
    expect([list.status, list.body.error.name]).toEqual([403, 'ForbiddenError']);
    const doc = await query('api::doc.doc').findOne({ where: { locale: 'en' } });
    const create = await t.call('POST', `/api/docs/${doc.id}/localizations`, { locale: 'fr', title: 'x' });
    expect([create.status, create.body.error.name]).toEqual([403, 'ForbiddenError']);
  });
});
