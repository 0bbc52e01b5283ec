// Issue #20 part 4, upload side: a client's mistake is never a 500. `start`/`limit` of GET /api/upload/files
// that no database can take (v4 4.26.2: 500 "datatype mismatch") are a 400 ValidationError, while the values
// v4 answers keep its answers; a legal 250-character file name, whose stored key or format keys
// (`thumbnail_<hash><ext>`, ...) would pass the file system's 255-byte limit (v4: 500 "File name too
// long"), is stored under a shortened hash that keeps its random part.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, form, post, startUploadApp, type UploadApp } from '../integration/upload/app';
import * as gen from '../integration/upload/fixtures';

let t: UploadApp;
beforeAll(async () => {
  t = await startUploadApp();
});
afterAll(async () => {
  await t?.stop();
});

const MAX_KEY_BYTES = 255;
const keysOf = (f: { url: string; formats?: Record<string, { url: string }> | null }) =>
  [f, ...Object.values(f.formats ?? {})].map((x) => path.basename(x.url));

describe('GET /api/upload/files: start and limit', () => {
  const ids = async (query: string) => {
    const res = await call(t, 'GET', `/api/upload/files?fields[0]=name&sort=id:asc&${query}`);
    expect(res.status, query).toBe(200);
    return (res.body as Array<{ id: number }>).map((f) => f.id);
  };

  it.each(['limit=1e20', 'start=1e20', 'start=1e308', 'limit=9223372036854775808', 'limit=-5', 'start=-1', 'limit=1.5', 'start=abc', 'limit[a]=1'])(
    '%s is a 400 ValidationError', async (query) => {
      const res = await call(t, 'GET', `/api/upload/files?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
    },
  );

  it('keeps v4\'s answers for the values it takes', async () => {
    const all = await ids('');
    expect(all.length).toBeGreaterThan(1);
    expect(await ids('limit=-1')).toEqual(all);
    expect(await ids('limit=0')).toEqual(all); // v4: no limit
    expect(await ids('limit=%20')).toEqual(all);
    expect(await ids('limit=9007199254740993')).toEqual(all);
    expect(await ids('limit[]=1')).toEqual(all.slice(0, 1));
    expect(await ids('start=1&limit=1')).toEqual(all.slice(1, 2));
    expect(await ids('start=99999999999')).toEqual([]);
  });
});

describe('file names as long as the rules allow', () => {
  it('stores an image named with 250 characters: every key within 255 bytes, the name kept whole', async () => {
    const name = `${'a'.repeat(246)}.jpg`;
    const res = await post(t, form([{ name, data: await gen.bigJpeg() }]));
    expect(res.status).toBe(200);
    const [file] = res.body;
    expect(file.name).toBe(name);
    expect(file.hash).toMatch(/^a+_[0-9a-f]{10}$/);
    expect(Object.keys(file.formats).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
    for (const [key, f] of Object.entries<{ hash: string; name: string }>(file.formats)) {
      expect(f.hash).toMatch(new RegExp(`^${key}_a+_${file.hash.slice(-10)}$`));
      expect(f.name).toBe(`${key}_${name}`);
    }
    for (const key of keysOf(file)) {
      expect(Buffer.byteLength(key)).toBeLessThanOrEqual(MAX_KEY_BYTES);
      expect(t.uploads()).toContain(key);
      expect((await fetch(`${t.url}/uploads/${key}`)).status).toBe(200);
    }
  });

  it('keeps a name that fits exactly as v4 stores it', async () => {
    const [file] = (await post(t, form([{ name: `${'b'.repeat(200)}.png`, data: await gen.midPng() }]))).body;
    expect(file.hash).toMatch(/^b{200}_[0-9a-f]{10}$/);
    expect(file.formats.thumbnail.hash).toBe(`thumbnail_${file.hash}`);
  });

  it('stores a text file whose extension alone is 250 bytes under a short one', async () => {
    const name = `notes.${'é'.repeat(125)}`;
    const res = await post(t, form([{ name, data: gen.textFile() }]));
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ name, ext: '.txt', mime: 'text/plain' });
    expect(t.uploads()).toContain(path.basename(res.body[0].url));
  });

  it('replaces a long-named text file with an image: the formats fit too', async () => {
    const [text] = (await post(t, form([{ name: `${'c'.repeat(240)}.txt`, data: gen.textFile() }]))).body;
    const res = await post(t, form([{ name: 'big.jpg', data: await gen.bigJpeg() }]), { path: `/api/upload?id=${text.id}` });
    expect(res.status).toBe(200);
    expect(res.body.hash).toBe(text.hash);
    for (const key of keysOf(res.body)) {
      expect(Buffer.byteLength(key)).toBeLessThanOrEqual(MAX_KEY_BYTES);
      expect(t.uploads()).toContain(key);
    }
  });

  it('leaves no temporary file in the uploads folder', () => {
    expect(t.uploads().filter((f) => f.startsWith('.'))).toEqual([]);
  });
});
