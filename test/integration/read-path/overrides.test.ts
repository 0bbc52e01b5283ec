// Project code that reads or changes a core controller's response keeps receiving objects. The JSON read
// path hands the core controller's `{ data, meta }` out as a body backed by its JSON text: the server
// sends that text only when nothing looked inside (rest/json-body.ts); code that looks inside gets plain
// objects, and a project service that replaces `find` / `findOne` turns the JSON path off for its type.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../../src/core/tessera';
import { jsonBody, untouchedJsonText } from '../../../src/rest/json-body';
import { copyFixtureApp } from '../../helpers/fixture-app';
import { bothTargets, targetsFor, type Targets } from './targets';

const FILES: Record<string, string> = {
  // changes what super.find / super.findOne return
  'src/api/article/controllers/article.js': `
    const { createCoreController } = require('@strapi/strapi').factories;
    module.exports = createCoreController('api::article.article', () => ({
      async find(ctx) {
        const r = await super.find(ctx);
        r.meta.touched = Object.keys(r).join(',');
        r.data = r.data.slice(0, 2);
        return r;
      },
      async findOne(ctx) {
        const { data, meta } = await super.findOne(ctx);
        return { data: { id: data.id, title: data.attributes.title.toUpperCase() }, meta };
      },
      async first(ctx) {
        const r = await global.strapi.controller('api::category.category').find(ctx);
        ctx.body = { first: r.data[0].attributes.name, total: r.meta.pagination.total };
      },
      // the category controller set ctx.body: as in v4, that body wins over the value returned here
      async firstReturned(ctx) {
        const r = await global.strapi.controller('api::category.category').find(ctx);
        return { first: r.data[0].attributes.name };
      },
    }));`,
  'src/api/article/routes/custom.js': `module.exports = { routes: [
    { method: 'GET', path: '/first-category', handler: 'article.first' },
    { method: 'GET', path: '/first-category-returned', handler: 'article.firstReturned' },
  ] };`,
  // passes the response on untouched
  'src/api/category/controllers/category.js': `
    const { createCoreController } = require('@strapi/strapi').factories;
    module.exports = createCoreController('api::category.category', () => ({
      async find(ctx) {
        ctx.body = await super.find(ctx);
        return ctx.body;
      },
    }));`,
  // changes ctx.query before the core controller reads it
  'src/api/author/controllers/author.js': `
    const { createCoreController } = require('@strapi/strapi').factories;
    module.exports = createCoreController('api::author.author', () => ({
      async find(ctx) {
        if (ctx.query.only === 'first') {
          ctx.query.filters = { id: { $eq: 1 } };
          delete ctx.query.only;
        }
        return super.find(ctx);
      },
    }));`,
  // a service that changes what find returns: the core controller must go through it
  'src/api/author/services/author.js': `
    const { createCoreService } = require('@strapi/strapi').factories;
    module.exports = createCoreService('api::author.author', () => ({
      async find(params) {
        const r = await super.find(params);
        return { ...r, results: r.results.map((e) => ({ ...e, name: String(e.name).toUpperCase() })) };
      },
    }));`,
};

let app: Tessera;
let dir: string;
let token: string;
let t: Targets;

beforeAll(async () => {
  dir = copyFixtureApp(true);
  for (const [file, text] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, file), text);
  app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
  token = fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim();
  t = targetsFor(app.db, app.model);
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function get(url: string, auth = false): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.server.inject({ method: 'GET', url, headers: auth ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
}

describe('core controller overrides', () => {
  it('super.find returns an object the override can read and change', async () => {
    const { status, body } = await get('/api/articles?populate=author');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(2);
    const meta = body.meta as Record<string, unknown>;
    expect(meta.touched).toBe('data,meta');
    expect(meta.pagination).toMatchObject({ page: 1, pageSize: 25 });
    const reference = JSON.parse((await bothTargets(t, '/api/articles?populate=author')).js!) as { data: unknown[] };
    expect(body.data).toEqual(reference.data.slice(0, 2));
  });

  it('super.findOne returns an object the override can destructure', async () => {
    const { body } = await get('/api/articles/2');
    const reference = JSON.parse((await bothTargets(t, '/api/articles/2')).js!) as { data: { attributes: { title: string } } };
    expect(body).toEqual({ data: { id: 2, title: reference.data.attributes.title.toUpperCase() }, meta: {} });
  });

  it('a custom controller calling another core controller gets objects', async () => {
    const { status, body } = await get('/api/first-category', true);
    expect(status).toBe(200);
    const reference = JSON.parse((await bothTargets(t, '/api/categories')).js!) as { data: Array<{ attributes: { name: string } }>; meta: { pagination: { total: number } } };
    expect(body).toEqual({ first: reference.data[0].attributes.name, total: reference.meta.pagination.total });
  });

  it('a body the controller set wins over the value it returns (v4 returnBodyMiddleware)', async () => {
    const { status, body } = await get('/api/first-category-returned', true);
    expect(status).toBe(200);
    expect(body).toStrictEqual(JSON.parse((await bothTargets(t, '/api/categories')).js!));
  });

  it('an override passing the response on (ctx.body) answers exactly what the core controller would', async () => {
    const url = '/api/categories?populate[articles][fields][0]=title&sort=name';
    const { body } = await get(url);
    expect(body).toStrictEqual(JSON.parse((await bothTargets(t, url)).js!));
  });

  it('a project service replacing find is always called', async () => {
    const { body } = await get('/api/authors?sort=id');
    const names = (body.data as Array<{ attributes: { name: string } }>).map((e) => e.attributes.name);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n).toBe(n.toUpperCase());
  });
});

describe('query strings', () => {
  it('each request gets its own parsed query: a controller changing it changes nothing for the next', async () => {
    const all = (await get('/api/authors?sort=id')).body.data as unknown[];
    expect(all.length).toBeGreaterThan(1);
    for (let i = 0; i < 3; i++) expect((await get('/api/authors?sort=id&only=first')).body.data).toHaveLength(1);
    expect((await get('/api/authors?sort=id')).body.data).toHaveLength(all.length);
  });
});

describe('a JSON body', () => {
  const text = '{"data":[{"id":1,"attributes":{"a":1}}],"meta":{"pagination":{"page":1}}}';

  it('is sent as written until something looks inside', async () => {
    const body = jsonBody(text);
    expect(untouchedJsonText(body)).toBe(text);
    await Promise.resolve(body); // awaiting it asks for `then`: not a look inside
    expect(untouchedJsonText(body)).toBe(text);
  });

  it.each([
    ['reading a key', (b: Record<string, unknown>) => void b.data],
    ['listing keys', (b: Record<string, unknown>) => void Object.keys(b)],
    ['spreading', (b: Record<string, unknown>) => void ({ ...b })],
    ['deleting a key', (b: Record<string, unknown>) => void delete b.meta],
    ['setting a key', (b: Record<string, unknown>) => void (b.extra = 1)],
    ['`in`', (b: Record<string, unknown>) => void ('data' in b)],
    ['JSON.stringify', (b: Record<string, unknown>) => void JSON.stringify(b)],
  ])('%s opens it as a plain object, which the server then serializes', (_name, touch) => {
    const body = jsonBody(text);
    touch(body);
    expect(untouchedJsonText(body)).toBeUndefined();
    expect(JSON.parse(JSON.stringify(body))).toEqual(expect.objectContaining({ data: [{ id: 1, attributes: { a: 1 } }] }));
  });

  it('behaves as the object it stands for', () => {
    const body = jsonBody(text);
    expect(Object.keys(body)).toEqual(['data', 'meta']);
    expect(body).toEqual(JSON.parse(text));
    (body.data as unknown[]).push({ id: 2 });
    delete body.meta;
    expect(JSON.parse(JSON.stringify(body))).toEqual({ data: [{ id: 1, attributes: { a: 1 } }, { id: 2 }] });
  });
});
