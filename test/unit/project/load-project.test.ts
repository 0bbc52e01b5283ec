import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, it, expect } from 'vitest';
import { buildModel } from '../../../src/model/build-model';
import { ModelError } from '../../../src/model/errors';
import { ProjectError } from '../../../src/project/errors';
import { loadProject } from '../../../src/project/load-project';
import { isCoreController, isCoreRouter, isCoreService } from '../../../src/project/strapi-module';
import { FIXTURE_APP } from '../../helpers/fixture-model';

const STRAPI4 = FIXTURE_APP;
const fixtures = path.resolve(__dirname, '../../fixtures');

const tmpDirs: string[] = [];
afterAll(() => { for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true }); });

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-project-'));
  tmpDirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

function modelError(sources: Parameters<typeof buildModel>[0]): ModelError {
  try {
    buildModel(sources);
  } catch (err) {
    if (err instanceof ModelError) return err;
    throw err;
  }
  throw new Error('expected a ModelError');
}

describe('loadProject on the reference v4 project', () => {
  it('reads its content types, components, config and modules', async () => {
    const p = await loadProject(STRAPI4, { env: {} });
    expect(p.dir).toBe(STRAPI4);
    const types = p.sources.filter((s) => s.kind !== 'component').map((s) => s.uid).sort();
    expect(types).toEqual(['api::article.article', 'api::author.author', 'api::category.category', 'api::homepage.homepage', 'api::page.page']);
    expect(p.sources.find((s) => s.uid === 'api::homepage.homepage')?.kind).toBe('singleType');
    expect(p.sources.find((s) => s.uid === 'api::article.article')).toMatchObject({ origin: 'api', modelName: 'article' });
    const components = p.sources.filter((s) => s.kind === 'component');
    expect(components.map((s) => s.uid).sort()).toEqual(['blocks.gallery', 'blocks.quote', 'blocks.text', 'shared.link', 'shared.seo']);
    expect(components.every((s) => s.origin === 'component')).toBe(true);

    expect(p.config.get('api.rest.maxLimit')).toBe(100);
    expect(p.config.get('plugin.users-permissions.jwtSecret')).toBe('peer-users-permissions-jwt-secret-not-for-production');
    expect(p.config.get('server.host')).toBe('127.0.0.1');
    expect(p.config.get('database.connection.connection.filename')).toBe(path.join(STRAPI4, '.tmp', 'data.db'));

    const router = p.apis.article.routes['api::article.article'];
    expect(isCoreRouter(router)).toBe(true);
    expect(router).toEqual({ __tessera: 'core-router', uid: 'api::article.article', options: {} });
    expect(isCoreController(p.apis.article.controllers['api::article.article'])).toBe(true);
    expect(isCoreService(p.apis.homepage.services['api::homepage.homepage'])).toBe(true);
    expect(Object.keys(p.apis).sort()).toEqual(['article', 'author', 'category', 'homepage', 'page']);

    expect(typeof p.app.bootstrap).toBe('function');
    expect(typeof p.app.register).toBe('function');
    expect(p.publicDir).toBe(path.join(STRAPI4, 'public'));
    expect(p.lifecycles).toEqual({});
    expect(p.extensions).toEqual({});

    const model = buildModel(p.sources);
    expect(model.apiTypes()).toHaveLength(5);
    expect(model.components.size).toBe(5);
  });
});

describe('loadProject on a custom project', () => {
  const files = {
    '.env': 'JWT_SECRET=from-dotenv\nPORT=9000\n',
    'config/plugins.js': "module.exports = ({ env }) => ({ 'users-permissions': { config: { jwtSecret: env('JWT_SECRET') } } });",
    'config/server.js': "module.exports = ({ env }) => ({ port: env.int('PORT', 1337), dirs: { public: './static' } });",
    'src/api/shop/content-types/product/schema.json': JSON.stringify({
      kind: 'collectionType',
      info: { singularName: 'product', pluralName: 'products', displayName: 'Product' },
      attributes: { name: { type: 'string' } },
    }),
    'src/api/shop/content-types/product/lifecycles.js': 'module.exports = { beforeCreate(event) { event.params.data.touched = true; } };',
    'src/api/shop/routes/product.js': "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::shop.product', { only: ['find'] });",
    'src/api/shop/routes/custom.js': "module.exports = { routes: [{ method: 'GET', path: '/shop/ping', handler: 'product.ping' }] };",
    'src/api/shop/controllers/product.js': "const { createCoreController } = require('@strapi/strapi').factories;\nmodule.exports = createCoreController('api::shop.product', ({ strapi }) => ({ ping(ctx) { ctx.body = 'pong'; } }));",
    'src/api/shop/services/product.js': "module.exports = require('@strapi/strapi').factories.createCoreService('api::shop.product');",
    'src/api/shop/policies/is-open.js': 'module.exports = () => true;',
    'src/api/shop/middlewares/stamp.js': 'module.exports = () => async (ctx, next) => next();',
    'src/policies/is-admin.js': "const { errors } = require('@strapi/utils');\nmodule.exports = () => { throw new errors.PolicyError('nope'); };",
    'src/middlewares/timer.js': 'module.exports = () => async (ctx, next) => next();',
    'src/extensions/users-permissions/content-types/user/schema.json': JSON.stringify({
      kind: 'collectionType', collectionName: 'up_users', info: { singularName: 'user', pluralName: 'users' },
      attributes: { username: { type: 'string' }, nickname: { type: 'string' } },
    }),
    'src/index.js': "module.exports = { register() {}, bootstrap({ strapi }) { return strapi; } };",
  };

  it('loads .env into the given env (without overwriting) and everything under src/', async () => {
    const dir = project(files);
    const env: Record<string, string | undefined> = { PORT: '7000' };
    const p = await loadProject(dir, { env });
    expect(env.JWT_SECRET).toBe('from-dotenv');
    expect(p.config.get('server.port')).toBe(7000);
    expect(p.config.get('plugin.users-permissions.jwtSecret')).toBe('from-dotenv');
    expect(p.publicDir).toBe(path.join(dir, 'static'));

    expect(p.sources).toHaveLength(1);
    expect(p.sources[0]).toMatchObject({ uid: 'api::shop.product', kind: 'collectionType', origin: 'api', modelName: 'product' });
    expect(p.sources[0].file).toBe(path.join(dir, 'src/api/shop/content-types/product/schema.json'));

    const shop = p.apis.shop;
    expect(shop.routes['api::shop.product']).toEqual({ __tessera: 'core-router', uid: 'api::shop.product', options: { only: ['find'] } });
    expect(shop.routes['api::shop.custom']).toEqual({ routes: [{ method: 'GET', path: '/shop/ping', handler: 'product.ping' }] });
    const ctrl = shop.controllers['api::shop.product'];
    expect(isCoreController(ctrl) && typeof ctrl.extend).toBe('function');
    expect(typeof shop.policies['api::shop.is-open']).toBe('function');
    expect(typeof shop.middlewares['api::shop.stamp']).toBe('function');
    expect(Object.keys(p.global.policies)).toEqual(['global::is-admin']);
    expect(Object.keys(p.global.middlewares)).toEqual(['global::timer']);
    expect(() => (p.global.policies['global::is-admin'] as () => void)()).toThrow(expect.objectContaining({ name: 'PolicyError', message: 'nope' }));

    const hooks = p.lifecycles['api::shop.product'] as { beforeCreate(e: unknown): void };
    const event = { params: { data: {} as Record<string, unknown> } };
    hooks.beforeCreate(event);
    expect(event.params.data.touched).toBe(true);

    expect(Object.keys(p.extensions)).toEqual(['plugin::users-permissions.user']);
    expect(p.extensions['plugin::users-permissions.user'].attributes.nickname).toEqual({ type: 'string' });
    expect(p.app.bootstrap!({ strapi: 'S' })).toBe('S');
  });

  it('uses the factories it is given', async () => {
    const calls: string[] = [];
    const p = await loadProject(project(files), {
      env: {},
      factories: { createCoreRouter: (uid: string) => { calls.push(uid); return { routes: [] }; } },
    });
    expect(calls).toEqual(['api::shop.product']);
    expect(p.apis.shop.routes['api::shop.product']).toEqual({ routes: [] });
    // the others keep their descriptor defaults
    expect(isCoreService(p.apis.shop.services['api::shop.product'])).toBe(true);
  });

  it('re-reads edited files on the next load', async () => {
    const dir = project(files);
    await loadProject(dir, { env: {} });
    fs.writeFileSync(path.join(dir, 'src/api/shop/routes/custom.js'), 'module.exports = { routes: [] };');
    fs.writeFileSync(path.join(dir, 'config/server.js'), 'module.exports = { port: 1234 };');
    const p = await loadProject(dir, { env: {} });
    expect(p.apis.shop.routes['api::shop.custom']).toEqual({ routes: [] });
    expect(p.config.get('server.port')).toBe(1234);
  });

  it('accepts an empty project', async () => {
    const dir = project({});
    const p = await loadProject(dir, { env: {} });
    expect(p.sources).toEqual([]);
    expect(p.apis).toEqual({});
    expect(p.app).toEqual({});
    expect(p.config.get('server.port')).toBe(1337);
    expect(buildModel(p.sources).apiTypes()).toEqual([]);
  });

  it('leaves @strapi/strapi and @strapi/utils answerable after loading', async () => {
    await loadProject(project({}), { env: { SOME_FLAG: 'true' } });
    const req = createRequire(__filename);
    expect(typeof req('@strapi/strapi').factories.createCoreService).toBe('function');
    expect(req('@strapi/utils').env.bool('SOME_FLAG')).toBe(true);
    expect(new (req('@strapi/utils').errors.NotFoundError)().message).toBe('Entity not found');
  });
});

describe('broken projects name the file (and attribute)', () => {
  it('invalid JSON in a schema: ProjectError with file and line', async () => {
    const file = path.join(fixtures, 'broken-json/src/api/thing/content-types/thing/schema.json');
    const err = await rejection(loadProject(path.join(fixtures, 'broken-json'), { env: {} }));
    expect(err).toBeInstanceOf(ProjectError);
    expect((err as ProjectError).file).toBe(file);
    expect(err.message).toContain(file);
    expect(err.message).toMatch(/invalid schema JSON: .*line 6/);
  });

  it('a config file that throws: ProjectError with file and reason', async () => {
    const err = await rejection(loadProject(path.join(fixtures, 'broken-config'), { env: {} }));
    expect(err).toBeInstanceOf(ProjectError);
    expect(err.message).toContain(path.join(fixtures, 'broken-config/config/server.js'));
    expect(err.message).toContain('SECRET_THING is required');
  });

  it('a missing project folder', async () => {
    const err = await rejection(loadProject(path.join(fixtures, 'does-not-exist'), { env: {} }));
    expect(err).toBeInstanceOf(ProjectError);
    expect(err.message).toContain('does-not-exist');
  });

  it('an unknown attribute type: ModelError names file and attribute', async () => {
    const p = await loadProject(path.join(fixtures, 'broken-type'), { env: {} });
    const err = modelError(p.sources);
    expect(err.file).toBe(path.join(fixtures, 'broken-type/src/api/thing/content-types/thing/schema.json'));
    expect(err.attribute).toBe('count');
    expect(err.message).toContain(err.file!);
    expect(err.message).toContain('attribute "count"');
    expect(err.message).toContain('unknown attribute type "integr"');
  });

  it('a missing relation target: ModelError names file and attribute', async () => {
    const p = await loadProject(path.join(fixtures, 'broken-target'), { env: {} });
    const err = modelError(p.sources);
    expect(err.file).toBe(path.join(fixtures, 'broken-target/src/api/thing/content-types/thing/schema.json'));
    expect(err.message).toContain('attribute "owner"');
    expect(err.message).toContain('relation target "api::person.person" does not exist');
  });

  it('a missing component: ModelError names file and attribute', async () => {
    const p = await loadProject(path.join(fixtures, 'broken-component'), { env: {} });
    expect(p.sources.map((s) => s.uid)).toEqual(['api::thing.thing', 'shared.link']);
    const err = modelError(p.sources);
    expect(err.file).toBe(path.join(fixtures, 'broken-component/src/api/thing/content-types/thing/schema.json'));
    expect(err.message).toContain('attribute "seo"');
    expect(err.message).toContain('component "shared.seo" does not exist');
  });

  it('an unknown kind: ProjectError names the schema file', async () => {
    const dir = project({ 'src/api/x/content-types/x/schema.json': '{ "kind": "multiType", "attributes": {} }' });
    const err = await rejection(loadProject(dir, { env: {} }));
    expect(err).toBeInstanceOf(ProjectError);
    expect(err.message).toContain(path.join(dir, 'src/api/x/content-types/x/schema.json'));
    expect(err.message).toContain('unknown kind "multiType"');
  });

  it('a route file with a syntax error names the file', async () => {
    const dir = project({ 'src/api/x/routes/x.js': 'module.exports = {' });
    const err = await rejection(loadProject(dir, { env: {} }));
    expect(err).toBeInstanceOf(ProjectError);
    expect(err.message).toContain(path.join(dir, 'src/api/x/routes/x.js'));
    expect(err.message).toContain('could not load route file');
  });
});
