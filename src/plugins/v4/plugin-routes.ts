// A v4 plugin's `routes` -> the routes Tessera serves, as v4's registerPluginRoutes and routing.js build them:
// an array is an admin router, a router object has `type` (default admin) and `prefix` (default `/<plugin>`);
// a route with `config.prefix` (whatever its value) goes on the bare router (so `prefix: ''` gives
// `/api/<path>`), others below the router's prefix. Content-API routers are served under the REST prefix.
// Admin routers are served at the root as v4 serves them to a caller without an admin session: routes with
// `auth: false` run, the others answer v4's 401. String handlers resolve in the plugin's controllers, else as a
// controller uid, when the server is built (an extension or register() may have replaced them by then); their
// permission action is `plugin::<plugin>.<controller>.<action>`. `strapi.server.routes()` adds routes the same way.
import { UnauthorizedError } from '../../errors';
import { ProjectError } from '../../project/errors';
import { isCoreRouter } from '../../project/strapi-module';
import type { RequestContext } from '../../rest/context';
import { compose, type KoaMiddleware } from '../../rest/route-chain';
import { coreRouterRoutes, type HttpMethod, type RouteConfig, type RouteDef } from '../../rest/routes';
import type { Model } from '../../model/types';
import type { PluginRegistry, RegisteredPlugin } from './plugin-registry';

interface V4Route {
  method?: unknown;
  path?: unknown;
  handler?: unknown;
  config?: RouteConfig & { prefix?: unknown; auth?: false | { scope?: unknown } };
  info?: unknown;
}

interface V4Router {
  type?: unknown;
  prefix?: unknown;
  routes?: unknown;
}

type ControllerLookup = (name: string) => Record<string, unknown> | undefined;

/** Where routes come from: a plugin (its controllers first, its name in actions) or the app (`strapi.server.routes`). */
interface RouteSource {
  pluginName?: string;
  file: string;
  controller: ControllerLookup;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);

/** koa-router path syntax -> fastify's: `(.*)` is a wildcard, `:name(regex)` keeps its regex */
export function fastifyPath(p: string): string {
  return p.replace(/\/\(\.\*\)\??$/, '/*').replace(/\(\.\*\)/g, '*');
}

export interface PluginRoutesResult {
  routes: RouteDef[];
}

export function pluginRoutes(plugin: RegisteredPlugin, registry: PluginRegistry, model: Model, controllerByUid: ControllerLookup): PluginRoutesResult {
  const { name, file } = plugin;
  const own = `plugin::${name}.`;
  const controller: ControllerLookup = (c) => (registry.instance('controller', name, c.startsWith(own) ? c.slice(own.length) : c) ?? controllerByUid(c)) as Record<string, unknown> | undefined;
  const source: RouteSource = { pluginName: name, file, controller };
  const routes: RouteDef[] = [];
  const raw = plugin.module.routes;
  const routers: V4Router[] = Array.isArray(raw) ? [{ type: 'admin', routes: raw }] : Object.values((raw ?? {}) as Record<string, V4Router>);
  for (const router of routers) {
    if (!router || typeof router !== 'object') continue;
    if (isCoreRouter(router)) {
      const options = router.options as { prefix?: string; type?: string };
      if ((options.type ?? 'content-api') !== 'content-api') continue;
      const ct = model.get(router.uid);
      if (!ct || ct.kind === 'component') throw new ProjectError(`plugin "${name}": createCoreRouter: content type "${router.uid}" does not exist`, file);
      const core = coreRouterRoutes(ct, { ...router, options: { ...options, prefix: options.prefix || `/${name}` } }, controller, file, undefined);
      routes.push(...core.map((r) => ({ ...r, origin: { pluginName: name, file } })));
      continue;
    }
    // as v4's registerPluginRoutes, in place (project code reading the routes later sees them so)
    if (!Array.isArray(raw)) router.type ||= 'admin';
    router.prefix ||= `/${name}`;
    routes.push(...routerRoutes(router, source));
  }
  return { routes };
}

/** v4 registerPluginRoutes' defaults, in place: a router object's `type` (admin) and `prefix` (`/<plugin>`) */
export function applyRouterDefaults(plugin: RegisteredPlugin): void {
  const raw = plugin.module.routes;
  if (Array.isArray(raw) || !raw || typeof raw !== 'object') return;
  for (const router of Object.values(raw as Record<string, V4Router>)) {
    if (!router || typeof router !== 'object' || isCoreRouter(router)) continue;
    router.type ||= 'admin';
    router.prefix ||= `/${plugin.name}`;
  }
}

/** `strapi.server.routes(routes)`: an array goes on the root router; a router object by its type. */
export function serverRoutes(added: unknown[], controllerByUid: ControllerLookup, file: string): RouteDef[] {
  const source: RouteSource = { file, controller: controllerByUid };
  return added.flatMap((entry) => {
    if (Array.isArray(entry)) return routerRoutes({ type: 'root', prefix: '', routes: entry }, source);
    const router = entry as V4Router;
    return routerRoutes({ ...router, type: router.type || 'admin', prefix: router.prefix ?? '' }, source);
  });
}

function routerRoutes(router: V4Router, source: RouteSource): RouteDef[] {
  const list = Array.isArray(router.routes) ? (router.routes as V4Route[]) : [];
  const contentApi = router.type === 'content-api';
  for (const r of list) completeRoute(r, source.pluginName, contentApi);
  return list.map((r) => routeOf(r, String(router.prefix ?? ''), contentApi ? 'content-api' : router.type === 'root' ? 'root' : 'admin', source));
}

/** v4: a string handler's permission scope and the route's `info`, written into the route object */
function completeRoute(r: V4Route, pluginName: string | undefined, contentApi: boolean): void {
  if (!r || typeof r !== 'object') return;
  if (typeof r.handler === 'string' && pluginName) {
    const own = `plugin::${pluginName}.`;
    const scope = `${r.handler.startsWith(own) ? '' : own}${r.handler}`;
    const config = (r.config ??= {});
    if (config.auth === undefined) config.auth = { scope: [scope] };
    else if (config.auth && typeof config.auth === 'object' && config.auth.scope === undefined) config.auth.scope = [scope];
  }
  r.info = { ...(r.info as object | undefined), ...(pluginName ? { pluginName } : {}), ...(contentApi ? { type: 'content-api' } : {}) };
}

/** the `next` a controller action receives (koa's last middleware: nothing after it) */
const NO_NEXT = async () => undefined;

const ADMIN_ONLY: RouteDef['handler'] = async () => {
  // v4's admin strategy, for a caller without an admin session (Tessera has no admin panel)
  throw new UnauthorizedError('Missing or invalid credentials');
};

function routeOf(r: V4Route, prefix: string, kind: 'content-api' | 'admin' | 'root', source: RouteSource): RouteDef {
  const where = source.pluginName ? `plugin "${source.pluginName}": ` : '';
  const method = String(r?.method ?? '').toUpperCase();
  if (!METHODS.has(method) || typeof r.path !== 'string') {
    throw new ProjectError(`${where}route ${JSON.stringify({ method: r?.method, path: r?.path })} needs a method and a path`, source.file);
  }
  const config = (r.config ?? {}) as NonNullable<V4Route['config']>;
  const path = fastifyPath((Object.hasOwn(config, 'prefix') ? '' : prefix) + r.path);
  const label = `${method} ${path}`;
  const origin = { pluginName: source.pluginName, file: source.file, handler: typeof r.handler === 'string' ? r.handler : undefined };
  const base = { method: method as HttpMethod, path, uid: source.pluginName ? `plugin::${source.pluginName}` : undefined, origin, root: kind !== 'content-api' };
  // an admin route that needs an admin session, or a root route (`strapi.server.routes([...])`: v4 registers no
  // authentication for those): v4's 401 unless `auth: false`, before anything of the plugin runs
  if (kind !== 'content-api' && config.auth !== false) return { ...base, action: '', config: { auth: false }, handler: ADMIN_ONLY };
  if (config.auth !== undefined && config.auth !== false) {
    const scopes = typeof config.auth === 'object' ? config.auth.scope : undefined;
    // v4's validateRouteConfig refuses these at start (a string handler got its scope above)
    if (!Array.isArray(scopes) || !scopes.every((x) => typeof x === 'string')) {
      throw new ProjectError(`${where}route ${label}: Invalid route config: config.auth.scope must be an array of strings`, source.file);
    }
  }
  const scope = config.auth && typeof config.auth === 'object' ? (config.auth.scope as string[]) : undefined;
  let handler: RouteDef['handler'];
  if (typeof r.handler === 'string') {
    const text = r.handler.trim();
    const dot = text.lastIndexOf('.');
    if (dot < 0) throw new ProjectError(`${where}route ${label}: handler "${text}" must be "<controller>.<action>"`, source.file);
    const controller = source.controller(text.slice(0, dot));
    const fn = controller?.[text.slice(dot + 1)];
    if (typeof fn !== 'function') throw new ProjectError(`${where}route ${label}: Handler not found "${text}"`, source.file);
    handler = async (ctx: RequestContext) => fn.call(controller, ctx, NO_NEXT);
  } else if (typeof r.handler === 'function' || Array.isArray(r.handler)) {
    // a function (or a list of koa middlewares) as the handler: composed as koa runs them
    handler = compose((Array.isArray(r.handler) ? r.handler : [r.handler]) as KoaMiddleware[]);
  } else {
    throw new ProjectError(`${where}route ${label} needs a handler`, source.file);
  }
  // v4 requires every scope listed; an empty list requires none (anyone authenticated passes)
  const [action = '', ...moreActions] = scope ?? [];
  return { ...base, action: scope && !scope.length ? '' : action, ...(moreActions.length ? { moreActions } : {}), config: config as RouteConfig, handler };
}
