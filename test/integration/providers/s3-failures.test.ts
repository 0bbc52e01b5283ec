// aws-s3 failing: a bucket that does not exist, the S3 server not answering, and a write the server refuses halfway
// through a file's formats. The client gets v4's 500 envelope, the log names the provider, the action and the key,
// and nothing is half-written: no file row without its objects, no object without its row, no entry created
// around files that could not be stored. Real Strapi 4.26.2 in the same situations (same project, same s3rver):
// the same 500 answers, a delete or replace that cannot reach S3 keeps the row; but it leaves behind the objects
// stored before a failure (also a format object s3rver wrote before failing) and creates the entry of a multipart
// write whose files could not be stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, form, post } from '../upload/app';
import * as gen from '../upload/fixtures';
import { startProvidersApp, type ProvidersApp } from './app';
import { startS3Server, type S3Server } from './servers';

const BUCKET = 'media-failures';
const INTERNAL = { data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } };

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server([BUCKET]);
});
afterAll(async () => {
  await s3?.stop();
});

const providerErrors = (app: ProvidersApp) => app.log.filter((l) => l.level >= 50).map((l) => (l as { err?: { message?: string } }).err?.message ?? l.msg);
const count = async (app: ProvidersApp, from: string) => (await app.rows<{ n: number }>(`SELECT COUNT(*) AS n FROM ${from}`))[0].n;

function entryForm(data: unknown, cover: Buffer): FormData {
  const fd = new FormData();
  fd.append('data', JSON.stringify(data));
  fd.append('files.cover', new Blob([new Uint8Array(cover)], { type: 'image/png' }), 'cover.png');
  return fd;
}

describe('a bucket that does not exist', () => {
  let t: ProvidersApp;
  beforeAll(async () => {
    t = await startProvidersApp({ S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'no-such-bucket' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers an upload with v4\'s 500, writes no row, and logs what failed', async () => {
    const files = await count(t, 'files');
    const res = await post(t, form([{ name: 'big.jpg', type: 'image/jpeg', data: await gen.bigJpeg() }]));
    expect(res).toEqual({ status: 500, body: INTERNAL });
    expect(await count(t, 'files')).toBe(files);
    expect(providerErrors(t)).toContainEqual(expect.stringMatching(/^upload provider "aws-s3" could not store big_[0-9a-f]{10}\.jpg: NoSuchBucket: The specified bucket does not exist$/));
  });

  it('creates no entry around files it could not store (v4 creates the entry, then answers 500)', async () => {
    const [files, articles] = [await count(t, 'files'), await count(t, 'articles')];
    const res = await fetch(`${t.url}/api/articles`, { method: 'POST', headers: { authorization: `Bearer ${t.token}` }, body: entryForm({ title: 'Never', slug: 'never' }, await gen.midPng()) });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual(INTERNAL);
    expect([await count(t, 'files'), await count(t, 'articles')]).toEqual([files, articles]);
  });
});

describe('the S3 server failing', () => {
  let t: ProvidersApp;
  beforeAll(async () => {
    t = await startProvidersApp({ S3_ENDPOINT: s3.endpoint, S3_BUCKET: BUCKET });
  });
  afterAll(async () => {
    await t?.stop();
  });
  const expectBucketMatchesRows = async () => expect(s3.keys(BUCKET)).toEqual(await t.storedKeys());

  it('removes every object of a request when a later format fails halfway (v4 leaves them)', async () => {
    // keys of 228 characters fit s3rver's file names; `large_` and the longer format prefixes make its metadata
    // file too long, so s3rver writes those objects and then answers 500
    const name = `${'a'.repeat(213)}.jpg`;
    const res = await post(t, form([{ name, type: 'image/jpeg', data: await gen.bigJpeg() }]));
    expect(res).toEqual({ status: 500, body: INTERNAL });
    expect(await count(t, "files WHERE provider = 'aws-s3'")).toBe(0);
    expect(s3.keys(BUCKET)).toEqual([]);
    expect(providerErrors(t)).toContainEqual(expect.stringMatching(/^upload provider "aws-s3" could not store (large|medium|small|thumbnail)_a{213}_[0-9a-f]{10}\.jpg: /));
  });

  it('with the server down: uploads, entry writes with files, replace and delete answer 500 and change nothing', async () => {
    const [file] = (await post(t, form([{ name: 'kept.jpg', type: 'image/jpeg', data: await gen.bigJpeg() }]))).body;
    expect(s3.keys(BUCKET)).toHaveLength(5);
    const stored = s3.keys(BUCKET).map((k) => s3.object(BUCKET, k));
    const before = { files: await t.rows('SELECT * FROM files ORDER BY id'), articles: await count(t, 'articles') };
    await s3.pause();
    try {
      expect(await post(t, form([{ name: 'new.png', type: 'image/png', data: await gen.midPng() }]))).toEqual({ status: 500, body: INTERNAL });
      const entry = await fetch(`${t.url}/api/articles`, { method: 'POST', headers: { authorization: `Bearer ${t.token}` }, body: entryForm({ title: 'Offline', slug: 'offline' }, await gen.midPng()) });
      expect(entry.status).toBe(500);
      expect(await post(t, form([{ name: 'other.jpg', type: 'image/jpeg', data: await gen.exifJpeg() }]), { path: `/api/upload?id=${file.id}` })).toEqual({ status: 500, body: INTERNAL });
      // v4's order: the objects first; the provider failing keeps the row (and a retry can finish)
      expect(await call(t, 'DELETE', `/api/upload/files/${file.id}`)).toMatchObject({ status: 500, body: INTERNAL });
      expect({ files: await t.rows('SELECT * FROM files ORDER BY id'), articles: await count(t, 'articles') }).toEqual(before);
      expect(providerErrors(t)).toContainEqual(expect.stringMatching(new RegExp(`^upload provider "aws-s3" could not remove ${file.hash}\\.jpg: `)));
    } finally {
      await s3.start();
    }
    expect(s3.keys(BUCKET).map((k) => s3.object(BUCKET, k))).toEqual(stored);
    await expectBucketMatchesRows();
    expect((await call(t, 'DELETE', `/api/upload/files/${file.id}`)).status).toBe(200);
    expect(s3.keys(BUCKET)).toEqual([]);
    await expectBucketMatchesRows();
  });
});
