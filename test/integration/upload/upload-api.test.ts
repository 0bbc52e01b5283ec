// The upload plugin end to end over HTTP on a copy of the fixture app: what lands on disk and in the
// database, what is served from /uploads, and that failures leave neither files nor rows behind.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbCount } from '../../helpers/db-rows';
import { call, form, post, startUploadApp, type UploadApp } from './app';
import * as gen from './fixtures';

let t: UploadApp;
beforeAll(async () => {
  t = await startUploadApp();
});
afterAll(async () => {
  await t?.stop();
});

const fileCount = () => dbCount(t.app.db, 'files');

describe('uploading images', () => {
  it('stores a 2000x1500 jpeg with every format, each file on disk with the size it reports', async () => {
    const res = await post(t, form([{ name: 'big.jpg', type: 'image/jpeg', data: await gen.bigJpeg() }], { fileInfo: JSON.stringify({ alternativeText: 'alt', caption: 'cap' }) }));
    expect(res.status).toBe(200);
    const [file] = res.body;
    expect(file).toMatchObject({ name: 'big.jpg', alternativeText: 'alt', caption: 'cap', width: 2000, height: 1500, ext: '.jpg', mime: 'image/jpeg', provider: 'local', previewUrl: null });
    expect(file.hash).toMatch(/^big_[0-9a-f]{10}$/);
    expect(file.url).toBe(`/uploads/${file.hash}.jpg`);
    expect(Object.keys(file.formats).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
    expect(file.formats.thumbnail).toMatchObject({ name: 'thumbnail_big.jpg', hash: `thumbnail_${file.hash}`, ext: '.jpg', mime: 'image/jpeg', path: null, width: 209, height: 156 });
    expect([file.formats.large.width, file.formats.large.height]).toEqual([1000, 750]);
    expect([file.formats.medium.width, file.formats.medium.height]).toEqual([750, 563]);
    expect([file.formats.small.width, file.formats.small.height]).toEqual([500, 375]);
    for (const f of [file, ...Object.values<any>(file.formats)]) { // eslint-disable-line @typescript-eslint/no-explicit-any
      const onDisk = fs.statSync(path.join(t.uploadsDir, path.basename(f.url))).size;
      expect(f.size).toBe(Math.round(onDisk / 10) / 100);
      if (f !== file) expect(f.sizeInBytes).toBe(onDisk);
      const served = await fetch(t.url + f.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await served.arrayBuffer()).length).toBe(onDisk);
    }
    const [row] = await t.rows('SELECT folder_path, size FROM files WHERE id = ?', file.id);
    expect(row.folder_path).toBe('/1');
    expect(await t.rows('SELECT folder_id FROM files_folder_links WHERE file_id = ?', file.id)).toEqual([{ folder_id: 1 }]);
  });

  it('gives a 400x300 png only a thumbnail and a tiny png no formats', async () => {
    const res = await post(t, form([{ name: 'mid.png', type: 'image/png', data: await gen.midPng() }, { name: 'tiny.png', type: 'image/png', data: await gen.tinyPng() }]));
    expect(res.status).toBe(200);
    const [mid, tiny] = res.body;
    expect([mid.width, mid.height, Object.keys(mid.formats)]).toEqual([400, 300, ['thumbnail']]);
    expect([mid.formats.thumbnail.width, mid.formats.thumbnail.height]).toEqual([208, 156]);
    expect([tiny.width, tiny.height, tiny.formats]).toEqual([16, 12, null]);
    expect(tiny.id).toBe(mid.id + 1); // ids in request order
  });

  it('applies the EXIF orientation: a 300x200 image tagged "rotate 90" is stored upright as 200x300', async () => {
    const res = await post(t, form([{ name: 'exif.jpg', type: 'image/jpeg', data: await gen.exifJpeg() }]));
    const [file] = res.body;
    expect([file.width, file.height]).toEqual([200, 300]);
    expect([file.formats.thumbnail.width, file.formats.thumbnail.height]).toEqual([104, 156]);
    const meta = await sharp(path.join(t.uploadsDir, path.basename(file.url))).metadata();
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([200, 300, 1]);
  });

  it('stores a non-image file as it is, typed by its content', async () => {
    const res = await post(t, form([{ name: 'notes.txt', type: 'image/png', data: gen.textFile() }]));
    const [file] = res.body;
    expect(file).toMatchObject({ ext: '.txt', mime: 'text/plain', width: null, height: null, formats: null, size: 0.03 });
    expect(fs.readFileSync(path.join(t.uploadsDir, path.basename(file.url)))).toEqual(gen.textFile());
  });
});

describe('safety', () => {
  it('answers a corrupt image with a 400 and leaves no file and no row', async () => {
    const before = { files: t.uploads(), rows: await fileCount() };
    const res = await post(t, form([{ name: 'ok.png', type: 'image/png', data: await gen.tinyPng() }, { name: 'broken.jpg', type: 'image/jpeg', data: await gen.corruptJpeg() }]));
    expect(res).toEqual({ status: 400, body: { data: null, error: { status: 400, name: 'ApplicationError', message: 'File is not a valid image', details: {} } } });
    expect(t.uploads()).toEqual(before.files);
    expect(await fileCount()).toBe(before.rows);
  });

  it('never trusts the client type or name: an HTML page sent as photo.png is text/html, .html, and served sandboxed as a download', async () => {
    const res = await post(t, form([{ name: 'photo.png', type: 'image/png', data: gen.htmlPage() }]));
    const [file] = res.body;
    expect(file).toMatchObject({ name: 'photo.png', ext: '.html', mime: 'text/html', formats: null });
    const served = await fetch(t.url + file.url);
    expect(served.headers.get('content-disposition')).toBe('attachment');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps an upload out of an images-only media attribute when it is not an image', async () => {
    const before = { files: t.uploads(), rows: await fileCount() };
    const res = await post(t, form([{ name: 'cover.jpg', type: 'image/jpeg', data: gen.pdfFile() }], { ref: 'api::article.article', refId: '5', field: 'cover' }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('cover.jpg is of type application/pdf, but api::article.article.cover only accepts images');
    expect(res.body.error.details.errors[0].path).toEqual(['files']);
    expect(t.uploads()).toEqual(before.files);
    expect(await fileCount()).toBe(before.rows);
  });

  it('answers a wrong field name, an unknown ref and a missing entry with 400s that name the field', async () => {
    const tiny = await gen.tinyPng();
    const cases: Array<[Record<string, string>, string]> = [
      [{ ref: 'api::article.article', refId: '1', field: 'title' }, 'field'],
      [{ ref: 'api::article.article', refId: '1', field: 'nope' }, 'field'],
      [{ ref: 'api::nope.nope', refId: '1', field: 'cover' }, 'ref'],
      [{ ref: 'admin::user', refId: '1', field: 'avatar' }, 'ref'],
      [{ ref: 'api::article.article', refId: '9999', field: 'cover' }, 'refId'],
      [{ ref: 'api::article.article', refId: '1 OR 1=1', field: 'cover' }, 'refId'],
      [{ ref: 'shared.seo', refId: '9999', field: 'shareImage' }, 'refId'],
    ];
    for (const [fields, pathName] of cases) {
      const res = await post(t, form([{ name: 'tiny.png', type: 'image/png', data: tiny }], fields));
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
      expect(res.body.error.details.errors[0].path).toEqual([pathName]);
    }
  });
});

describe('attaching, replacing, deleting', () => {
  it('attaches to a single media attribute (replacing the old file), a multiple one, and one in a component, as v4 stores them', async () => {
    const tiny = await gen.tinyPng();
    const [a] = (await post(t, form([{ name: 'a.png', data: tiny }], { ref: 'api::article.article', refId: '7', field: 'cover' }))).body;
    const [b] = (await post(t, form([{ name: 'b.png', data: tiny }], { ref: 'api::article.article', refId: '7', field: 'cover' }))).body;
    expect(await t.rows('SELECT file_id, "order" FROM files_related_morphs WHERE related_type = ? AND related_id = 7 AND field = ?', 'api::article.article', 'cover')).toEqual([{ file_id: b.id, order: 1 }]);
    const cover = await call(t, 'GET', '/api/articles/7?fields[0]=title&populate[cover]=*');
    expect(cover.body.data.attributes.cover.data.id).toBe(b.id);
    expect(cover.body.data.attributes.cover.data.attributes).toMatchObject({ name: 'b.png', url: b.url, formats: null, mime: 'image/png' });
    expect(a.id).not.toBe(b.id);

    const [g] = (await post(t, form([{ name: 'g.png', data: tiny }], { ref: 'blocks.gallery', refId: '1', field: 'images' }))).body;
    const [{ entity_id: owner }] = await t.rows<{ entity_id: number }>("SELECT entity_id FROM articles_components WHERE component_type = 'blocks.gallery' AND component_id = 1");
    const dz = await call(t, 'GET', `/api/articles/${owner}?fields[0]=title&populate[blocks][populate]=*&publicationState=preview`);
    const gallery = dz.body.data.attributes.blocks.find((b2: { __component: string }) => b2.__component === 'blocks.gallery');
    expect(gallery.images.data.map((f: { id: number }) => f.id)).toContain(g.id);
  });

  it('replaces a file under the same hash (ext and url follow the new content), removing the files the new content does not have', async () => {
    const [big] = (await post(t, form([{ name: 'big.jpg', data: await gen.bigJpeg() }]))).body;
    const oldFiles = [big, ...Object.values<{ url: string }>(big.formats)].map((f) => path.basename(f.url));
    const res = await post(t, form([{ name: 'tiny.png', data: await gen.tinyPng() }]), { path: `/api/upload?id=${big.id}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: big.id, name: 'tiny.png', hash: big.hash, ext: '.png', url: `/uploads/${big.hash}.png`, mime: 'image/png', width: 16, height: 12, formats: {} });
    for (const f of oldFiles) expect(t.uploads()).not.toContain(f);
    const meta = await sharp(path.join(t.uploadsDir, path.basename(res.body.url))).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 16, 12]);
    // the same type again: the url stays
    const again = await post(t, form([{ name: 'mid.png', data: await gen.midPng() }]), { path: `/api/upload?id=${big.id}` });
    expect(again.body).toMatchObject({ ext: '.png', url: res.body.url, width: 400, height: 300 });
  });

  it('deletes the row, its links, and the stored original and formats', async () => {
    const [big] = (await post(t, form([{ name: 'big.jpg', data: await gen.bigJpeg() }], { ref: 'api::article.article', refId: '8', field: 'gallery' }))).body;
    const stored = [big, ...Object.values<{ url: string }>(big.formats)].map((f) => path.basename(f.url));
    for (const f of stored) expect(t.uploads()).toContain(f);
    const res = await call(t, 'DELETE', `/api/upload/files/${big.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: big.id, hash: big.hash });
    for (const f of stored) expect(t.uploads()).not.toContain(f);
    expect(await t.rows('SELECT id FROM files_related_morphs WHERE file_id = ?', big.id)).toEqual([]);
    expect(await t.rows('SELECT id FROM files_folder_links WHERE file_id = ?', big.id)).toEqual([]);
    expect((await call(t, 'GET', `/api/upload/files/${big.id}`)).status).toBe(404);
  });

  it('lets project code upload through strapi.plugin("upload").service("upload"), files given by path', async () => {
    const src = path.join(t.dir, 'from-code.png');
    fs.writeFileSync(src, await gen.midPng());
    const service = (t.app.strapi.plugin('upload').service('upload')) as { upload(a: unknown): Promise<Array<{ id: number; formats: unknown }>> };
    const [file] = await service.upload({ data: { fileInfo: { caption: 'from code' } }, files: { path: src, name: 'from-code.png', type: 'image/png', size: 1 } });
    expect(file).toMatchObject({ caption: 'from code', mime: 'image/png', width: 400 });
    expect(fs.existsSync(src)).toBe(true); // the caller's file is left where it was
  });

  it('gives project code the provider instances as v4 does (strapi.plugin("upload").provider, .plugin("email").provider)', async () => {
    const upload = t.app.strapi.plugin('upload').provider as { upload?: unknown; uploadStream?: unknown; delete: unknown };
    expect(typeof upload.delete).toBe('function');
    expect(typeof (upload.uploadStream ?? upload.upload)).toBe('function');
    const email = t.app.strapi.plugin('email').provider as { send: unknown };
    expect(typeof email.send).toBe('function');
    expect(t.app.strapi.plugin('i18n').provider).toBeUndefined();
  });
});

describe('serving /uploads', () => {
  it('answers with validators, 304, HEAD and byte ranges', async () => {
    const url = `${t.url}/uploads/landscape_9e07983b1e.jpg`;
    const full = await fetch(url);
    const etag = full.headers.get('etag')!;
    expect(full.headers.get('cache-control')).toBe('max-age=0');
    expect(full.headers.get('last-modified')).toBeTruthy();
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const head = await fetch(url, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, '8818']);
    const part = await fetch(url, { headers: { range: 'bytes=10-19' } });
    expect([part.status, part.headers.get('content-range'), (await part.arrayBuffer()).byteLength]).toEqual([206, 'bytes 10-19/8818', 10]);
    expect((await fetch(url, { headers: { range: 'bytes=9000-' } })).status).toBe(416);
  });
});
