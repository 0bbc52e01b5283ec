// The pure parts of rest/route-chain.ts and the project entries of config/middlewares.js: koa-compose order and
// rules, v4's policy context, and which entries are the project's own.
import { describe, expect, it } from 'vitest';
import { compose, policyContext, type KoaMiddleware } from '../../../src/rest/route-chain';
import { createContext, type RequestContext } from '../../../src/rest/context';
import { middlewareSettings } from '../../../src/server/middlewares-config';

function ctx(): RequestContext {
  return createContext({
    query: { a: '1' }, params: { id: '3' }, body: undefined, headers: { 'content-type': 'application/json', 'x-a': 'b' },
    method: 'GET', url: '/api/things/3?a=1', auth: { kind: 'none', reason: 'Missing or invalid credentials' }, route: { handler: 'x' },
  });
}

describe('compose', () => {
  it('runs the onion in order and resolves after the innermost', async () => {
    const seen: string[] = [];
    const mw = (n: string): KoaMiddleware => async (_c, next) => { seen.push(n); await next(); seen.push(`${n}:after`); };
    await compose([mw('a'), mw('b'), async () => { seen.push('handler'); }])(ctx());
    expect(seen).toEqual(['a', 'b', 'handler', 'b:after', 'a:after']);
  });

  it('stops where a middleware does not call next, and rejects a second next()', async () => {
    const seen: string[] = [];
    await compose([async () => { seen.push('stop'); }, async () => { seen.push('never'); }])(ctx());
    expect(seen).toEqual(['stop']);
    await expect(compose([async (_c, next) => { await next(); await next(); }])(ctx())).rejects.toThrow('next() called multiple times');
  });

  it('turns a synchronous throw into a rejection', async () => {
    await expect(compose([() => { throw new Error('sync'); }])(ctx())).rejects.toThrow('sync');
  });
});

describe('policyContext', () => {
  it('is a copy of the ctx fields with type koa and is(type), sharing state', () => {
    const c = ctx();
    const pc = policyContext(c);
    expect(pc.type).toBe('koa');
    expect(pc.is('koa')).toBe(true);
    expect(pc.is('graphql')).toBe(false);
    expect(pc.params).toEqual({ id: '3' });
    expect(pc.get('x-a')).toBe('b');
    pc.badRequest('no'); // v4: the answer is set, nothing thrown
    expect([pc.status, (pc.body as { error: { message: string } }).error.message]).toEqual([400, 'no']);
    expect(pc.request.query).toEqual({ a: '1' });
    (pc.state as Record<string, unknown>).mark = 1;
    expect((c.state as Record<string, unknown>).mark).toBe(1);
  });
});

describe('context', () => {
  it('offers koa\'s path, headers, get, is and response', () => {
    const c = ctx();
    expect(c.path).toBe('/api/things/3');
    expect(c.header).toBe(c.request.headers);
    expect(c.get('X-A')).toBe('b');
    expect(c.is('json')).toBe('json');
    expect(c.is('application/*+json', 'application/json')).toBe('application/json');
    expect(c.is('multipart')).toBe(false);
    c.response.status = 201;
    c.response.body = { ok: true };
    c.response.set('X-Y', 'z');
    expect([c.status, c.body, c.responseHeaders]).toEqual([201, { ok: true }, { 'x-y': 'z' }]);
    expect(() => c.throw(409, 'taken')).toThrow(expect.objectContaining({ status: 409, message: 'taken', expose: true }));
  });
});

describe('config/middlewares.js project entries', () => {
  it('keeps global::, api::, plugin:: and { resolve } entries in order, and still rejects unknown strapi:: names', () => {
    const list = ['strapi::errors', 'global::a', { name: 'api::x.b', config: { n: 1 } }, 'strapi::body', { resolve: './src/middlewares/c' }, 'plugin::p.d'];
    expect(middlewareSettings(list, 'config/middlewares.js').project).toEqual([
      'global::a', { name: 'api::x.b', config: { n: 1 } }, { resolve: './src/middlewares/c' }, 'plugin::p.d',
    ]);
    expect(() => middlewareSettings(['strapi::nope'], 'config/middlewares.js')).toThrow(/strapi::nope/);
    expect(() => middlewareSettings(['timer'], 'config/middlewares.js')).toThrow(/"timer" is not supported/);
  });
});
