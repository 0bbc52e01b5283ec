// Signed media urls inside entry results with a private provider (v4's upload decorator on the entity
// service): REST find / findOne / create / update / delete and `strapi.entityService`, media at any depth
// (components, dynamic zones, relation targets), files of another provider only marked, the number of
// getSignedUrl calls in flight bounded, and the public-provider answers unchanged.
// The provider is a real package inside the project (test/fixtures/private-provider, named by path).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { call, form, post, startUploadApp, type UploadApp } from './app';
import * as gen from './fixtures';
import { SIGN_CONCURRENCY, createMediaSigner } from '../../../src/plugins/upload/sign-entities';
import { createProvider } from '../../../src/plugins/upload/provider';
import { fixtureModel } from '../../helpers/fixture-model';

const PRIVATE = './providers/private-disk';
const SECRET = 'test-signing-secret';
const FIXTURE_PROVIDER = path.resolve(__dirname, '../../fixtures/private-provider');

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const sign = (url: string) => `${url}?signature=${crypto.createHmac('sha256', SECRET).update(url).digest('hex')}`;

/** files 1 (landscape, 4 formats) and 3 (small) belong to the private provider; 2 (portrait) stays local */
const prepareDb = (db: Database.Database) => db.prepare('UPDATE files SET provider = ? WHERE id IN (1, 3)').run(PRIVATE);

const privatePlugins = (dir: string) =>
  `module.exports = () => ({ upload: { config: { provider: ${JSON.stringify(PRIVATE)}, providerOptions: { dir: ${JSON.stringify(path.join(dir, 'bucket'))}, secret: ${JSON.stringify(SECRET)} } } } });\n`;

/**
 * What v4's signFileUrls makes of a response (REST or flat): every file of the private provider with its
 * url and each format's url signed and `isUrlSigned: true` (file and formats), every other file
 * `isUrlSigned: false`, the key last.
 */
function expectedSigned(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expectedSigned);
  if (!isObj(value)) return value;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) out[k] = expectedSigned(v);
  if (!(typeof value.hash === 'string' && 'provider' in value && 'mime' in value)) return out;
  if (value.provider !== PRIVATE) return { ...out, isUrlSigned: false };
  const file: Obj = { ...out, url: sign(value.url) };
  if (isObj(value.formats)) {
    file.formats = Object.fromEntries(Object.entries(value.formats).map(([k, f]) => [k, { ...(f as Obj), url: sign((f as Obj).url), isUrlSigned: true }]));
  }
  file.isUrlSigned = true;
  return file;
}

/** the attribute paths (array indexes dropped) where a signed file sits */
function signedPaths(value: unknown, at = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => signedPaths(v, at, out));
  else if (isObj(value)) {
    if (value.isUrlSigned === true && 'hash' in value) out.add(at);
    for (const [k, v] of Object.entries(value)) if (k !== 'formats') signedPaths(v, k === 'data' || k === 'attributes' ? at : `${at}.${k}`, out);
  }
  return out;
}

const sameJson = (actual: unknown, expected: unknown) => {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected)); // key order too
};

let priv: UploadApp;
let pub: UploadApp;
const providerOf = (t: UploadApp) => (t.app.strapi as Obj).plugin('upload').provider as { signed: number; maxInFlight: number; inFlight: number };
const entityService = (t: UploadApp) => (t.app.strapi as Obj).entityService;

beforeAll(async () => {
  [priv, pub] = await Promise.all([
    startUploadApp({
      prepareDb,
      prepareDir: (dir) => {
        fs.cpSync(FIXTURE_PROVIDER, path.join(dir, 'providers/private-disk'), { recursive: true });
        fs.writeFileSync(path.join(dir, 'config/plugins.js'), privatePlugins(dir));
      },
    }),
    startUploadApp({ prepareDb }),
  ]);
});
afterAll(async () => {
  await Promise.all([priv?.stop(), pub?.stop()]);
});

const NESTED = 'populate[cover]=true&populate[gallery]=true&populate[seo][populate]=shareImage&populate[author][populate]=avatar&populate[blocks][populate]=*';

describe('REST answers with a private provider', () => {
  it('find with populate=*: every media file signed as v4 signs it, another provider\'s file only marked', async () => {
    const [a, b] = await Promise.all([call(priv, 'GET', '/api/articles?populate=*'), call(pub, 'GET', '/api/articles?populate=*')]);
    expect(a.status).toBe(200);
    sameJson(a.body, expectedSigned(b.body));
    expect([...signedPaths(a.body)].sort()).toEqual(['.gallery']);
    const covers = a.body.data.map((e: Obj) => e.attributes.cover.data).filter(Boolean);
    expect(covers.length).toBeGreaterThan(0);
    for (const c of covers) expect(c.attributes).toMatchObject({ provider: 'local', url: '/uploads/portrait_4dbed98885.png', isUrlSigned: false });
  });

  it('findOne and find with nested populate: media in components, dynamic zones and relation targets', async () => {
    const list = `/api/articles?pagination[pageSize]=100&${NESTED}`;
    const [a, b] = await Promise.all([call(priv, 'GET', list), call(pub, 'GET', list)]);
    sameJson(a.body, expectedSigned(b.body));
    expect([...signedPaths(a.body)].sort()).toEqual(['.author.avatar', '.blocks.images', '.gallery', '.seo.shareImage']);
    // one entry with media in its component and in its author
    const entry = b.body.data.find((e: Obj) => e.attributes.seo?.shareImage?.data && e.attributes.author?.data?.attributes.avatar?.data);
    expect(entry).toBeDefined();
    const one = `/api/articles/${entry.id}?${NESTED}`;
    const [c, d] = await Promise.all([call(priv, 'GET', one), call(pub, 'GET', one)]);
    sameJson(c.body, expectedSigned(d.body));
    const share = c.body.data.attributes.seo.shareImage.data.attributes;
    expect(share.url).toBe(sign('/uploads/landscape_9e07983b1e.jpg'));
    expect(share.formats.small).toMatchObject({ url: sign('/uploads/small_landscape_9e07983b1e.jpg'), isUrlSigned: true });
    expect(c.body.data.attributes.author.data.attributes.avatar.data.attributes).toMatchObject({ url: sign('/uploads/small_f954151f44.png'), isUrlSigned: true });
    // nothing signed is stored
    expect(await priv.rows('SELECT url FROM files WHERE id = 1')).toEqual([{ url: '/uploads/landscape_9e07983b1e.jpg' }]);
  });

  it('create, update and delete answers carry signed urls of files uploaded through the provider', async () => {
    const up = await post(priv, form([{ name: 'mid.png', data: await gen.midPng() }]));
    expect(up.status).toBe(200);
    const file = up.body[0];
    expect(fs.existsSync(path.join(priv.dir, 'bucket', `${file.hash}.png`))).toBe(true);
    const raw = `/private/${file.hash}.png`;

    const created = await post(priv, { data: { title: 'Signed', cover: file.id, gallery: [file.id, 2] } }, { path: '/api/articles?populate[cover]=true&populate[gallery]=true' });
    expect(created.status).toBe(200);
    const cover = created.body.data.attributes.cover.data.attributes;
    expect(cover).toMatchObject({ provider: PRIVATE, url: sign(raw), isUrlSigned: true });
    expect(Object.keys(cover).at(-1)).toBe('isUrlSigned');
    expect(cover.formats.thumbnail).toMatchObject({ url: sign(`/private/thumbnail_${file.hash}.png`), isUrlSigned: true });
    const gallery = created.body.data.attributes.gallery.data.map((f: Obj) => f.attributes);
    expect(gallery.map((f: Obj) => [f.url, f.isUrlSigned])).toEqual([[sign(raw), true], ['/uploads/portrait_4dbed98885.png', false]]);
    const id = created.body.data.id;

    const res = await fetch(`${priv.url}/api/articles/${id}?populate[seo][populate]=shareImage`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${priv.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { seo: { metaTitle: 'Signed', shareImage: file.id } } }),
    });
    const updated = (await res.json()) as Obj;
    expect(res.status).toBe(200);
    expect(updated.data.attributes.seo.shareImage.data.attributes).toMatchObject({ url: sign(raw), isUrlSigned: true });

    const deleted = await call(priv, 'DELETE', `/api/articles/${id}?populate[cover]=true`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.attributes.cover.data.attributes).toMatchObject({ url: sign(raw), isUrlSigned: true });
    expect(await priv.rows('SELECT url FROM files WHERE id = ?', file.id)).toEqual([{ url: raw }]);
  });

  it('signs with at most SIGN_CONCURRENCY provider calls in flight per response', async () => {
    const provider = providerOf(priv);
    provider.signed = 0;
    provider.maxInFlight = 0;
    const res = await call(priv, 'GET', `/api/articles?pagination[pageSize]=100&${NESTED}`);
    expect(res.status).toBe(200);
    expect(provider.signed).toBeGreaterThan(SIGN_CONCURRENCY * 4);
    expect(provider.maxInFlight).toBe(SIGN_CONCURRENCY);
    expect(provider.inFlight).toBe(0);
  });
});

describe('strapi.entityService with a private provider', () => {
  const populate = { cover: true, gallery: true, seo: { populate: ['shareImage'] }, author: { populate: ['avatar'] }, blocks: { populate: '*' } };

  it('findMany, findOne, findPage and load return signed media at any depth', async () => {
    const [a, b] = await Promise.all([priv, pub].map((t) => entityService(t).findMany('api::article.article', { populate, sort: 'id', limit: 100 })));
    sameJson(a, expectedSigned(b));
    expect([...signedPaths(a)].sort()).toEqual(['.author.avatar', '.blocks.images', '.gallery', '.seo.shareImage']);
    expect(JSON.stringify(b)).not.toContain('isUrlSigned');

    const one = (b as Obj[]).find((e) => e.seo?.shareImage)!;
    const [c, d] = await Promise.all([priv, pub].map((t) => entityService(t).findOne('api::article.article', one.id, { populate })));
    sameJson(c, expectedSigned(d));

    const [p, q] = await Promise.all([priv, pub].map((t) => entityService(t).findPage('api::article.article', { populate: { gallery: true }, pagination: { page: 1, pageSize: 20 } })));
    sameJson(p, expectedSigned(q));

    const author = (b as Obj[]).find((e) => e.author?.avatar)!.author;
    const loaded = await entityService(priv).load('api::author.author', { id: author.id }, 'avatar');
    expect(loaded).toMatchObject({ id: 3, url: sign('/uploads/small_f954151f44.png'), isUrlSigned: true });
  });
});

describe('public provider', () => {
  it('answers exactly as before: no isUrlSigned key, urls as stored', async () => {
    const res = await call(pub, 'GET', `/api/articles?pagination[pageSize]=100&${NESTED}`);
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('isUrlSigned');
    expect(text).toContain('"url":"/uploads/landscape_9e07983b1e.jpg"');
    const one = await call(pub, 'GET', `/api/articles/${res.body.data[0].id}?${NESTED}`);
    expect(JSON.stringify(one.body)).not.toContain('isUrlSigned');
  });

  it('a public provider\'s signer stays off and hands results back untouched', async () => {
    const model = fixtureModel();
    const provider = createProvider({ name: 'local', providerOptions: {}, actionOptions: {}, projectDir: pub.dir, uploadsDir: pub.uploadsDir });
    const signer = createMediaSigner({ model, provider, providerName: 'local' });
    await signer.start();
    expect(signer.active).toBe(false);
    const entity = { id: 1, cover: { id: 2, hash: 'x', mime: 'image/png', provider: 'local', url: '/uploads/x.png' } };
    expect(await signer.sign('api::article.article', entity)).toBe(entity);
    expect(entity.cover).not.toHaveProperty('isUrlSigned');
  });

  it('signAdminURLsOnly keeps a private provider\'s entry results unsigned (v4: only the admin panel signs then)', async () => {
    const provider = createProvider({ name: PRIVATE, providerOptions: { dir: path.join(priv.dir, 'bucket'), secret: SECRET }, actionOptions: {}, projectDir: priv.dir, uploadsDir: priv.uploadsDir });
    const adminOnly = createMediaSigner({ model: fixtureModel(), provider, providerName: PRIVATE, adminOnly: true });
    await adminOnly.start();
    expect(adminOnly.active).toBe(false);
  });
});

describe('the signer', () => {
  it('signs a file met twice once, copies what it changes and keeps entry meta', async () => {
    const provider = createProvider({ name: PRIVATE, providerOptions: { dir: path.join(priv.dir, 'bucket'), secret: SECRET }, actionOptions: {}, projectDir: priv.dir, uploadsDir: priv.uploadsDir });
    const signer = createMediaSigner({ model: fixtureModel(), provider, providerName: PRIVATE });
    await signer.start();
    expect(signer.active).toBe(true);
    const file = { id: 7, hash: 'h', mime: 'image/png', provider: PRIVATE, url: '/private/h.png', formats: { thumbnail: { hash: 'thumbnail_h', url: '/private/thumbnail_h.png' } } };
    const meta = Symbol.for('test.meta');
    const entity = { id: 1, title: 'x', cover: file, gallery: [file], seo: { id: 1, metaTitle: 't' }, [meta]: 'kept' };
    const instance = provider.instance as unknown as { signed: number };
    instance.signed = 0;
    const out = (await signer.sign('api::article.article', [entity])) as Obj[];
    expect(instance.signed).toBe(2); // the file and its one format, once
    expect(out[0]).not.toBe(entity);
    expect(out[0][meta as unknown as string]).toBe('kept');
    expect(out[0].seo).toBe(entity.seo); // nothing to sign there: not copied
    expect(out[0].cover).toBe(out[0].gallery[0]);
    expect(out[0].cover).toEqual({ ...file, url: sign(file.url), formats: { thumbnail: { ...file.formats.thumbnail, url: sign(file.formats.thumbnail.url), isUrlSigned: true } }, isUrlSigned: true });
    expect(file.url).toBe('/private/h.png'); // the input is not changed
    expect(file).not.toHaveProperty('isUrlSigned');
    expect(await signer.sign('api::category.category', [{ id: 1, name: 'c' }])).toEqual([{ id: 1, name: 'c' }]);
  });
});
