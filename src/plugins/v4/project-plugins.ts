// The project's plugins through their life at start-up, in v4's order: loaded (server entry, config) before
// the model is built (their content types are part of it), extended by src/extensions/<plugin>/strapi-server.js,
// registered, bootstrapped after the schema sync, destroyed on close. Tessera's own plugins take part as v4
// modules (what project code and extensions see of them). What is enabled but not run is said once, at start.
import fs from 'node:fs';
import path from 'node:path';
import type { ModelSource } from '../../model/build-model';
import type { RawSchema } from '../../model/types';
import { ProjectError, messageOf } from '../../project/errors';
import type { Project } from '../../project/load-project';
import type { TesseraPlugin } from '../../core/plugin';
import { enabledPlugins } from './discover';
import { PluginConfigError, applyExtensions, emptyPluginModule, hasServerPart, loadPluginServer, type V4PluginModule } from './plugin-module';
import type { PluginRegistry } from './plugin-registry';

export interface LoadedPlugin {
  name: string;
  module: V4PluginModule;
  /** the server entry (messages) */
  file: string;
}

export interface LoadedPlugins {
  plugins: LoadedPlugin[];
  /** every enabled plugin's name (Tessera's own included) in v4's order: internal ones, declared, installed */
  order: string[];
  /** enabled but not run, each with why (the start-up warning) */
  notRun: string[];
  /** plugins run whose admin panel part (strapi-admin.js) is not (one log line at start) */
  adminParts: string[];
}

/**
 * v4 loads these first, whatever the project declares. Tessera runs email and upload; the others serve the
 * admin panel only: they are listed (`strapi.plugins`) with empty modules, as a project may look them up.
 */
const INTERNAL_PLUGINS = ['content-manager', 'content-type-builder', 'email', 'upload', 'content-releases'];
export const ADMIN_ONLY_INTERNAL = new Set(['content-manager', 'content-type-builder', 'content-releases']);

/** the module of an internal plugin that only serves the admin panel */
export function adminOnlyModule(): V4PluginModule {
  return { ...emptyPluginModule(), routes: {} };
}

/** Tessera implements these itself (src/plugins/<name>); their packages' server code is not run */
export const NATIVE_PLUGINS = new Set(['users-permissions', 'upload', 'i18n', 'email', 'graphql']);

/** The project's enabled v4 plugins, loaded; one that cannot be loaded is listed in `notRun`, not fatal. */
export async function loadProjectPlugins(project: Project): Promise<LoadedPlugins> {
  const plugins: LoadedPlugin[] = [];
  const notRun: string[] = [];
  const adminParts: string[] = [];
  const enabled = enabledPlugins(project);
  const order = [...INTERNAL_PLUGINS, ...enabled.map((d) => d.name).filter((n) => !INTERNAL_PLUGINS.includes(n))];
  for (const decl of enabled) {
    if (NATIVE_PLUGINS.has(decl.name)) continue;
    const label = decl.packageName && decl.packageName !== decl.name ? `${decl.name} (${decl.packageName})` : decl.name;
    if (!decl.dir) {
      notRun.push(`${label}: enabled in config/plugins.js but not installed`);
      continue;
    }
    if (!hasServerPart(decl.dir)) {
      notRun.push(`${label}: admin panel only (no strapi-server.js)`);
      continue;
    }
    if (fs.existsSync(path.join(decl.dir, 'strapi-admin.js'))) adminParts.push(decl.name);
    try {
      plugins.push({ name: decl.name, module: await loadPluginServer(decl.name, decl.dir, project), file: path.join(decl.dir, 'strapi-server.js') });
    } catch (err) {
      // a config its validator refuses stops start-up, as in v4; a server part that cannot be loaded is skipped
      if (err instanceof PluginConfigError) throw err;
      notRun.push(`${label}: could not be loaded (${messageOf(err)})`);
    }
  }
  return { plugins, notRun, adminParts, order };
}

/** `contentTypes` of a v4 plugin module -> model sources (`plugin::<name>.<key>`) */
export function pluginModelSources(name: string, module: V4PluginModule, file: string): ModelSource[] {
  return Object.entries(module.contentTypes ?? {}).map(([key, def]) => {
    const schema = ((def as { schema?: RawSchema })?.schema ?? def) as RawSchema;
    const kind = schema?.kind === 'singleType' ? 'singleType' : 'collectionType';
    return { uid: `plugin::${name}.${key}`, kind, origin: 'plugin' as const, modelName: key, schema, file };
  });
}

/** lifecycles of plugin content types (`contentTypes.<key>.lifecycles`), keyed by uid */
export function pluginLifecycles(plugins: LoadedPlugin[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of plugins) {
    for (const [key, def] of Object.entries(p.module.contentTypes ?? {})) {
      const hooks = (def as { lifecycles?: unknown })?.lifecycles;
      if (hooks) out[`plugin::${p.name}.${key}`] = hooks;
    }
  }
  return out;
}

/** A Tessera plugin as a v4 module: what `strapi.plugin(name)` shows and what its extension receives. */
export function nativeModule(plugin: TesseraPlugin, project: Project, sources: ModelSource[]): V4PluginModule {
  const prefix = `plugin::${plugin.name}.`;
  const contentTypes = Object.fromEntries(sources.filter((s) => s.uid.startsWith(prefix)).map((s) => [s.uid.slice(prefix.length), { schema: s.schema }]));
  return {
    config: project.config.get<Record<string, unknown>>(`plugin.${plugin.name}`, {}),
    routes: plugin.v4?.routes ?? {},
    controllers: plugin.v4?.controllers ?? {},
    services: { ...(plugin.services ?? {}) },
    contentTypes,
    policies: {},
    middlewares: plugin.v4?.middlewares ?? {},
  };
}

/** What an extension may change of a Tessera plugin that Tessera does not take from its module (said at start). */
function servedShape(plugin: TesseraPlugin, module: V4PluginModule): string {
  if (plugin.v4) return '';
  return JSON.stringify([module.routes, Object.keys(module.controllers ?? {})], (_k, v) => (typeof v === 'function' ? String(v) : v));
}

/**
 * src/extensions/<plugin>/strapi-server.js of every plugin, in load order (v4 applies them before register).
 * For a Tessera plugin that does not serve its routes from its module, changes to routes or controllers are
 * listed in `notApplied`.
 */
export async function extendPlugins(registry: PluginRegistry, project: Project, natives: Map<string, TesseraPlugin>, notApplied: string[]): Promise<void> {
  for (const p of registry.all()) {
    const native = natives.get(p.name);
    const before = native ? servedShape(native, p.module) : '';
    const servicesBefore = { ...(p.module.services ?? {}) };
    const extended = await applyExtensions(p.name, p.module, project);
    registry.replace(p.name, extended);
    if (native && servedShape(native, extended) !== before) {
      notApplied.push(`src/extensions/${p.name}/strapi-server.js changes the routes or controllers of ${p.name}, which Tessera serves itself: those changes are not applied`);
    }
    // a service replaced as a whole is what project code gets from strapi.plugin(name).service(key), but Tessera's own
    // controllers keep calling theirs (a method changed on the service object itself is seen by both)
    const services = extended.services ?? {};
    const replaced = native ? Object.keys({ ...servicesBefore, ...services }).filter((key) => services[key] !== servicesBefore[key]) : [];
    if (replaced.length) {
      notApplied.push(`src/extensions/${p.name}/strapi-server.js replaces the ${p.name} service${replaced.length > 1 ? 's' : ''} ${replaced.join(', ')}: project code gets the replacement, Tessera's own ${p.name} routes keep the built-in one (change its methods instead: \`plugin.services.${replaced[0]}.<method> = ...\`)`);
    }
  }
}

/** Runs a plugin's register/bootstrap/destroy, naming the plugin when it throws (v4 stops start-up too). */
export async function runPluginHook(p: { name: string; module: V4PluginModule; file: string }, hook: 'register' | 'bootstrap' | 'destroy', strapi: unknown): Promise<void> {
  const fn = p.module[hook];
  if (typeof fn !== 'function') return;
  try {
    await fn.call(p.module, { strapi });
  } catch (err) {
    throw new ProjectError(`plugin "${p.name}" ${hook} failed: ${messageOf(err)}`, p.file, err);
  }
}

/**
 * The project's plugins' part of users-permissions' action tree (`/users-permissions/permissions`, what roles may
 * be granted), as v4's getActions walks `strapi.plugins`: in plugin order, per controller the actions that
 * content-API routes name, in the controller's own order. (Tessera's own plugins have fixed entries.)
 */
export function pluginActionTree(registry: PluginRegistry, routes: ReadonlyArray<{ action: string; root?: boolean }>): Array<[string, string, string[]]> {
  const out: Array<[string, string, string[]]> = [];
  const routed = new Set(routes.filter((r) => !r.root && r.action.startsWith('plugin::')).map((r) => r.action));
  for (const p of registry.all()) {
    if (p.native) continue;
    const type = `plugin::${p.name}`;
    for (const ctrl of Object.keys(p.module.controllers ?? {})) {
      const prefix = `${type}.${ctrl}.`;
      const instance = (registry.instance('controller', p.name, ctrl) ?? {}) as Record<string, unknown>;
      const named = [...routed].filter((a) => a.startsWith(prefix)).map((a) => a.slice(prefix.length));
      const actions = [...new Set([...Object.keys(instance).filter((a) => named.includes(a)), ...named])];
      if (actions.length) out.push([type, ctrl, actions]);
    }
  }
  return out;
}
