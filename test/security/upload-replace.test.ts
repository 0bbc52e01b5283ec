// Issue #20 part 6: replacing a file (`POST /api/upload?id=X` with a file) follows the rules of attaching
// one. The fixture's file 2 is the `cover` (allowedTypes ["images"]) of several articles: a caller who may
// only upload must not turn it into an HTML page (v4 4.26.2 lets it: 200, thumbnails deleted, `mime:
// text/html` beside `ext: .png`). Every field that uses the file applies its allowedTypes to the new
// content, changing a used file needs `update` on the entries using it (`upload.config.security.
// requireEntryUpdate`, default on), and ext, mime and formats always describe the new content.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbFingerprint } from '../helpers/db-fingerprint';
import { form, post, startUploadApp, type UploadApp } from '../integration/upload/app';
import * as gen from '../integration/upload/fixtures';

const COVER = 2; // portrait.png, cover of articles 1, 4, 7, ... and an image of blocks.gallery components
const SHARE_IMAGE = 1; // landscape.jpg, in article galleries (any type) and shared.seo shareImage (images only)

type TokenService = { create(a: unknown): Promise<{ accessKey: string }> };

async function customToken(t: UploadApp, permissions: string[]): Promise<string> {
  const tokens = t.app.strapi.service('admin::api-token') as TokenService;
  return (await tokens.create({ name: `p6-${permissions.length}-${Date.now()}`, type: 'custom', lifespan: null, permissions })).accessKey;
}

/** the database (token use records left out) and the stored files: equal before and after means nothing changed */
async function state(t: UploadApp) {
  return { db: await dbFingerprint(t.app.db, ['strapi_api_tokens']), files: t.uploads() };
}

interface FileRow { hash: string; ext: string; mime: string; url: string; width: number | null; height: number | null; formats: Record<string, { url: string }> | null }

async function fileRow(t: UploadApp, id: number): Promise<FileRow> {
  const [row] = await t.rows<Omit<FileRow, 'formats'> & { formats: string | null }>('SELECT hash, ext, mime, url, width, height, formats FROM files WHERE id = ?', id);
  return { ...row, formats: row.formats ? JSON.parse(row.formats) : null };
}

const replace = (t: UploadApp, token: string, id: number, file: { name: string; type?: string; data: Buffer }, fields: Record<string, string> = {}) =>
  post({ url: t.url, token }, form([file], fields), { path: `/api/upload?id=${id}` });

describe('replacing a file used by entries (default: requireEntryUpdate on)', () => {
  let t: UploadApp;
  let uploadOnly: string;
  beforeAll(async () => {
    t = await startUploadApp();
    uploadOnly = await customToken(t, ['plugin::upload.content-api.upload']);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('refuses a caller who may only upload: 403, nothing changed (v4: the cover becomes an HTML page)', async () => {
    const before = await state(t);
    const res = await replace(t, uploadOnly, COVER, { name: 'evil.html', type: 'text/html', data: gen.htmlPage() });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
    expect(await state(t)).toEqual(before);
  });

  it('refuses such a caller a file info change of a used file too', async () => {
    const before = await state(t);
    const res = await post({ url: t.url, token: uploadOnly }, { fileInfo: { alternativeText: 'pwned' } }, { path: `/api/upload?id=${COVER}` });
    expect(res.status).toBe(403);
    expect(await state(t)).toEqual(before);
  });

  it('applies the allowedTypes of every field using the file, even for a full-access token: HTML into an image-only cover is a 400', async () => {
    const before = await state(t);
    const res = await replace(t, t.token, COVER, { name: 'cover.png', type: 'image/png', data: gen.htmlPage() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
    expect(res.body.error.message).toMatch(/api::article\.article\.cover only accepts images/);
    expect(await state(t)).toEqual(before);
  });

  it('checks fields inside components: a PDF cannot replace an image a shared.seo shareImage (images only) uses', async () => {
    const before = await state(t);
    const res = await replace(t, t.token, SHARE_IMAGE, { name: 'doc.pdf', type: 'application/pdf', data: gen.pdfFile() });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/only accepts images/);
    expect(await state(t)).toEqual(before);
  });

  it('lets a caller who may update the entries replace with an image: new formats, the old ones deleted', async () => {
    const writer = await customToken(t, ['plugin::upload.content-api.upload', 'api::article.article.update']);
    const old = await fileRow(t, COVER);
    const oldFiles = [old, ...Object.values(old.formats ?? {})].map((f) => path.basename(f.url));
    const res = await replace(t, writer, COVER, { name: 'mid.png', type: 'image/png', data: await gen.midPng() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: COVER, name: 'mid.png', hash: old.hash, ext: '.png', mime: 'image/png', url: old.url, width: 400, height: 300 });
    expect(Object.keys(res.body.formats)).toEqual(['thumbnail']);
    const now = t.uploads();
    expect(now).toContain(path.basename(old.url));
    expect(now).toContain(`thumbnail_${old.hash}.png`);
    for (const f of oldFiles.filter((f) => f !== path.basename(old.url) && f !== `thumbnail_${old.hash}.png`)) expect(now).not.toContain(f);
  });
});

describe('ext, mime and formats follow the new content', () => {
  let t: UploadApp;
  beforeAll(async () => {
    t = await startUploadApp();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('an image replaced by a text file: .txt, text/plain, no formats, no size, the old files gone', async () => {
    const [img] = (await post(t, form([{ name: 'photo.jpg', data: await gen.bigJpeg() }]))).body;
    const oldFiles = [img, ...Object.values<{ url: string }>(img.formats)].map((f) => path.basename(f.url));
    const res = await replace(t, t.token, img.id, { name: 'notes.png', type: 'image/png', data: gen.textFile() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: img.id, hash: img.hash, ext: '.txt', mime: 'text/plain', url: `/uploads/${img.hash}.txt`, width: null, height: null, formats: {} });
    expect(await fileRow(t, img.id)).toMatchObject({ ext: '.txt', mime: 'text/plain', url: `/uploads/${img.hash}.txt`, formats: {} });
    for (const f of oldFiles) expect(t.uploads()).not.toContain(f);
    const served = await fetch(t.url + res.body.url);
    expect(served.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(gen.textFile());
  });

  it('a png replaced by a jpeg: .jpg and image/jpeg everywhere (v4 keeps .png), formats regenerated, the .png files gone', async () => {
    const [png] = (await post(t, form([{ name: 'mid.png', data: await gen.midPng() }]))).body;
    const res = await replace(t, t.token, png.id, { name: 'big.jpg', type: 'image/jpeg', data: await gen.bigJpeg() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hash: png.hash, ext: '.jpg', mime: 'image/jpeg', url: `/uploads/${png.hash}.jpg`, width: 2000, height: 1500 });
    expect(Object.keys(res.body.formats).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
    for (const [key, f] of Object.entries<{ hash: string; ext: string; mime: string; url: string }>(res.body.formats)) {
      expect(f).toMatchObject({ hash: `${key}_${png.hash}`, ext: '.jpg', mime: 'image/jpeg', url: `/uploads/${key}_${png.hash}.jpg` });
      expect(fs.existsSync(path.join(t.uploadsDir, path.basename(f.url)))).toBe(true);
    }
    expect(t.uploads().filter((f) => f.includes(png.hash) && f.endsWith('.png'))).toEqual([]);
  });

  it('an HTML page replacing an unused file is recorded as text/html with .html (served sandboxed), not as the old .png', async () => {
    const [png] = (await post(t, form([{ name: 'tiny.png', data: await gen.tinyPng() }]))).body;
    const res = await replace(t, t.token, png.id, { name: 'tiny.png', type: 'image/png', data: gen.htmlPage() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ext: '.html', mime: 'text/html', url: `/uploads/${png.hash}.html`, formats: {} });
    expect(t.uploads()).not.toContain(`${png.hash}.png`);
  });
});

describe('requireEntryUpdate: false (v4: the upload permission alone)', () => {
  let t: UploadApp;
  let uploadOnly: string;
  beforeAll(async () => {
    t = await startUploadApp({ plugins: "module.exports = () => ({ upload: { config: { security: { requireEntryUpdate: false } } } });\n" });
    uploadOnly = await customToken(t, ['plugin::upload.content-api.upload']);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('lets a caller who may only upload replace a used file with an allowed type, as v4 does', async () => {
    const res = await replace(t, uploadOnly, COVER, { name: 'tiny.png', type: 'image/png', data: await gen.tinyPng() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: COVER, mime: 'image/png', width: 16, height: 12, formats: {} });
  });

  it('still applies allowedTypes', async () => {
    const before = await state(t);
    const res = await replace(t, uploadOnly, COVER, { name: 'evil.html', type: 'text/html', data: gen.htmlPage() });
    expect(res.status).toBe(400);
    expect(await state(t)).toEqual(before);
  });
});
