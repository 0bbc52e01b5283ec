// Route policies, route middlewares and project middlewares on the hooks test project, beyond what the golden
// replay (test/compat/hooks-routes.golden.test.ts) compares: start-up errors naming the file, the koa ctx surface
// policies and middlewares use, createPolicy objects, koa-compose rules, auth: false.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTessera } from '../../../src/core/tessera';
import { copyHooksApp, startHooksApp, type RunningHooksApp } from './hooks-app';

const GATE_ROUTES = 'src/api/gate/routes/gate.js';

async function startupError(edit: Record<string, string>): Promise<Error & { file?: string }> {
  const dir = copyHooksApp(edit);
  try {
    const app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
    await app.close();
    throw new Error('start-up did not fail');
  } catch (err) {
    return err as Error & { file?: string };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const customRoutes = (routes: unknown[]) => `module.exports = { routes: ${JSON.stringify(routes)} };`;

describe('start-up stops on what v4 stops on, naming the file', () => {
  it('an unknown policy', async () => {
    const err = await startupError({ [GATE_ROUTES]: fs.readFileSync(path.resolve(__dirname, '../../fixtures/hooks-app', GATE_ROUTES), 'utf8').replace("'global::deny'", "'global::missing'") });
    expect(err.name).toBe('ProjectError');
    expect(err.message).toContain('GET /gates/:id: policy "global::missing" does not exist');
    expect(err.message).toContain('src/api/gate/routes/gate.js');
  });

  it('a bare name that is only a global policy (v4 looks in the route\'s API only)', async () => {
    const err = await startupError({ 'src/api/gate/routes/extra.js': customRoutes([{ method: 'GET', path: '/x', handler: 'gate.trace', config: { policies: ['deny'] } }]) });
    expect(err.message).toContain('GET /x: policy "deny" does not exist');
    expect(err.message).toContain('src/api/gate/routes/extra.js');
  });

  it('an unknown route middleware', async () => {
    const err = await startupError({ 'src/api/gate/routes/extra.js': customRoutes([{ method: 'GET', path: '/x', handler: 'gate.trace', config: { middlewares: ['global::nope'] } }]) });
    expect(err.message).toContain('GET /x: middleware "global::nope" does not exist');
  });

  it('policies or middlewares that are not a list, and entries of the wrong shape', async () => {
    expect((await startupError({ 'src/api/gate/routes/extra.js': customRoutes([{ method: 'GET', path: '/x', handler: 'gate.trace', config: { middlewares: 'global::trace' } }]) })).message)
      .toContain('config.middlewares must be an array');
    expect((await startupError({ 'src/api/gate/routes/extra.js': customRoutes([{ method: 'GET', path: '/x', handler: 'gate.trace', config: { policies: [{ config: {} }] } }]) })).message)
      .toContain('a policy must be a name, { name, config } or a function');
  });

  it('an unknown project middleware in config/middlewares.js', async () => {
    const err = await startupError({ 'config/middlewares.js': "module.exports = ['strapi::errors', 'global::nope'];" });
    expect(err.message).toContain('middleware "global::nope" does not exist');
    expect(err.message).toContain(path.join('config', 'middlewares.js'));
  });

  it('a { resolve } middleware that cannot be loaded', async () => {
    const err = await startupError({ 'config/middlewares.js': "module.exports = ['strapi::errors', { resolve: './src/middlewares/missing' }];" });
    expect(err.message).toContain('could not load middleware "./src/middlewares/missing"');
  });

  it('a createPolicy validator that rejects the route\'s config', async () => {
    const err = await startupError({
      'src/policies/validated.js': "module.exports = { name: 'validated', validator: (c) => { if (!c.role) throw new Error('role'); }, handler: () => true };",
      'src/api/gate/routes/extra.js': customRoutes([{ method: 'GET', path: '/x', handler: 'gate.trace', config: { policies: [{ name: 'global::validated', config: {} }] } }]),
    });
    expect(err.message).toContain('invalid config passed to "global::validated" policy');
  });
});

const PROBE = `module.exports = (config) => async (ctx, next) => {
  const before = { method: ctx.method, path: ctx.path, url: ctx.url, ip: ctx.ip, header: ctx.header['x-probe'], get: ctx.get('X-Probe'),
    headersSame: ctx.headers === ctx.request.headers, json: ctx.is('json'), multipart: ctx.is('multipart'), status: ctx.response.status };
  if (config.throw) ctx.throw(config.throw, config.message);
  await next();
  ctx.response.set('x-probed', 'yes');
  ctx.response.status = 201;
  ctx.response.body = { before, handler: ctx.response.body };
};`;

describe('a running project', () => {
  let running: RunningHooksApp;
  const inject = (o: { method?: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: unknown; token?: boolean }) =>
    running.app.server.inject({
      method: o.method ?? 'GET', url: o.url, payload: o.payload as never,
      headers: { ...(o.token === false ? {} : { authorization: `Bearer ${running.token}` }), ...o.headers },
    });

  beforeAll(async () => {
    running = await startHooksApp({
      'src/middlewares/probe.js': PROBE,
      'src/policies/validated.js': "module.exports = { name: 'validated', validator: (c) => { if (!c.role) throw new Error('role'); }, handler: (ctx, c) => ctx.request.headers['x-role'] === c.role };",
      'src/middlewares/twice.js': 'module.exports = () => async (ctx, next) => { await next(); await next(); };',
      'src/middlewares/none.js': 'module.exports = () => undefined;',
      // answers v4's ctx.state.route as the policy saw it
      'src/policies/route-info.js': "module.exports = (ctx) => { const { route } = ctx.state; ctx.state.routeSeen = { method: route.method, path: route.path, handler: route.handler, info: route.info, policies: route.config.policies.length }; return true; };",
      'src/middlewares/route-answer.js': 'module.exports = () => async (ctx, next) => { await next(); ctx.body = ctx.state.routeSeen; };',
      // v4's koa response helpers, from a controller of an API without content types
      'src/api/resp/controllers/resp.js': `module.exports = {
        async sent(ctx) { ctx.send({ ok: true }, 202); },
        async created(ctx) { ctx.created({ made: 1 }); },
        async deletedNothing(ctx) { ctx.deleted(); },
        async conflict(ctx) { ctx.conflict('already there', { key: 'k' }); },
        async unavailable(ctx) { return ctx.serviceUnavailable(); },
        async teapot(ctx) { ctx.imATeapot('short and stout'); },
        // a custom upload endpoint written for v4: koa-body's ctx.request.files handed to the upload service
        async files(ctx) {
          const fs = require('fs');
          const { files, body } = ctx.request;
          const list = [].concat(files.doc);
          const seen = list.map((f) => ({ name: f.name, type: f.type, size: f.size, exists: fs.existsSync(f.path) }));
          const [stored] = await strapi.plugin('upload').service('upload').upload({ data: {}, files: list[0] });
          globalThis.lastUploadTemp = list[0].path;
          return { fields: body, seen, stored: { name: stored.name, size: stored.size } };
        },
      };`,
      'src/api/resp/routes/resp.js': `module.exports = { routes: ['sent', 'created', 'deletedNothing', 'conflict', 'unavailable', 'teapot']
        .map((a) => ({ method: 'GET', path: '/resp/' + a, handler: 'resp.' + a, config: { auth: false } }))
        .concat([{ method: 'POST', path: '/resp/files', handler: 'resp.files' }]) };`,
      'src/api/gate/routes/extra.js': `module.exports = { routes: [
        { method: 'POST', path: '/probe/:id', handler: 'gate.trace', config: { middlewares: ['global::probe'] } },
        { method: 'GET', path: '/probe-throws', handler: 'gate.trace', config: { middlewares: [{ name: 'global::probe', config: { throw: 418, message: 'short and stout' } }] } },
        { method: 'GET', path: '/probe-throws-500', handler: 'gate.trace', config: { middlewares: [{ name: 'global::probe', config: { throw: 503, message: 'secret detail' } }] } },
        { method: 'GET', path: '/validated', handler: 'gate.trace', config: { policies: [{ name: 'global::validated', config: { role: 'editor' } }] } },
        { method: 'GET', path: '/twice', handler: 'gate.trace', config: { middlewares: ['global::twice'] } },
        { method: 'GET', path: '/factory-returns-nothing', handler: 'gate.trace', config: { middlewares: ['global::none'] } },
        { method: 'GET', path: '/plain', handler: 'gate.trace' },
        { method: 'GET', path: '/route-info', handler: 'gate.trace', config: { policies: ['global::route-info'], middlewares: ['global::route-answer'] } },
      ] };`,
    });
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('gives middlewares koa\'s ctx: method, path, url, ip, headers, is(), response', async () => {
    const res = await inject({ method: 'POST', url: '/api/probe/5?x=1', headers: { 'x-probe': 'p', 'content-type': 'application/json; charset=utf-8' }, payload: { a: 1 } });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-probed']).toBe('yes');
    const body = res.json();
    expect(body.before).toEqual({
      method: 'POST', path: '/api/probe/5', url: '/api/probe/5?x=1', ip: '127.0.0.1', header: 'p', get: 'p',
      // koa: 404 until a body or a status is set
      headersSame: true, json: 'json', multipart: false, status: 404,
    });
    expect(body.handler.trace).toEqual(['app:A', 'app:resolved', 'mw:api', 'app:B', 'handler']);
  });

  it('has v4\'s koa response helpers: send, created, deleted, and one method per error status', async () => {
    const get = async (a: string) => { const r = await inject({ url: `/api/resp/${a}`, token: false }); return [r.statusCode, r.body ? r.json() : null]; };
    expect(await get('sent')).toEqual([202, { ok: true }]);
    expect(await get('created')).toEqual([201, { made: 1 }]);
    expect(await get('deletedNothing')).toEqual([204, null]);
    expect(await get('conflict')).toEqual([409, { data: null, error: { status: 409, name: 'ConflictError', message: 'already there', details: { key: 'k' } } }]);
    expect(await get('unavailable')).toEqual([503, { data: null, error: { status: 503, name: 'ServiceUnavailableError', message: 'Service Unavailable', details: {} } }]);
    expect(await get('teapot')).toEqual([418, { data: null, error: { status: 418, name: 'ImATeapotError', message: 'short and stout', details: {} } }]);
  });

  it('gives custom routes a multipart request as koa-body did: ctx.request.body fields, ctx.request.files by field', async () => {
    const form = new FormData();
    form.append('title', 'hello');
    form.append('doc', new Blob([Buffer.from('first file\n')], { type: 'text/plain' }), 'a.txt');
    form.append('doc', new Blob([Buffer.from('second\n')], { type: 'text/plain' }), 'b.txt');
    const res = await fetch(`${running.url}/api/resp/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${running.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      fields: { title: 'hello' },
      seen: [{ name: 'a.txt', type: 'text/plain', size: 11, exists: true }, { name: 'b.txt', type: 'text/plain', size: 7, exists: true }],
      stored: { name: 'a.txt', size: 0.01 },
    });
    // the temporary files are gone once the handler finished (the upload service kept its own copy)
    expect(fs.existsSync((globalThis as { lastUploadTemp?: string }).lastUploadTemp!)).toBe(false);
  });

  it('ctx.state.route is the route as declared, with v4\'s info', async () => {
    const res = await inject({ url: '/api/route-info' });
    expect(res.statusCode).toBe(200);
    // the handler as the route file wrote it, as v4 4.26.2 shows it (test/golden/customization.*: 'probe.context')
    expect(res.json()).toEqual({ method: 'GET', path: '/route-info', handler: 'gate.trace', info: { apiName: 'gate', type: 'content-api' }, policies: 1 });
  });

  it('ctx.throw answers in the v4 envelope; a 5xx never shows its message', async () => {
    const res = await inject({ url: '/api/probe-throws' });
    expect(res.statusCode).toBe(418);
    expect(res.json()).toEqual({ data: null, error: { status: 418, name: "ImATeapotError", message: 'short and stout', details: {} } });
    const five = await inject({ url: '/api/probe-throws-500' });
    expect(five.statusCode).toBe(500);
    expect(five.body).not.toContain('secret detail');
  });

  it('runs createPolicy objects with their config', async () => {
    expect((await inject({ url: '/api/validated', headers: { 'x-role': 'editor' } })).statusCode).toBe(200);
    const denied = await inject({ url: '/api/validated', headers: { 'x-role': 'author' } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toEqual({ status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} });
  });

  it('keeps koa-compose rules: next() twice is an error; a factory returning nothing passes through', async () => {
    const twice = await inject({ url: '/api/twice' });
    expect(twice.statusCode).toBe(500);
    expect(twice.json().error.name).toBe('InternalServerError');
    const none = await inject({ url: '/api/factory-returns-nothing' });
    expect(none.json().trace).toEqual(['app:A', 'app:resolved', 'mw:api', 'app:B', 'handler', 'app:B:after', 'app:resolved:after', 'app:A:after']);
  });

  it('routes without policies or middlewares still pass through the project middlewares', async () => {
    const res = await inject({ url: '/api/plain' });
    expect(res.json().trace).toEqual(['app:A', 'app:resolved', 'mw:api', 'app:B', 'handler', 'app:B:after', 'app:resolved:after', 'app:A:after']);
  });

  it('auth: false ignores any token: no 401, no user, and no relation populated', async () => {
    const bad = { authorization: 'Bearer not-a-token' };
    const open = await inject({ url: '/api/gate-hooks/open', headers: bad, token: false });
    expect(open.statusCode).toBe(200);
    expect(open.json().user).toBeNull();
    // the same token on an authenticated route is a 401
    expect((await inject({ url: '/api/gates', headers: bad, token: false })).statusCode).toBe(401);
    const parent = await inject({ method: 'POST', url: '/api/gates', headers: { 'x-pass': 'ok' }, payload: { data: { name: 'p' } } });
    await inject({ method: 'POST', url: '/api/gates', headers: { 'x-pass': 'ok' }, payload: { data: { name: 'c', parent: parent.json().data.id } } });
    // with a full-access token, as without one: v4 populates no relation on an auth: false route
    const list = await inject({ url: '/api/open-gates?populate=parent&sort=id' });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((d: { attributes: Record<string, unknown> }) => Object.keys(d.attributes).sort())).toEqual([
      ['createdAt', 'name', 'updatedAt'], ['createdAt', 'name', 'updatedAt'],
    ]);
    // the normal route, with the token, populates it
    const normal = await inject({ url: '/api/gates?populate=parent&sort=id' });
    expect(normal.json().data[1].attributes.parent.data.id).toBe(parent.json().data.id);
  });
});

describe('routes without any chain (no project middlewares)', () => {
  let running: RunningHooksApp;
  beforeAll(async () => {
    running = await startHooksApp({
      'config/middlewares.js': "module.exports = ['strapi::errors', 'strapi::query', 'strapi::body'];",
    });
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('auth: false ignores an invalid token', async () => {
    const res = await running.app.server.inject({ url: '/api/gate-hooks/open', headers: { authorization: 'Bearer nope' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null, trace: [] });
  });
});
