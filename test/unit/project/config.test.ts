import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, it, expect } from 'vitest';
import { DEFAULT_MIDDLEWARES, loadConfig } from '../../../src/project/config';
import { ConfigStore } from '../../../src/project/config-store';
import { ProjectError } from '../../../src/project/errors';

/** A throwaway project folder holding the given files. */
const tmpDirs: string[] = [];
afterAll(() => { for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true }); });

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-config-'));
  tmpDirs.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const fixtures = path.resolve(__dirname, '../../fixtures');

describe('loadConfig defaults', () => {
  it('applies v4 defaults to a project with no config folder', () => {
    const dir = project({});
    const config = loadConfig(dir, { env: {} });
    expect(config.get('server.host')).toBe('0.0.0.0');
    expect(config.get('server.port')).toBe(1337);
    expect(config.get('api.rest.prefix')).toBe('/api');
    expect(config.get('api.rest.defaultLimit')).toBe(25);
    expect(config.get('api.rest.withCount')).toBe(true);
    expect(config.get('api.rest.maxLimit')).toBeUndefined();
    expect(config.get('database.connection.client')).toBe('sqlite');
    expect(config.get('database.connection.connection.filename')).toBe(path.join(dir, '.tmp', 'data.db'));
    expect(config.get('middlewares')).toEqual([...DEFAULT_MIDDLEWARES]);
    expect(config.get('environment')).toBe('development');
  });

  it('HOST and PORT apply when config/server.js is absent', () => {
    const config = loadConfig(project({}), { env: { HOST: '127.0.0.2', PORT: '4001' } });
    expect(config.get('server.host')).toBe('127.0.0.2');
    expect(config.get('server.port')).toBe(4001);
  });

  it('keeps a non-sqlite database config free of the sqlite default', () => {
    const dir = project({
      'config/database.js': "module.exports = { connection: { client: 'postgres', connection: { host: 'db' } } };",
    });
    const db = loadConfig(dir, { env: {} }).get<Record<string, any>>('database');
    expect(db).toEqual({ connection: { client: 'postgres', connection: { host: 'db' } } });
  });
});

describe('loadConfig files', () => {
  const files = {
    'config/server.js': "module.exports = ({ env }) => ({ host: env('HOST', '127.0.0.1'), port: env.int('PORT', 1337), app: { keys: env.array('APP_KEYS', ['k']) }, nested: { a: 1, b: 2 } });",
    'config/api.js': 'module.exports = { rest: { maxLimit: 100, defaultLimit: 10 } };',
    'config/middlewares.js': "module.exports = ['strapi::errors', { name: 'strapi::cors', config: { origin: ['x'] } }];",
    'config/plugins.js': "module.exports = ({ env }) => ({ 'users-permissions': { config: { jwtSecret: env('JWT_SECRET', 'dflt') } }, graphql: { enabled: false, config: { endpoint: '/gql' } }, i18n: true });",
    'config/custom.json': '{ "greeting": "hi ${1 + 1}", "plain": "x" }',
    'config/custom-js.js': 'module.exports = { answer: 42 };',
    'config/env/production/server.js': "module.exports = ({ env }) => ({ port: 8080, nested: { b: 3 } });",
    'config/env/production/plugins.js': "module.exports = { 'users-permissions': { config: { jwt: { expiresIn: '7d' } } } };",
  };

  it('loads objects and ({ env }) functions, reading the given env', () => {
    const config = loadConfig(project(files), { env: { PORT: '3000', APP_KEYS: 'a,b', JWT_SECRET: 's3' } });
    expect(config.get('server.host')).toBe('127.0.0.1');
    expect(config.get('server.port')).toBe(3000);
    expect(config.get('server.app.keys')).toEqual(['a', 'b']);
    expect(config.get('api.rest')).toEqual({ prefix: '/api', defaultLimit: 10, withCount: true, maxLimit: 100 });
    expect(config.get('middlewares')).toEqual(['strapi::errors', { name: 'strapi::cors', config: { origin: ['x'] } }]);
    expect(config.get('custom-js.answer')).toBe(42);
    expect(config.get('custom.plain')).toBe('x');
    expect(config.get('custom.greeting')).toBe('hi 2');
  });

  it('namespaces plugin config as plugin.<name>, skipping disabled plugins', () => {
    const config = loadConfig(project(files), { env: {} });
    expect(config.get('plugin.users-permissions.jwtSecret')).toBe('dflt');
    expect(config.get('plugin::users-permissions.jwtSecret')).toBe('dflt');
    expect(config.has('plugin.graphql')).toBe(false);
    expect(config.plugins.graphql).toEqual({ enabled: false, config: { endpoint: '/gql' } });
    // as in v4, the raw `plugins` file is not part of the tree
    expect(config.has('plugins')).toBe(false);
  });

  it('merges config/env/<NODE_ENV> deeply over the base files', () => {
    const config = loadConfig(project(files), { env: { NODE_ENV: 'production' } });
    expect(config.get('environment')).toBe('production');
    expect(config.get('server.port')).toBe(8080);
    expect(config.get('server.host')).toBe('127.0.0.1');
    expect(config.get('server.nested')).toEqual({ a: 1, b: 3 });
    expect(config.get('plugin.users-permissions')).toEqual({ jwtSecret: 'dflt', jwt: { expiresIn: '7d' } });
  });

  it('merges arrays by index, as v4 (lodash merge) does', () => {
    const config = loadConfig(project({
      'config/middlewares.js': "module.exports = ['a', 'b', 'c'];",
      'config/env/development/middlewares.js': "module.exports = ['x'];",
    }), { env: {} });
    expect(config.get('middlewares')).toEqual(['x', 'b', 'c']);
  });

  it('unwraps transpiled ESM default exports', () => {
    const config = loadConfig(project({
      'config/server.js': "Object.defineProperty(exports, '__esModule', { value: true }); exports.default = ({ env }) => ({ port: 5555 });",
    }), { env: {} });
    expect(config.get('server.port')).toBe(5555);
  });
});

describe('ConfigStore', () => {
  it('gets, sets and tests dotted paths', () => {
    const store = new ConfigStore({ server: { port: 1 } });
    expect(store.get('server.port')).toBe(1);
    expect(store.get('server.nope', 'd')).toBe('d');
    expect(store.has('server.port')).toBe(true);
    expect(store.has('server.nope')).toBe(false);
    store.set('plugin.upload.sizeLimit', 10);
    expect(store.get('plugin.upload')).toEqual({ sizeLimit: 10 });
    store.set('plugin::i18n.defaultLocale', 'en');
    expect(store.get('plugin.i18n.defaultLocale')).toBe('en');
    expect(store.all()).toHaveProperty('server');
  });
});

describe('broken config', () => {
  it('a config function that throws names the file and the error', () => {
    const file = path.join(fixtures, 'broken-config', 'config', 'server.js');
    let err: unknown;
    try {
      loadConfig(path.join(fixtures, 'broken-config'), { env: {} });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProjectError);
    expect((err as ProjectError).file).toBe(file);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toContain('SECRET_THING is required');
  });

  it('the same project loads once the variable is set', () => {
    expect(loadConfig(path.join(fixtures, 'broken-config'), { env: { SECRET_THING: 'x' } }).get('server.port')).toBe(1337);
  });

  it('a syntax error names the file', () => {
    const dir = project({ 'config/api.js': 'module.exports = { rest: { maxLimit: 100, };' });
    expect(() => loadConfig(dir, { env: {} })).toThrow(ProjectError);
    expect(() => loadConfig(dir, { env: {} })).toThrow(path.join(dir, 'config', 'api.js'));
  });

  it('a file throwing at require time names the file', () => {
    const dir = project({ 'config/admin.js': "throw new Error('top-level failure');" });
    expect(() => loadConfig(dir, { env: {} })).toThrow(/config[\\/]admin\.js: could not load config file: top-level failure/);
  });

  it('invalid JSON config names the file', () => {
    const dir = project({ 'config/custom.json': '{ "a": }' });
    expect(() => loadConfig(dir, { env: {} })).toThrow(/config[\\/]custom\.json: invalid config file/);
  });
});
