// The strapi object project code sees (docs/configuration.md, "The strapi object"), on the custom-app project:
// strapi.server (the http.Server exists in register and bootstrap, a listener wrapped around it there, as
// socket.io does, still reaches the routes; use() in register and bootstrap, not later; routes() refused),
// strapi.fetch, strapi.telemetry, strapi.container, strapi.reload under `start`, isLoaded. The rest of its
// surface is compared with Strapi 4.26.2 by test/compat/customization.golden.test.ts.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../../helpers/fixture-app';
import { call, NO_CRON, startCustomApp } from './custom-app';

// register and bootstrap of the copy: a socket.io-like wrapper on the http server, and strapi.server.use()
const EXTRA = `'use strict';
const http = require('http');
const trace = (label) => async (ctx, next) => {
  await next();
  ctx.set('x-used', [ctx.response.get('x-used'), label].filter(Boolean).join(','));
};
module.exports = {
  register({ strapi }) {
    module.exports.registerSaw = strapi.server.httpServer instanceof http.Server;
    strapi.server.use(trace('register'));
  },
  bootstrap({ strapi }) {
    const server = strapi.server.httpServer;
    const before = server.listeners('request').slice();
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      if (req.url.startsWith('/socket-like/')) return res.end('answered by the wrapper');
      for (const listener of before) listener.call(server, req, res);
    });
    strapi.server.use(trace('bootstrap'));
    strapi.container.register('counter', ({ strapi: s }) => ({ made: (module.exports.made = (module.exports.made || 0) + 1), sameStrapi: s === strapi }));
  },
};
`;

describe('strapi object', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startCustomApp({ ...NO_CRON, 'src/extra-lifecycle.js': EXTRA });
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('answers on the http.Server project code saw in register, through a listener wrapped around it in bootstrap', async () => {
    const { strapi } = running.app;
    expect(strapi.server.httpServer).toBeInstanceOf(http.Server);
    expect((strapi.server.httpServer.address() as { port: number }).port).toBe(Number(new URL(running.url).port));
    expect(await (await fetch(`${running.url}/socket-like/x`)).text()).toBe('answered by the wrapper');
    const memos = await call(`${running.url}/api/memos`);
    expect(memos.status).toBe(200);
    expect(memos.body.data.length).toBeGreaterThan(0);
  });

  it('runs middlewares given to strapi.server.use() around every route, and refuses them once serving', async () => {
    // koa order: the one added in register is outermost, so it sets its header last
    for (const url of ['/api/memos', '/api/probe/strapi', '/api/plains/1']) {
      expect((await fetch(running.url + url)).headers.get('x-used'), url).toBe('bootstrap,register');
    }
    expect(() => running.app.strapi.server.use(async (_ctx, next) => next())).toThrow(/only possible in register or bootstrap/);
    expect(() => running.app.strapi.server.routes([])).toThrow(/only possible in register or bootstrap/);
  });

  it('has fetch, a silent telemetry, a container and isLoaded', async () => {
    const { strapi } = running.app;
    expect((await strapi.fetch(`${running.url}/_health`)).status).toBe(204);
    expect(await strapi.telemetry.send('didSomething', { a: 1 })).toBe(true);
    expect(strapi.telemetry.isDisabled).toBe(true);
    const counter = strapi.container.get('counter') as { made: number; sameStrapi: boolean };
    expect(counter).toEqual({ made: 1, sameStrapi: true });
    expect(strapi.container.get('counter')).toBe(counter); // resolved once
    expect(strapi.container.get('config')).toBe(strapi.config);
    expect((strapi.container.get('services') as { get(uid: string): unknown }).get('api::memo.memo')).toBe(strapi.service('api::memo.memo'));
    expect(() => strapi.container.register('counter', {})).toThrow('Cannot register already registered service counter');
    expect(() => strapi.container.get('nothing')).toThrow('Could not resolve service nothing');
    expect(strapi.isLoaded).toBe(true);
    expect(strapi.EE).toBe(false);
  });

  it('does nothing but warn on strapi.reload() under `tessera start`', async () => {
    const res = await call(`${running.url}/api/probe/reload`, 'POST');
    expect(res.body).toEqual({ data: { reloading: true } });
    expect((await call(`${running.url}/api/memos`)).status).toBe(200);
  });
});
