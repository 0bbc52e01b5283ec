// Route files of a v4 project -> concrete routes: core routers expand to v4's CRUD routes (with
// `only`, `except`, `prefix` and per-action `config`), custom route files resolve their handler strings.
import type { ContentType, Model } from '../model/types';
import { ProjectError } from '../project/errors';
import type { Project } from '../project/load-project';
import { isCoreRouter, type CoreRouterDescriptor } from '../project/strapi-module';
import type { RequestContext } from './context';
import { withRequestFiles, type EntryUploads } from './entry-uploads';
import type { KoaMiddleware } from './route-chain';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RouteConfig {
  /** false: no authentication or permission check (v4 `config.auth: false`) */
  auth?: false | { scope?: string[] };
  policies?: unknown[];
  middlewares?: unknown[];
}

export interface RouteDef {
  method: HttpMethod;
  /** path below the REST prefix, e.g. `/articles/:id` (with `root`: the whole path) */
  path: string;
  /** served at `path` itself, not below the REST prefix (plugins' admin routes, `strapi.server.routes([...])`) */
  root?: boolean;
  /** permission action, e.g. `api::article.article.find` */
  action: string;
  /** further actions the caller must also be allowed (a plugin route whose `config.auth.scope` lists several) */
  moreActions?: string[];
  uid?: string;
  config: RouteConfig;
  handler(ctx: RequestContext): Promise<unknown>;
  /**
   * where the route was declared (project routes): bare policy names resolve in this API (v4); `handler`: a
   * custom route's handler as written (`'probe.context'`), which v4 shows in `ctx.state.route.handler`
   */
  origin?: { apiName?: string; pluginName?: string; file: string; handler?: string };
  /** the route's policies then middlewares, resolved at start-up (route-chain.ts); absent or empty: none */
  hooks?: KoaMiddleware[];
}

export type ControllerLookup = (controllerUid: string) => Record<string, unknown> | undefined;

/**
 * The path as the router matches it: parameter names do not count (`/tasks/:id` and `/tasks/:slug` are one
 * path to fastify, which refuses a second route on it; to koa-router, v4's, the route declared first answers).
 */
export function routeMatchKey(path: string): string {
  return path.replace(/:[A-Za-z0-9_$-]+/g, ':');
}

const COLLECTION_ROUTES: Array<[HttpMethod, string, string]> = [
  ['GET', '', 'find'], ['GET', '/:id', 'findOne'], ['POST', '', 'create'], ['PUT', '/:id', 'update'], ['DELETE', '/:id', 'delete'],
];
const SINGLE_ROUTES: Array<[HttpMethod, string, string]> = [['GET', '', 'find'], ['PUT', '', 'update'], ['DELETE', '', 'delete']];

function bind(controllers: ControllerLookup, controllerUid: string, method: string, file: string): RouteDef['handler'] {
  return async (ctx) => {
    const controller = controllers(controllerUid);
    const fn = controller?.[method];
    if (typeof fn !== 'function') throw new ProjectError(`handler "${controllerUid}.${method}" does not exist`, file);
    return fn.call(controller, ctx);
  };
}

/** One route of a core router as v4's createCoreRouter lists it (`router.routes`): project code may change it. */
export interface CoreRouteObject {
  method: HttpMethod;
  path: string;
  handler: string;
  config: RouteConfig;
}

/**
 * v4's `router.routes` of a createCoreRouter(uid, options): made once and kept on the descriptor, so what
 * project code pushes onto a route's `config.middlewares` (in register) is what is served.
 */
export function coreRouterObjects(ct: ContentType, d: CoreRouterDescriptor): CoreRouteObject[] {
  const kept = d as CoreRouterDescriptor & { routes?: CoreRouteObject[]; type?: string; prefix?: string };
  if (kept.routes) return kept.routes;
  const o = d.options as { prefix?: string; only?: string[]; except?: string[]; config?: Record<string, RouteConfig> };
  const base = `/${ct.kind === 'singleType' ? ct.singularName : ct.pluralName}`;
  const table = ct.kind === 'singleType' ? SINGLE_ROUTES : COLLECTION_ROUTES;
  kept.type = String((o as { type?: string }).type ?? 'content-api');
  kept.prefix = o.prefix;
  kept.routes = table
    .filter(([, , action]) => (!o.only || o.only.includes(action)) && !(o.except ?? []).includes(action))
    .map(([method, suffix, action]) => ({ method, path: base + suffix, handler: `${ct.uid}.${action}`, config: { ...(o.config?.[action] ?? {}) } }));
  return kept.routes;
}

/** a route object listed in a router for v4's sake, served by a plugin of Tessera's (not from the router) */
const SERVED_ELSEWHERE = Symbol('served elsewhere');
const servedElsewhere = (r: unknown): boolean => typeof r === 'object' && r !== null && SERVED_ELSEWHERE in r;

/**
 * v4's i18n register adds `POST /<plural>/:id/localizations` (single types: `/<singular>/localizations`) to a
 * localized type's router (`strapi.api[api].routes[name].routes`): listed there (the documentation plugin
 * documents it), served by Tessera's i18n plugin.
 */
export function localizationRouteObject(ct: ContentType): CoreRouteObject {
  const path = ct.kind === 'singleType' ? `/${ct.singularName}/localizations` : `/${ct.pluralName}/:id/localizations`;
  return Object.assign({ method: 'POST' as const, path, handler: `${ct.modelName}.createLocalization`, config: { policies: [] } }, { [SERVED_ELSEWHERE]: true });
}

/** createCoreRouter(uid, options): v4's CRUD routes of one content type (a plugin's too: `apiName` absent) */
export function coreRouterRoutes(ct: ContentType, d: CoreRouterDescriptor, controllers: ControllerLookup, file: string, apiName: string | undefined): RouteDef[] {
  const prefix = (d.options as { prefix?: string }).prefix ?? '';
  return coreRouterObjects(ct, d).filter((r) => !servedElsewhere(r)).map((r) => {
    const action = r.handler.slice(r.handler.lastIndexOf('.') + 1);
    return {
      method: r.method, path: prefix + r.path, action: r.handler, uid: ct.uid,
      config: r.config,
      handler: bind(controllers, ct.uid, action, file),
      origin: { apiName, file },
    };
  });
}

/** `'article.custom'` or `'api::article.article.custom'` -> [controller uid, method] */
function resolveHandler(apiName: string, handler: unknown, file: string): [string, string] {
  if (typeof handler !== 'string') throw new ProjectError('a route needs a "handler" string', file);
  const dot = handler.lastIndexOf('.');
  if (dot < 0) throw new ProjectError(`route handler "${handler}" must be "<controller>.<action>"`, file);
  const ctrl = handler.slice(0, dot);
  return [ctrl.includes('::') ? ctrl : `api::${apiName}.${ctrl}`, handler.slice(dot + 1)];
}

/** `uploads`: custom routes get multipart requests parsed into `ctx.request.body` and `ctx.request.files` (v4's koa-body) */
export function projectRoutes(project: Project, model: Model, controllers: ControllerLookup, uploads?: () => EntryUploads | undefined): RouteDef[] {
  const routes: RouteDef[] = [];
  for (const [apiName, api] of Object.entries(project.apis)) {
    for (const [key, mod] of Object.entries(api.routes)) {
      const file = `src/api/${apiName}/routes/${key.split('.').pop()}.js`;
      if (isCoreRouter(mod)) {
        const ct = model.get(mod.uid);
        if (!ct || ct.kind === 'component') throw new ProjectError(`createCoreRouter: content type "${mod.uid}" does not exist`, file);
        routes.push(...coreRouterRoutes(ct, mod, controllers, file, apiName));
        continue;
      }
      const list = (mod as { routes?: unknown })?.routes;
      if (!Array.isArray(list)) throw new ProjectError('a routes file must export createCoreRouter(...) or { routes: [...] }', file);
      for (const r of list as Array<{ method?: string; path?: string; handler?: unknown; config?: RouteConfig }>) {
        if (servedElsewhere(r)) continue;
        const method = String(r.method ?? '').toUpperCase() as HttpMethod;
        if (!['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(method) || typeof r.path !== 'string') {
          throw new ProjectError(`route ${JSON.stringify({ method: r.method, path: r.path })} needs a method and a path`, file);
        }
        const [ctrl, action] = resolveHandler(apiName, r.handler, file);
        const handler = bind(controllers, ctrl, action, file);
        routes.push({
          method, path: r.path, action: `${ctrl}.${action}`, uid: ctrl, config: r.config ?? {},
          handler: uploads ? withRequestFiles(uploads, handler) : handler, origin: { apiName, file, handler: r.handler as string },
        });
      }
    }
  }
  return routes;
}
