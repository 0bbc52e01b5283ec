// What v4 plugins use of the strapi object and of koa's ctx beyond a project's usual code, on the fixture app:
// the entity service's `filters` (keys naming no attribute dropped, as v4's convertFiltersQueryParams does),
// `strapi.db.query(uid)` with `filters` (joined to `where`; a function of `{ meta }`), `createMany`'s answer,
// `strapi.sanitizers` / `strapi.validators`, `strapi.config.server.url`, a store scope holding its key, and a
// controller's koa ctx: status 404 until a body is set, `ctx.type`, a stream body, `ctx.redirect`,
// `ctx.acceptsEncodings`, and response helpers that set the answer without throwing. Every value expected of the
// strapi object was read on Strapi 4.26.2 from a bootstrap of the same app (`strapi.sanitizers.get(
// 'content-api.output')` there holds users-permissions' one sanitizer, which Tessera's own plugin does not add).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';

type Json = any;

const ROUTES = `module.exports = { routes: [
  { method: 'GET', path: '/koa/:what', handler: 'koa.show', config: { auth: false } },
] };`;

// each action answers what v4's koa ctx does; `status` is read before anything is set
const CONTROLLER = `const fs = require('fs');
module.exports = {
  async show(ctx) {
    const before = ctx.status;
    switch (ctx.params.what) {
      case 'html':
        ctx.type = 'html';
        ctx.body = '<p>hi</p>';
        ctx.set('x-before', String(before));
        return;
      case 'text':
        ctx.body = 'plain';
        return;
      case 'stream':
        ctx.type = '.txt';
        ctx.body = fs.createReadStream(__filename);
        return;
      case 'redirect':
        return ctx.redirect('/somewhere?a=1');
      case 'caught':
        try {
          ctx.badRequest(null, 'the reason as text');
        } catch (e) {
          ctx.body = { thrown: true };
        }
        ctx.set('x-after', 'went on');
        return;
      case 'encodings':
        ctx.body = { br: ctx.acceptsEncodings('br', 'identity'), gzip: ctx.acceptsEncodings('gzip'), none: ctx.acceptsEncodings('identity') };
        return;
      default:
        // nothing set: v4's 404
    }
  },
};`;

let running: RunningApp;
const strapi = () => running.app.strapi as Json;
const UID = 'api::category.category';
const names = (list: Json[]) => list.map((e) => e.name).filter((n: string) => n.startsWith('Probe ')).sort();

beforeAll(async () => {
  running = await startFixtureApp(true, {
    edit: { 'src/api/koa/routes/koa.js': ROUTES, 'src/api/koa/controllers/koa.js': CONTROLLER },
  });
});
afterAll(async () => {
  await running?.stop();
});

describe('strapi object', () => {
  it('createMany answers { count, ids }; the entity service drops filter keys naming no attribute', async () => {
    const made = await strapi().db.query(UID).createMany({ data: [{ name: 'Probe A', priority: 1 }, { name: 'Probe B', priority: 2 }] });
    expect(Object.keys(made)).toEqual(['count', 'ids']);
    expect(made.count).toBe(2);
    const es = strapi().entityService;
    expect(names(await es.findMany(UID, { filters: { nope: { $eq: 1 }, name: 'Probe A' } }))).toEqual(['Probe A']);
    expect(names(await es.findMany(UID, { filters: { nope: { $eq: 1 } } }))).toEqual(['Probe A', 'Probe B']);
    expect(names(await es.findMany(UID, { filters: { name: { $startsWith: 'Probe' }, priority: { $null: 'false' } } }))).toEqual(['Probe A', 'Probe B']);
    expect(names(await es.findMany(UID, { filters: { name: { $startsWith: 'Probe' }, articles: { nope: 1 } } }))).toEqual(['Probe A', 'Probe B']);
    expect(names(await es.findMany(UID, { filters: { $and: [{ nope: 1 }, { name: 'Probe B' }] } }))).toEqual(['Probe B']);
    expect(await es.count(UID, { filters: { nope: 1, name: { $startsWith: 'Probe' } } })).toBe(2);
    // v4: a plain Error (500 from a controller); Tessera: the same message as a 400
    await expect(es.findMany(UID, { filters: 'name' })).rejects.toThrow('The filters parameter must be an object or an array');
  });

  it('strapi.db.query takes filters besides where, as v4 database layer does', async () => {
    const q = strapi().db.query(UID);
    expect(names(await q.findMany({ filters: { name: 'Probe A' } }))).toEqual(['Probe A']);
    expect(names(await q.findMany({ where: { name: { $startsWith: 'Probe' } }, filters: { priority: 2 } }))).toEqual(['Probe B']);
    expect(names(await q.findMany({ filters: ({ meta }: Json) => ({ name: 'Probe B', ...(meta.attributes.priority ? {} : { nope: 1 }) }) }))).toEqual(['Probe B']);
    expect(names(await q.findMany({ where: { name: { $startsWith: 'Probe' } }, filters: () => undefined }))).toEqual(['Probe A', 'Probe B']);
    expect(await q.count({ filters: { name: { $startsWith: 'Probe' } }, where: { priority: 1 } })).toBe(1);
    expect((await q.findOne({ filters: { name: 'Probe B' } })).name).toBe('Probe B');
  });

  it("has v4's sanitizers and validators registries: an add is kept only under a path that has a list", () => {
    const s = strapi().sanitizers;
    expect(s.get('content-api.output')).toEqual([]);
    s.add('probe.list', () => 1);
    expect([s.get('probe.list').length, s.has('probe.list')]).toEqual([0, false]);
    s.set('probe.list2', []);
    s.add('probe.list2', () => 1);
    expect(s.get('probe.list2').length).toBe(1);
    expect(strapi().validators.get('content-api.input')).toEqual([]);
    expect(strapi().container.get('sanitizers')).toBe(s);
  });

  it("reads config keys as properties, with v4's server.url; a store scope may hold its key", async () => {
    expect(strapi().config.server.url).toBe('');
    expect(strapi().config.get('server.url')).toBe('');
    expect(strapi().config.api.rest.prefix).toBe('/api');
    await strapi().store({ type: 'plugin', name: 'probe' }).set({ key: 'k', value: { a: 1 } });
    expect(await strapi().store({ type: 'plugin', name: 'probe', key: 'k' }).get()).toEqual({ a: 1 });
  });
});

describe("a controller's koa ctx", () => {
  const get = (what: string, headers: Record<string, string> = {}) => fetch(`${running.url}/api/koa/${what}`, { redirect: 'manual', headers });

  it('is 404 until a body is set; ctx.type names the content type; a string starting with < is html', async () => {
    const html = await get('html');
    expect([html.status, html.headers.get('content-type'), html.headers.get('x-before'), await html.text()]).toEqual([200, 'text/html; charset=utf-8', '404', '<p>hi</p>']);
    const text = await get('text');
    expect([text.headers.get('content-type'), await text.text()]).toEqual(['text/plain; charset=utf-8', 'plain']);
    const nothing = await get('nothing');
    expect(nothing.status).toBe(404);
  });

  it('sends a stream body with the type set', async () => {
    const res = await get('stream');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(fs.readFileSync(path.join(running.dir, 'src/api/koa/controllers/koa.js'), 'utf8'));
  });

  it('redirects with 302, the location and a short body', async () => {
    const res = await get('redirect', { accept: 'text/html' });
    expect([res.status, res.headers.get('location'), await res.text()]).toEqual([302, '/somewhere?a=1', 'Redirecting to <a href="/somewhere?a=1">/somewhere?a=1</a>.']);
  });

  it('sets the error answer without throwing (v4), a null message being the status text and details kept as given', async () => {
    const res = await get('caught');
    expect(res.status).toBe(400);
    expect(res.headers.get('x-after')).toBe('went on');
    expect(await res.json()).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message: 'Bad Request', details: 'the reason as text' } });
  });

  it('negotiates encodings as koa does', async () => {
    expect(await (await get('encodings', { 'accept-encoding': 'gzip, br;q=0.5' })).json()).toEqual({ br: 'br', gzip: 'gzip', none: 'identity' });
    expect(await (await get('encodings', { 'accept-encoding': 'identity;q=0' })).json()).toEqual({ br: false, gzip: false, none: false });
  });
});
