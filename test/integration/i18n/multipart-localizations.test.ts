// Multipart bodies on `POST .../localizations` (the body in a JSON `data` field, files under
// `files.<path>`), as v4's createLocalization reads them (parseMultipartData): the files are stored and
// linked to the new localization in its one write, or not at all. What the fixture app's pages answer is
// compared with Strapi 4.26.2 in test/compat/i18n-multipart.golden.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { garbagePng, tinyPng } from '../upload/fixtures';
import { startI18nProject, type I18nApp } from './i18n-project';

let t: I18nApp;
beforeAll(async () => {
  t = await startI18nProject();
});
afterAll(async () => {
  await t?.stop();
});

const query = (uid: string) => (t.app.strapi.query as (u: string) => any)(uid); // eslint-disable-line @typescript-eslint/no-explicit-any
const UPLOAD = 'plugin::upload.content-api.upload';

async function allowUpload(allowed: boolean): Promise<void> {
  const permissions = query('plugin::users-permissions.permission');
  if (!allowed) return void (await permissions.deleteMany({ where: { action: UPLOAD } }));
  const role = await query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  await permissions.create({ data: { action: UPLOAD, role: role.id } });
}

/** a multipart body: `data` as given (a string is sent as is), files as image/png parts */
function localizationForm(data: unknown, files: Record<string, Buffer> = {}): FormData {
  const fd = new FormData();
  fd.append('data', typeof data === 'string' ? data : JSON.stringify(data));
  for (const [field, bytes] of Object.entries(files)) fd.append(field, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), `${field}.png`);
  return fd;
}

async function send(url: string, body: FormData) {
  const res = await fetch(t.url + url, { method: 'POST', body });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const uploadsDir = () => path.join(t.dir, 'public/uploads');
const storedBytes = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).filter((f) => f !== '.gitkeep').sort() : []);
const fileRows = async () => (await query('plugin::upload.file').findMany({})).length;
const docCount = async () => (await query('api::doc.doc').findMany({})).length;

/** what a refused request must leave as it was */
async function snapshot() {
  return { bytes: storedBytes(), rows: await fileRows(), docs: await docCount() };
}

async function baseDoc(title: string): Promise<number> {
  const r = await t.call('POST', '/api/docs', { data: { title, rank: 3 } });
  expect(r.status).toBe(200);
  return r.body.data.id;
}

describe('multipart bodies on create-localization', () => {
  it('stores a file into a media field and links it to the new localization, in the same write', async () => {
    await allowUpload(true);
    const en = await baseDoc('with file');
    const r = await send(`/api/docs/${en}/localizations`, localizationForm({ locale: 'fr', title: 'avec fichier' }, { 'files.cover': await tinyPng() }));
    expect(r.status).toBe(200);
    // the flat answer v4 gives: the entry and its localizations, media not populated (verified against 4.26.2)
    expect(r.body).toMatchObject({ title: 'avec fichier', locale: 'fr', rank: 3, publishedAt: null });
    expect(r.body).not.toHaveProperty('cover');
    expect(r.body.localizations.map((l: { id: number }) => l.id)).toEqual([en]);
    const stored = await query('api::doc.doc').findOne({ where: { id: r.body.id }, populate: { cover: true } });
    expect(stored.cover).toMatchObject({ name: 'files.cover.png', mime: 'image/png', width: 16, height: 12 });
    expect(storedBytes()).toContain(`${stored.cover.hash}${stored.cover.ext}`);
    const read = await t.call('GET', `/api/docs/${r.body.id}?populate[cover][fields][0]=name`);
    expect(read.body.data.attributes.cover.data).toEqual({ id: stored.cover.id, attributes: { name: 'files.cover.png' } });
    // as in v4 (verified against 4.26.2): the create sync copies the shared attributes of the answer it
    // reads back, which does not populate media, so the base keeps its own cover
    const base = await query('api::doc.doc').findOne({ where: { id: en }, populate: { cover: true } });
    expect(base.cover).toBeNull();
  });

  it('a body of `data` alone works as a JSON body does', async () => {
    const en = await baseDoc('data only');
    const r = await send(`/api/docs/${en}/localizations`, localizationForm({ locale: 'de', title: 'nur Daten' }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: 'nur Daten', locale: 'de', rank: 3 });
  });

  it('a localized single type takes one too', async () => {
    const put = await t.call('PUT', '/api/setting', { data: { title: 'Settings', footer: 'f' } });
    expect(put.status).toBe(200);
    const r = await send('/api/setting/localizations', localizationForm({ locale: 'fr', title: 'Réglages' }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: 'Réglages', locale: 'fr', footer: 'f' });
  });

  it('a corrupt image is a 400 and stores nothing: no file, no row, no localization', async () => {
    await allowUpload(true);
    const en = await baseDoc('corrupt');
    const before = await snapshot();
    const r = await send(`/api/docs/${en}/localizations`, localizationForm({ locale: 'fr', title: 'cassé' }, { 'files.cover': garbagePng() }));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'File is not a valid image' });
    expect(await snapshot()).toEqual(before);
  });

  it('a locale error after the files were stored removes them again', async () => {
    const en = await baseDoc('bad locale');
    const before = await snapshot();
    const r = await send(`/api/docs/${en}/localizations`, localizationForm({ locale: 'xx', title: 'x' }, { 'files.cover': await tinyPng() }));
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('locale is invalid');
    expect(await snapshot()).toEqual(before);
  });

  it('a file naming no media attribute is a 400 before anything is stored (v4 drops it silently)', async () => {
    const en = await baseDoc('no such media');
    const before = await snapshot();
    const r = await send(`/api/docs/${en}/localizations`, localizationForm({ locale: 'fr', title: 'x' }, { 'files.title': await tinyPng() }));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ name: 'ValidationError', message: 'files.title does not name a media attribute of api::doc.doc' });
    expect(await snapshot()).toEqual(before);
  });

  it('needs the upload permission for files: 403 and nothing stored', async () => {
    const en = await baseDoc('no permission');
    await allowUpload(false);
    const before = await snapshot();
    const r = await send(`/api/docs/${en}/localizations`, localizationForm({ locale: 'fr', title: 'x' }, { 'files.cover': await tinyPng() }));
    expect(r.status).toBe(403);
    expect(r.body.error.name).toBe('ForbiddenError');
    expect(await snapshot()).toEqual(before);
  });

  it('a `data` field that is not JSON, or none, is a 400 (v4: 500) and creates nothing', async () => {
    const en = await baseDoc('bad data');
    const before = await snapshot();
    const bad = await send(`/api/docs/${en}/localizations`, localizationForm('{"locale": "fr",'));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ status: 400, name: 'BadRequestError', message: "Invalid 'data' field. 'data' should be a valid JSON.", details: {} });
    const none = new FormData();
    none.append('locale', 'fr');
    const missing = await send(`/api/docs/${en}/localizations`, none);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("When using multipart/form-data you need to provide your data in a JSON 'data' field.");
    expect(await snapshot()).toEqual(before);
  });
});
