// Routes plugins and project code add are checked as v4 checks them, never more loosely (issue 21 review):
// `strapi.server.routes([...])` and `strapi.server.api('admin')` routes need no one's permission only with
// `auth: false` (v4 registers no authentication for them: 401 to every Content API caller); a route whose
// `config.auth.scope` lists several actions needs all of them; a scope that is not a list of strings stops start-up.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, startCopy, type RunningApp } from '../helpers/fixture-app';

const FIXTURE = path.resolve(__dirname, '../fixtures/strapi4-app');

const plugin = (routes: string) => `module.exports = {
  register({ strapi }) {
    strapi.server.routes([
      { method: 'GET', path: '/root-probe', handler: (ctx) => { ctx.body = { root: true }; } },
      { method: 'GET', path: '/root-open', handler: (ctx) => { ctx.body = { open: true }; }, config: { auth: false } },
    ]);
    strapi.server.api('admin').routes([{ method: 'GET', path: '/admin-probe', handler: (ctx) => { ctx.body = { admin: true }; } }]);
    strapi.server.api('content-api').routes([{ method: 'GET', path: '/ca-probe', handler: (ctx) => { ctx.body = { ca: true }; }, config: { auth: false } }]);
  },
  controllers: { probe: { both(ctx) { ctx.body = { both: true }; } } },
  routes: { 'content-api': { type: 'content-api', routes: [${routes}] } },
};
`;

const TWO_SCOPES = "{ method: 'GET', path: '/both', handler: 'probe.both', config: { auth: { scope: ['api::article.article.find', 'api::article.article.delete'] } } }";

const edit = (routes: string): Record<string, string> => ({
  'config/plugins.js': "module.exports = () => ({ probe: { enabled: true, resolve: './src/plugins/probe' } });\n",
  'src/plugins/probe/package.json': JSON.stringify({ name: 'probe', strapi: { kind: 'plugin', name: 'probe' } }),
  'src/plugins/probe/strapi-server.js': plugin(routes),
});

describe('routes added by plugins and project code', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startCopy(copyProject(FIXTURE, edit(TWO_SCOPES)));
  });
  afterAll(async () => {
    await app?.stop();
  });
  const get = (url: string, token?: string) => fetch(app.url + url, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('answers 401 on a strapi.server.routes() route without auth: false, also to a full-access token', async () => {
    expect(app.token).not.toBe('');
    expect((await get('/root-probe')).status).toBe(401);
    expect((await get('/root-probe', app.token)).status).toBe(401);
    expect(await (await get('/root-open')).json()).toEqual({ open: true });
  });

  it('answers 401 on strapi.server.api("admin") routes, serves api("content-api") ones under the REST prefix', async () => {
    expect((await get('/admin-probe', app.token)).status).toBe(401);
    expect(await (await get('/api/ca-probe')).json()).toEqual({ ca: true });
    expect((await get('/ca-probe')).status).toBe(404);
  });

  it('requires every action a route scope lists', async () => {
    // the fixture's Public role may find and delete articles; make it find-only, as a project would
    const perms = (app.app.strapi.query('plugin::users-permissions.permission') as unknown) as { deleteMany(p: unknown): Promise<unknown> };
    expect((await get('/api/probe/both')).status).toBe(200);
    await perms.deleteMany({ where: { action: 'api::article.article.delete' } });
    expect((await get('/api/probe/both')).status).toBe(403);
  });
});

describe('a route scope that is not a list of strings', () => {
  it('stops start-up, naming the route, as v4', async () => {
    const dir = copyProject(FIXTURE, edit("{ method: 'GET', path: '/bad', handler: (ctx) => { ctx.body = 1; }, config: { auth: { scope: 'api::article.article.find' } } }"));
    try {
      await expect(startCopy(dir)).rejects.toThrow(/route GET \/probe\/bad: Invalid route config: config.auth.scope must be an array of strings/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
