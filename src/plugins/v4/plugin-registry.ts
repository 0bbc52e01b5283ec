// The enabled plugins as project code sees them (`strapi.plugin(name)`, `strapi.plugins[name]`), Tessera's own
// (users-permissions, upload, i18n, email, graphql) and the project's v4 plugins alike: v4's module members
// (routes, controllers, services, contentTypes, policies, middlewares, config), controllers and services made
// on first use from their factories (`({ strapi }) => ({...})`), as v4's registries make them.
import type { ContentType, Model } from '../../model/types';
import type { Project } from '../../project/load-project';
import { isCoreController, isCoreService } from '../../project/strapi-module';
import type { V4PluginModule } from './plugin-module';

/** Builds a core controller or service (createCoreController/createCoreService descriptors) for a plugin type. */
export type CoreFactory = (kind: 'controller' | 'service', uid: string, descriptor: unknown, file: string) => unknown;

export interface RegisteredPlugin {
  name: string;
  module: V4PluginModule;
  /** a plugin Tessera implements itself: its module is a v4 view of it */
  native: boolean;
  /** where it was loaded from (messages) */
  file: string;
  /** `strapi.plugin(name).provider` (upload, email) */
  provider?(): unknown;
}

/** `strapi.plugin(name)` */
export interface PluginFacade {
  readonly routes: unknown;
  readonly controllers: Record<string, unknown>;
  readonly services: Record<string, unknown>;
  readonly contentTypes: Record<string, unknown>;
  readonly policies: Record<string, unknown>;
  readonly middlewares: Record<string, unknown>;
  readonly provider: unknown;
  config(path: string, defaultValue?: unknown): unknown;
  controller(name: string): unknown;
  service(name: string): unknown;
  contentType(name: string): unknown;
  policy(name: string): unknown;
  middleware(name: string): unknown;
}

export class PluginRegistry {
  private readonly plugins = new Map<string, RegisteredPlugin>();
  private readonly instances = new Map<string, { raw: unknown; value: unknown }>();
  private readonly facades = new Map<string, PluginFacade>();
  /** `strapi.plugins`: one enumerable property per enabled plugin, in load order */
  readonly byName: Record<string, PluginFacade> = {};

  constructor(private readonly deps: { project: Project; model: () => Model; strapi: () => unknown; core: () => CoreFactory }) {}

  add(plugin: RegisteredPlugin): void {
    this.plugins.set(plugin.name, plugin);
    const facade = this.facadeOf(plugin.name);
    Object.defineProperty(this.byName, plugin.name, { value: facade, enumerable: true, configurable: true });
  }

  /** replaces a plugin's module (its extension returned another object) */
  replace(name: string, module: V4PluginModule): void {
    this.plugins.get(name)!.module = module;
  }

  get(name: string): RegisteredPlugin | undefined {
    return this.plugins.get(name);
  }

  all(): RegisteredPlugin[] {
    return [...this.plugins.values()];
  }

  facade(name: string): PluginFacade | undefined {
    return this.plugins.has(name) ? this.facadeOf(name) : undefined;
  }

  /** a controller or service of a plugin, made once from its factory (`plugin::<name>.<key>`) */
  instance(kind: 'controller' | 'service', name: string, key: string): unknown {
    const plugin = this.plugins.get(name);
    const table = this.tableOf(kind, name);
    if (!plugin || !Object.hasOwn(table, key)) return undefined;
    const raw = table[key];
    const id = `${kind}:${name}.${key}`;
    const hit = this.instances.get(id);
    // kept with the entry it came from: an extension or register() that replaces the entry is seen
    if (hit && hit.raw === raw) return hit.value;
    const value = isCoreController(raw) || isCoreService(raw)
      ? this.deps.core()(kind, raw.uid, raw, plugin.file)
      : typeof raw === 'function' ? (raw as (a: { strapi: unknown }) => unknown)({ strapi: this.deps.strapi() }) : raw;
    this.instances.set(id, { raw, value });
    return value;
  }

  /** a plugin's controllers or services as its module has them now (factories or objects) */
  private tableOf(kind: 'controller' | 'service', name: string): Record<string, unknown> {
    const module = this.plugins.get(name)?.module;
    return (kind === 'controller' ? module?.controllers : module?.services) ?? {};
  }

  /** every controller or service of a plugin, made (`strapi.plugin(name).controllers` / `.services`) */
  private instancesOf(kind: 'controller' | 'service', name: string): Record<string, unknown> {
    return Object.fromEntries(Object.keys(this.tableOf(kind, name)).map((k) => [k, this.instance(kind, name, k)]));
  }

  /** the plugin's content types as `strapi.contentTypes` shows them, keyed by their short name */
  private contentTypesOf(name: string): Record<string, ContentType['schema']> {
    const prefix = `plugin::${name}.`;
    const out: Record<string, ContentType['schema']> = {};
    for (const [uid, ct] of this.deps.model().contentTypes) if (uid.startsWith(prefix)) out[uid.slice(prefix.length)] = ct.schema;
    return out;
  }

  private facadeOf(name: string): PluginFacade {
    let f = this.facades.get(name);
    if (f) return f;
    const mod = () => this.plugins.get(name)!.module;
    const config = this.deps.project.config;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const registry = this;
    f = {
      get routes() { return mod().routes; },
      get controllers() { return registry.instancesOf('controller', name); },
      get services() { return registry.instancesOf('service', name); },
      get contentTypes() { return registry.contentTypesOf(name); },
      get policies() { return mod().policies; },
      get middlewares() { return mod().middlewares; },
      get provider() { return registry.plugins.get(name)?.provider?.(); },
      config: (path: string, defaultValue?: unknown) => config.get(`plugin.${name}.${path}`, defaultValue),
      controller: (key: string) => registry.instance('controller', name, key),
      service: (key: string) => registry.instance('service', name, key),
      contentType: (key: string) => registry.deps.model().get(`plugin::${name}.${key}`)?.schema,
      policy: (key: string) => mod().policies[key],
      middleware: (key: string) => mod().middlewares[key],
    };
    this.facades.set(name, f);
    return f;
  }
}
