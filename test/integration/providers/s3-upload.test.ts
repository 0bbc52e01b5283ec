// @strapi/provider-upload-aws-s3 4.26.2 (the package itself, from test/plugin-projects) on Tessera against a
// loopback S3 server (s3rver): uploads, image formats, entry writes with files, replace and delete, each checked
// against what the bucket holds, and the provider settings v4 reads (providerOptions.s3Options, rootPath, baseUrl,
// actionOptions, sizeLimit). Real Strapi 4.26.2 running the same project against s3rver answered the same shapes
// (recorded by hand; the hashes are random and the urls carry the server's port, so no golden file).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, form, post } from '../upload/app';
import * as gen from '../upload/fixtures';
import { startProvidersApp, type ProvidersApp } from './app';
import { startS3Server, type S3Server } from './servers';

const BUCKET = 'media-public';
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let s3: S3Server;
let t: ProvidersApp;
beforeAll(async () => {
  s3 = await startS3Server([BUCKET]);
  t = await startProvidersApp({ S3_ENDPOINT: s3.endpoint, S3_BUCKET: BUCKET });
});
afterAll(async () => {
  await t?.stop();
  await s3?.stop();
});

/** every object in the bucket belongs to a file row, and every file row's objects are there */
const expectBucketMatchesRows = async (app: ProvidersApp, bucket = BUCKET) => expect(s3.keys(bucket)).toEqual(await app.storedKeys());

/** the original and every format of a file as the answer gives them */
const allVersions = (file: Obj): Obj[] => [file, ...Object.values<Obj>(file.formats ?? {})];

describe('uploads through aws-s3', () => {
  it('stores a 2000x1500 jpeg and its four formats as objects, with urls as v4 builds them', async () => {
    const data = await gen.bigJpeg();
    const res = await post(t, form([{ name: 'big.jpg', type: 'image/jpeg', data }], { fileInfo: JSON.stringify({ alternativeText: 'alt', caption: 'cap' }) }));
    expect(res.status).toBe(200);
    const [file] = res.body;
    // the same keys and values as real Strapi's answer (its format keys come in the order the uploads finished)
    expect(Object.keys(file)).toEqual(['id', 'name', 'alternativeText', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt']);
    expect(file).toMatchObject({ name: 'big.jpg', alternativeText: 'alt', caption: 'cap', width: 2000, height: 1500, ext: '.jpg', mime: 'image/jpeg', size: 24.74, provider: 'aws-s3', provider_metadata: null, previewUrl: null });
    expect(Object.keys(file.formats).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
    expect(file.formats.small).toEqual({
      name: 'small_big.jpg', hash: `small_${file.hash}`, ext: '.jpg', mime: 'image/jpeg', path: null, width: 500, height: 375, size: 6.54, sizeInBytes: 6541,
      url: `http://127.0.0.1/${BUCKET}/small_${file.hash}.jpg`,
    });
    for (const f of allVersions(file)) {
      const key = `${f.hash}${f.ext}`;
      // lib-storage (the provider's uploader) builds a path-style Location without the endpoint's port: v4's urls too
      expect(f.url).toBe(`http://127.0.0.1/${BUCKET}/${key}`);
      const stored = s3.object(BUCKET, key);
      expect(Math.round(stored.length / 10) / 100).toBe(f.size);
      // actionOptions.uploadStream is spread into the S3 call: its CacheControl is kept with the object
      expect(s3.metadata(BUCKET, key)).toEqual({ 'content-type': 'image/jpeg', 'cache-control': 'public, max-age=31536000' });
      const served = await fetch(`${s3.endpoint}/${BUCKET}/${key}`);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(stored);
    }
    expect(await t.rows('SELECT url, provider, provider_metadata FROM files WHERE id = ?', file.id)).toEqual([{ url: file.url, provider: 'aws-s3', provider_metadata: null }]);
    await expectBucketMatchesRows(t);
  });

  it('stores files of an entry write (files.<attribute>) in the bucket and links them', async () => {
    const fd = new FormData();
    fd.append('data', JSON.stringify({ title: 'With S3 files', slug: 's3-files' }));
    fd.append('files.cover', new Blob([new Uint8Array(await gen.midPng())], { type: 'image/png' }), 'cover.png');
    fd.append('files.gallery', new Blob([new Uint8Array(gen.textFile())], { type: 'text/plain' }), 'notes.txt');
    const res = await fetch(`${t.url}/api/articles?populate=*`, { method: 'POST', headers: { authorization: `Bearer ${t.token}` }, body: fd });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as Obj;
    const cover = data.attributes.cover.data.attributes;
    const [notes] = data.attributes.gallery.data.map((d: Obj) => d.attributes);
    expect(cover).toMatchObject({ name: 'cover.png', provider: 'aws-s3', url: `http://127.0.0.1/${BUCKET}/${cover.hash}.png`, width: 400, height: 300 });
    expect(Object.keys(cover.formats)).toEqual(['thumbnail']);
    expect(notes).toMatchObject({ name: 'notes.txt', mime: 'text/plain', formats: null, url: `http://127.0.0.1/${BUCKET}/${notes.hash}.txt` });
    expect(s3.object(BUCKET, `${notes.hash}.txt`)).toEqual(gen.textFile());
    expect(s3.metadata(BUCKET, `${notes.hash}.txt`)['content-type']).toBe('text/plain');
    expect(await t.rows('SELECT field FROM files_related_morphs WHERE related_id = ? ORDER BY field', data.id)).toEqual([{ field: 'cover' }, { field: 'gallery' }]);
    await expectBucketMatchesRows(t);
  });

  it('replaces a file under the same hash: the new content in the bucket, the formats it no longer has removed', async () => {
    const [old] = (await post(t, form([{ name: 'photo.jpg', type: 'image/jpeg', data: await gen.bigJpeg() }]))).body;
    const replacement = await gen.exifJpeg(); // 200x300 once upright: only a thumbnail
    const res = await post(t, form([{ name: 'upright.jpg', type: 'image/jpeg', data: replacement }]), { path: `/api/upload?id=${old.id}` });
    expect(res.status).toBe(200);
    const file = res.body;
    expect(file).toMatchObject({ id: old.id, hash: old.hash, ext: '.jpg', name: 'upright.jpg', width: 200, height: 300, url: old.url });
    expect(Object.keys(file.formats)).toEqual(['thumbnail']);
    expect(s3.keys(BUCKET).filter((k) => k.includes(old.hash))).toEqual([`${old.hash}.jpg`, `thumbnail_${old.hash}.jpg`]);
    expect(Math.round(s3.object(BUCKET, `${old.hash}.jpg`).length / 10) / 100).toBe(file.size);
    await expectBucketMatchesRows(t);
  });

  it('deletes a file: the row and every object of it', async () => {
    const [file] = (await post(t, form([{ name: 'gone.jpg', type: 'image/jpeg', data: await gen.bigJpeg() }]))).body;
    expect(s3.keys(BUCKET).filter((k) => k.includes(file.hash))).toHaveLength(5);
    const res = await call(t, 'DELETE', `/api/upload/files/${file.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: file.id, hash: file.hash, url: file.url });
    expect(s3.keys(BUCKET).filter((k) => k.includes(file.hash))).toEqual([]);
    expect(await t.rows('SELECT id FROM files WHERE id = ?', file.id)).toEqual([]);
    await expectBucketMatchesRows(t);
  });

  it('answers the upload API with the stored urls, no isUrlSigned: the bucket is public-read', async () => {
    const list = (await call(t, 'GET', '/api/upload/files?filters[provider][$eq]=aws-s3')).body as Obj[];
    expect(list.length).toBeGreaterThan(0);
    for (const f of list) {
      expect(f).not.toHaveProperty('isUrlSigned');
      expect(f.url).toBe(`http://127.0.0.1/${BUCKET}/${f.hash}${f.ext}`);
    }
  });
});

describe('provider settings', () => {
  let other: ProvidersApp | undefined;
  afterAll(async () => {
    await other?.stop();
  });

  it('rootPath puts the objects under a folder and baseUrl makes the urls, as v4 reads providerOptions', async () => {
    const bucketUrl = `${s3.endpoint}/${BUCKET}`;
    other = await startProvidersApp({ S3_ENDPOINT: s3.endpoint, S3_BUCKET: BUCKET, S3_ROOT_PATH: 'media/', S3_BASE_URL: bucketUrl, UPLOAD_SIZE_LIMIT: '23000' });
    const res = await post(other, form([{ name: 'mid.png', type: 'image/png', data: await gen.midPng() }]));
    expect(res.status).toBe(200);
    const [file] = res.body;
    for (const f of allVersions(file)) {
      // baseUrl + the key: a url that works (the port kept)
      expect(f.url).toBe(`${bucketUrl}/media/${f.hash}.png`);
      expect((await fetch(f.url)).status).toBe(200);
    }
    expect(s3.keys(BUCKET).filter((k) => k.startsWith('media/')).sort()).toEqual([`media/${file.hash}.png`, `media/thumbnail_${file.hash}.png`]);
  });

  it('sizeLimit applies to the stored original as v4 checks it: after optimization, 413 and nothing stored', async () => {
    // 22,376 bytes sent, re-encoded to 24,740 bytes: over 23,000 (real Strapi: 413 "big.jpg exceeds size limit of 23 KB.")
    const data = await gen.bigJpeg();
    expect(data.length).toBeLessThan(23000);
    const before = s3.keys(BUCKET);
    const res = await post(other!, form([{ name: 'big.jpg', type: 'image/jpeg', data }]));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'big.jpg exceeds size limit of 23 KB.', details: {} } });
    expect(s3.keys(BUCKET)).toEqual(before);
    expect(await other!.rows("SELECT id FROM files WHERE name = 'big.jpg'")).toEqual([]);
  });
});
