// config/*.js|json (+ config/env/<NODE_ENV>/*) -> a ConfigStore, following v4's app-configuration:
// each file is an object or `({ env }) => object`, the env folder overrides via lodash `merge` (v4 uses
// `_.merge`, so arrays merge by index too), and config/plugins.js becomes `plugin.<name>`.
import path from 'node:path';
import _ from 'lodash';
import { ConfigStore, type PluginEntry } from './config-store';
import { createEnv, type EnvHelper, type EnvSource } from './env';
import { ProjectError } from './errors';
import { filesOf, readJsonFile, requireProjectFile } from './require-project';

/** v4's middleware list when config/middlewares.js is absent. */
export const DEFAULT_MIDDLEWARES: readonly string[] = [
  'strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy',
  'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public',
];

/** A middlewares.js entry. */
export type MiddlewareEntry = string | { name?: string; resolve?: string; config?: Record<string, unknown> };

export interface LoadConfigOptions {
  /** environment to read (default process.env) */
  env?: EnvSource;
}

function defaults(source: EnvSource): Record<string, unknown> {
  return {
    server: {
      // what config/server.js usually reads; still applies when the file is absent
      host: source.HOST || '0.0.0.0',
      port: parseInt(source.PORT ?? '', 10) || 1337,
      proxy: false,
      cron: { enabled: false },
      admin: { autoOpen: false },
      dirs: { public: './public' },
    },
    admin: {},
    api: { rest: { prefix: '/api', defaultLimit: 25, withCount: true } },
  };
}

function defaultDatabase(dir: string): Record<string, unknown> {
  return { connection: { client: 'sqlite', connection: { filename: path.join(dir, '.tmp', 'data.db') }, useNullAsDefault: true } };
}

// v4's templateConfiguration for JSON config: strings holding `${...}` are evaluated as templates.
const TEMPLATE = /\$\{[^()]*\}/g;
function templateJson(value: unknown): unknown {
  if (typeof value === 'string') return value.match(TEMPLATE) ? _.template(value)() : value;
  if (_.isPlainObject(value)) return _.mapValues(value as Record<string, unknown>, templateJson);
  return value;
}

function loadConfigFile(file: string, env: EnvHelper): unknown {
  if (path.extname(file) === '.json') return templateJson(readJsonFile(file, 'config file'));
  const mod = requireProjectFile(file, 'config file');
  if (typeof mod !== 'function') return mod;
  try {
    return mod({ env });
  } catch (err) {
    throw new ProjectError(`config function threw: ${(err as Error)?.message ?? String(err)}`, file, err);
  }
}

/** Every `<dir>/*.js|json` keyed by basename ({} when the folder is missing). */
export function loadConfigDir(dir: string, env: EnvHelper): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of filesOf(dir, ['.js', '.json'])) {
    out[path.basename(name, path.extname(name))] = loadConfigFile(path.join(dir, name), env);
  }
  return out;
}

/** Load the configuration of the project in `dir`. */
export function loadConfig(dir: string, opts: LoadConfigOptions = {}): ConfigStore {
  const root = path.resolve(dir);
  const source = opts.env ?? process.env;
  const env = createEnv(source);
  const environment = source.NODE_ENV || 'development';
  const configDir = path.join(root, 'config');

  const base = loadConfigDir(configDir, env);
  const overrides = loadConfigDir(path.join(configDir, 'env', environment), env);
  // plugin config is not part of the tree: v4 loads it separately, per plugin
  const plugins = _.merge({}, base.plugins, overrides.plugins) as Record<string, PluginEntry>;
  const data = _.merge(
    { environment, appPath: root },
    defaults(source),
    _.omit(base, 'plugins'),
    _.omit(overrides, 'plugins'),
  ) as Record<string, unknown>;

  if (!_.has(data, 'database.connection')) data.database = _.merge(defaultDatabase(root), data.database);
  if (!_.has(data, 'middlewares')) data.middlewares = [...DEFAULT_MIDDLEWARES];
  // v4: strapi.config.get('plugin.<name>') is that plugin's `config` (disabled plugins are not loaded)
  for (const [name, entry] of Object.entries(plugins)) {
    if (!entry || typeof entry !== 'object' || entry.enabled === false) continue;
    _.set(data, ['plugin', name], _.merge({}, entry.config));
  }
  return new ConfigStore(data, plugins);
}
