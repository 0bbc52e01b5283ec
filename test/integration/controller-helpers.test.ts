// What a v4 project gets from `createCoreController(uid, ({ strapi }) => ({ ... }))` without overriding the
// actions themselves: the factory receives the strapi object, and the core actions go through `this`, so a
// project's `sanitizeQuery`, `sanitizeInput`, `sanitizeOutput` and `transformResponse` take part in every
// answer (v4's core controllers call them that way; a common pattern flattens responses in transformResponse).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../src/core/tessera';
import { copyFixtureApp } from '../helpers/fixture-app';

const ALL_TYPES = path.resolve(__dirname, '../fixtures/all-types');

const CONTROLLER = `
const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::thing.thing', ({ strapi }) => ({
  // the factory runs once at start: strapi must already be there
  factoryStrapi: typeof strapi.service('api::thing.thing').find,
  async sanitizeQuery(ctx) {
    // a project-wide rule: only active things, whatever the client asks
    return { ...ctx.query, filters: { $and: [ctx.query.filters || {}, { active: true }] } };
  },
  async sanitizeInput(data) {
    return { ...data, summary: 'set by sanitizeInput' };
  },
  async sanitizeOutput(data) {
    const strip = (e) => { const { code, ...rest } = e; return rest; };
    return Array.isArray(data) ? data.map(strip) : data && strip(data);
  },
  transformResponse(data, meta) {
    return { data, meta, flat: true };
  },
}));
`;

let app: Tessera;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'tessera-helpers-'));
  fs.cpSync(ALL_TYPES, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.tmp`) });
  fs.writeFileSync(path.join(dir, 'src/api/thing/controllers/thing.js'), CONTROLLER);
  app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const send = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
  const res = await app.server.inject({ method, url, payload: payload as Record<string, unknown> | undefined });
  return { status: res.statusCode, body: JSON.parse(res.body) as { data: any; meta: any; flat?: boolean } };
};

describe('core actions call the project\'s helpers through `this`', () => {
  it('the factory received the strapi object', () => {
    expect((app.strapi.controller('api::thing.thing') as { factoryStrapi: string }).factoryStrapi).toBe('function');
  });

  it('create and findOne: sanitizeInput, sanitizeOutput and transformResponse shape the answer', async () => {
    const created = await send('POST', '/api/things', { data: { name: 'Alpha', code: 'ABC', active: true } });
    expect(created.status).toBe(200);
    expect(created.body.flat).toBe(true);
    expect(created.body.data).toMatchObject({ id: expect.any(Number), name: 'Alpha', summary: 'set by sanitizeInput' });
    expect(created.body.data).not.toHaveProperty('code');
    expect(created.body.data).not.toHaveProperty('attributes');
    const one = await send('GET', `/api/things/${created.body.data.id}`);
    expect(one.body).toMatchObject({ flat: true, meta: {}, data: { name: 'Alpha' } });
    expect(one.body.data).not.toHaveProperty('code');
  });

  it('find: the project\'s sanitizeQuery filters, then its output helpers shape the list', async () => {
    await send('POST', '/api/things', { data: { name: 'Beta', active: false } });
    const list = await send('GET', '/api/things?sort=id');
    expect(list.body.flat).toBe(true);
    expect(list.body.data.map((e: { name: string }) => e.name)).toEqual(['Alpha']);
    expect(list.body.meta.pagination).toMatchObject({ total: 1 });
  });

  it('update and delete go through them too', async () => {
    const beta = await app.strapi.query('api::thing.thing').findOne({ where: { name: 'Beta' } });
    const updated = await send('PUT', `/api/things/${beta!.id}`, { data: { count: 3 } });
    expect(updated.body).toMatchObject({ flat: true, data: { count: 3, summary: 'set by sanitizeInput' } });
    const deleted = await send('DELETE', `/api/things/${beta!.id}`);
    expect(deleted.body).toMatchObject({ flat: true, data: { name: 'Beta' } });
  });
});

describe('config/api.js rest.maxPopulateDepth', () => {
  let fixture: Tessera;
  let fixtureDir: string;
  beforeAll(async () => {
    fixtureDir = copyFixtureApp(true);
    fs.chmodSync(path.join(fixtureDir, 'config'), 0o755);
    fs.writeFileSync(path.join(fixtureDir, 'config/api.js'), 'module.exports = { rest: { defaultLimit: 25, maxLimit: 100, maxPopulateDepth: 2 } };');
    fixture = await createTessera({ dir: fixtureDir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
  });
  afterAll(async () => {
    await fixture?.close();
    fs.rmSync(fixtureDir, { recursive: true, force: true });
  });

  it('bounds REST population at the configured depth', async () => {
    const token = fs.readFileSync(path.join(fixtureDir, '.tmp/token.txt'), 'utf8').trim();
    const get = (url: string) => fixture.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect((await get('/api/articles?populate[author][populate][avatar]=true')).statusCode).toBe(200);
    const deep = await get('/api/articles?populate[author][populate][articles][populate][categories]=true');
    expect(deep.statusCode).toBe(400);
    expect(JSON.parse(deep.body).error.name).toBe('ValidationError');
  });
});
