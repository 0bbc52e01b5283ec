// A v4 plugin's server part as v4's plugin loader builds it: the `strapi-server.js` module (an object, or a
// function given `{ env }`) completed with v4's defaults, its config merged and validated, then the project's
// extensions applied (src/extensions/<plugin>/content-types/<name>/schema.json, then
// src/extensions/<plugin>/strapi-server.js, which receives the plugin and returns it changed).
import fs from 'node:fs';
import path from 'node:path';
import _ from 'lodash';
import type { RawSchema } from '../../model/types';
import { ProjectError, messageOf } from '../../project/errors';
import type { Project } from '../../project/load-project';
import { requireProjectFile } from '../../project/require-project';

type Hook = (ctx: { strapi: unknown }) => unknown;

export interface V4ContentTypeDefinition {
  schema: RawSchema;
  lifecycles?: unknown;
  [key: string]: unknown;
}

/** A plugin's configuration its validator refuses: start-up stops, as in v4 (other load failures are listed). */
export class PluginConfigError extends ProjectError {}

/** The plugin object v4 keeps per plugin (what extensions receive and return). */
export interface V4PluginModule {
  register?: Hook;
  bootstrap?: Hook;
  destroy?: Hook;
  /** before the merge: `{ default, validator }`; after it: the plugin's configuration */
  config: Record<string, unknown>;
  /** v4: an array (admin routes) or `{ [router]: { type, prefix?, routes } }` */
  routes: unknown;
  controllers: Record<string, unknown>;
  services: Record<string, unknown>;
  contentTypes: Record<string, V4ContentTypeDefinition>;
  policies: Record<string, unknown>;
  middlewares: Record<string, unknown>;
  [key: string]: unknown;
}

/** v4's defaultPlugin: what a server entry leaves out */
export const emptyPluginModule = (): V4PluginModule => ({
  config: {}, routes: [], controllers: {}, services: {}, contentTypes: {}, policies: {}, middlewares: {},
});

const serverEntry = (dir: string) => path.join(dir, 'strapi-server.js');

/** false for a plugin without a server part (v4 skips those: an admin-only plugin). */
export function hasServerPart(dir: string): boolean {
  return fs.existsSync(serverEntry(dir));
}

/** `strapi-server.js` of the plugin in `dir`, with v4's defaults for what it leaves out. */
export async function loadPluginServer(name: string, dir: string, project: Project): Promise<V4PluginModule> {
  const file = serverEntry(dir);
  let mod = requireProjectFile(file, `server entry of plugin "${name}"`);
  if (typeof mod === 'function') mod = (mod as (a: { env: unknown }) => unknown)({ env: project.env });
  if (!mod || typeof mod !== 'object') throw new ProjectError(`plugin "${name}": strapi-server.js must export an object (or a function returning one)`, file);
  const server = mod as Partial<V4PluginModule>;
  const base = emptyPluginModule();
  const plugin: V4PluginModule = {
    ...base,
    ...server,
    config: { default: {}, validator() {}, ...(server.config ?? {}) },
    routes: server.routes ?? base.routes,
  };
  await applyConfig(name, plugin, project, file);
  return plugin;
}

/** v4 `applyUserConfig` (an async validator's refusal stops start-up too): config/plugins.js `<name>.config` over the plugin's `config.default`, then its validator. */
async function applyConfig(name: string, plugin: V4PluginModule, project: Project, file: string): Promise<void> {
  const { default: defaults, validator } = plugin.config as { default?: unknown; validator?: unknown };
  const defaultConfig = typeof defaults === 'function' ? (defaults as (a: { env: unknown }) => unknown)({ env: project.env }) : defaults;
  const user = (project.config.plugins[name]?.config ?? {}) as Record<string, unknown>;
  const config = _.defaultsDeep(_.cloneDeep(user), defaultConfig ?? {}) as Record<string, unknown>;
  if (typeof validator === 'function') {
    try {
      // awaited: a validator may be async (v4 does not wait, and a refusal then crashes the process)
      await validator(config);
    } catch (err) {
      throw new PluginConfigError(`Error regarding ${name} config: ${messageOf(err)}`, file, err);
    }
  }
  plugin.config = config;
  // v4: strapi.config.get('plugin.<name>') is the merged configuration
  project.config.set(`plugin.${name}`, config);
}

/** v4 `applyUserExtension` for one plugin: schema.json overrides, then strapi-server.js. */
export async function applyExtensions(name: string, plugin: V4PluginModule, project: Project): Promise<V4PluginModule> {
  for (const [ctName, def] of Object.entries(plugin.contentTypes)) {
    const ext = project.extensions[`plugin::${name}.${ctName}`];
    if (ext && def && typeof def === 'object') def.schema = { ...def.schema, ...ext };
  }
  const file = path.join(project.dir, 'src/extensions', name, 'strapi-server.js');
  if (!fs.existsSync(file)) return plugin;
  const extend = requireProjectFile(file, 'extension file');
  if (typeof extend !== 'function') throw new ProjectError('an extension must export a function (plugin) => plugin', file);
  let out: unknown;
  try {
    out = await (extend as (p: V4PluginModule) => unknown)(plugin);
  } catch (err) {
    throw new ProjectError(`extension of plugin "${name}" threw: ${messageOf(err)}`, file, err);
  }
  if (!out || typeof out !== 'object') throw new ProjectError(`the extension of plugin "${name}" must return the plugin object`, file);
  return out as V4PluginModule;
}
