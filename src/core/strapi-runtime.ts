// Members of v4's `strapi` object that are about the running server rather than data: `server`, `reload`,
// `fetch`, `telemetry`, `container` (docs/configuration.md, "The strapi object"). Each is what v4 project
// code calls on it, with Tessera's behaviour where v4's cannot apply (no koa app, no telemetry).
import _ from 'lodash';
import type { KoaMiddleware } from '../rest/route-chain';
import type { ProjectHttpServer } from '../server/project-http-server';

/** `strapi.server`: the http.Server (exists from the start), `use(middleware)` until the server is built */
export interface ServerFacadeDeps {
  http: ProjectHttpServer;
  use(mw: KoaMiddleware): void;
  /** `strapi.server.routes(...)`: routes served besides the project's (plugins/v4/plugin-routes.ts) */
  addRoutes(routes: unknown): void;
  /** the content-API routes as koa-router layers (`{ methods, path }`), for plugins that look routes up */
  listRoutes(): Array<{ methods: string[]; path: string }>;
  /** `strapi.server.router.use(...)`: a koa router of a plugin's own in front of the API; not run (said at start) */
  routerUse(by: unknown): void;
}

export function createServerFacade(d: ServerFacadeDeps) {
  /** v4's `strapi.server.api(name)`: the content API or the admin one; a list of routes goes in a router of its type */
  const apiOf = (name: string) => {
    if (name !== 'content-api' && name !== 'admin') throw new Error(`API ${name} not found. Possible APIs are content-api, admin`);
    const api = {
      listRoutes: () => (name === 'content-api' ? d.listRoutes() : []),
      routes: (r: unknown) => {
        d.addRoutes(Array.isArray(r) ? { type: name, prefix: '', routes: r } : { ...(r as object), type: name });
        return api;
      },
    };
    return api;
  };
  const facade = {
    get httpServer() {
      return d.http.server;
    },
    /** a koa middleware run around every route, as config/middlewares.js project middlewares are */
    use(mw: KoaMiddleware) {
      if (typeof mw !== 'function') throw new TypeError('strapi.server.use() needs a middleware function (ctx, next) => ...');
      d.use(mw);
      return facade;
    },
    routes(routes: unknown) {
      d.addRoutes(routes);
      return facade;
    },
    listRoutes: () => d.listRoutes(),
    /** v4's `strapi.server.api('content-api')` (its routes and listRoutes) */
    api: apiOf,
    router: {
      use: (...args: unknown[]) => {
        d.routerUse(args);
        return facade.router;
      },
    },
  };
  return facade;
}

/**
 * `strapi.reload()`: under `tessera develop` it asks the parent to restart this process (as v4's develop
 * does); under `tessera start` there is nothing to restart into, so it only warns.
 */
export function createReload(d: { restart?: () => void; warn(message: string): void }) {
  const reload = Object.assign(
    () => {
      if (d.restart) d.restart();
      else d.warn('strapi.reload() has no effect under `tessera start` (only `tessera develop` restarts)');
    },
    { isWatching: true, isReloading: false },
  );
  return reload;
}

/**
 * `strapi.fetch`: v4's fetch wrapper; Node's fetch here. config/server.js `globalProxy` (v4 routes it through
 * a proxy agent) is not honoured: a warning at start says so.
 */
export function createStrapiFetch(d: { globalProxy?: unknown; warn(message: string): void }) {
  if (d.globalProxy) d.warn('config/server.js globalProxy is not honoured by strapi.fetch (requests go out directly)');
  return (url: string | URL, options?: RequestInit) => globalThis.fetch(url, options);
}

/** `strapi.telemetry`: disabled; `send` does nothing and answers true, as v4's does when telemetry is off */
export function createTelemetry() {
  return {
    isDisabled: true,
    register() {},
    bootstrap() {},
    destroy() {},
    async send(_event?: string, _payload?: unknown): Promise<boolean> {
      return true;
    },
  };
}

/**
 * `strapi.container`: v4's (`register(name, resolver)` once per name, `get(name, args)` resolving a function
 * resolver once with `{ strapi }`), with `builtIn` registered from the start (config, content-types, ...).
 */
export function createContainer(strapi: () => unknown, builtIn: Record<string, unknown>) {
  const registered = new Map<string, unknown>(Object.entries(builtIn));
  const resolved = new Map<string, unknown>(Object.entries(builtIn));
  const container = {
    register(name: string, resolver: unknown) {
      if (registered.has(name)) throw new Error(`Cannot register already registered service ${name}`);
      registered.set(name, resolver);
      return container;
    },
    get(name: string, args?: unknown): unknown {
      if (resolved.has(name)) return resolved.get(name);
      if (!registered.has(name)) throw new Error(`Could not resolve service ${name}`);
      const resolver = registered.get(name);
      const value = typeof resolver === 'function' ? resolver({ strapi: strapi() }, args) : resolver;
      resolved.set(name, value);
      return value;
    },
    extend() {
      return container;
    },
  };
  return container;
}

/**
 * `strapi.admin.services.permission`: plugins register their admin panel actions and conditions at start
 * (`actionProvider.registerMany`). Tessera has no admin panel: they are kept (so later lookups answer) and not used.
 */
export function adminPermissionService() {
  const provider = () => {
    const items = new Map<string, unknown>();
    const keyOf = (item: unknown) => {
      const o = (item ?? {}) as { uid?: string; name?: string; pluginName?: string; plugin?: string };
      const owner = o.pluginName ?? o.plugin;
      return `${owner && owner !== 'admin' ? `plugin::${owner}` : 'admin::'}${owner && owner !== 'admin' ? '.' : ''}${o.uid ?? o.name ?? ''}`;
    };
    const p = {
      register: async (item: unknown) => { items.set(keyOf(item), item); return p; },
      registerMany: async (list: unknown[]) => { for (const item of list ?? []) items.set(keyOf(item), item); return p; },
      get: (key: string) => items.get(key),
      getAll: () => [...items.values()],
      has: (key: string) => items.has(key),
      values: () => [...items.values()],
      keys: () => [...items.keys()],
    };
    return p;
  };
  return { actionProvider: provider(), conditionProvider: provider() };
}

/**
 * `strapi.sanitizers` and `strapi.validators`: v4's registries of functions by path (`content-api.output`, ...),
 * read by @strapi/utils' sanitize and validate. They start with v4's empty lists (`initial`); `add` pushes onto
 * the list `get` answers, so (as in v4) it is kept only under a path that has one.
 */
export function createPathRegistry(initial: Record<string, unknown> = {}) {
  const lists: Record<string, unknown> = _.cloneDeep(initial);
  return {
    get(path: string): unknown[] {
      return _.get(lists, path, []) as unknown[];
    },
    add(path: string, fn: unknown) {
      this.get(path).push(fn);
      return this;
    },
    set(path: string, value: unknown[] = []) {
      _.set(lists, path, value);
      return this;
    },
    has(path: string): boolean {
      return _.has(lists, path);
    },
  };
}

interface ConfigLike {
  get<T = unknown>(path: string, defaultValue?: T): T;
  set(path: string, value: unknown): unknown;
  all(): Record<string, unknown>;
}

/**
 * v4 sets `server.url` at start from config/server.js (@strapi/utils getConfigUrls): `''` when not set, a path
 * gets its leading slash, an absolute URL is normalized, both without a trailing slash; anything else stops
 * start-up. Plugins build their links from it (the documentation plugin: `${strapi.config.server.url}/documentation`).
 */
export function applyServerUrl(config: ConfigLike): void {
  let url: unknown = _.trim(config.get('server.url', ''), '/ ');
  if (typeof url !== 'string') throw new Error('Invalid server url config. Make sure the url is a string.');
  if (url.startsWith('http')) {
    try {
      url = _.trim(new URL(config.get<string>('server.url')).toString(), '/');
    } catch {
      throw new Error('Invalid server url config. Make sure the url defined in server.js is valid.');
    }
  } else if (url !== '') {
    url = `/${url}`;
  }
  config.set('server.url', url);
}

/**
 * `strapi.config`: the configuration store, whose top-level keys also read as properties (v4's config provider
 * spreads them onto itself: `strapi.config.server.url`, `strapi.config.api.rest.prefix`).
 */
export function configFacade<C extends ConfigLike>(config: C): C {
  return new Proxy(config, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !(key in target)) return target.all()[key];
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      return key in target || (typeof key === 'string' && Object.hasOwn(target.all(), key));
    },
  });
}
