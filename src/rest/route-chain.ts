// Route policies, route middlewares and the project middlewares of config/middlewares.js, as v4 runs them
// (@strapi/strapi services/server/compose-endpoint.js, policy.js, middleware.js; @strapi/utils policy):
// everything is resolved when the server is built (an unknown name stops start-up, naming the file), and a
// route's chain is composed once. A route with no policy, no middleware and no project middleware gets no
// chain at all (http-server.ts then runs it exactly as before).
import { createRequire } from 'node:module';
import path from 'node:path';
import { ForbiddenError, PolicyError, UnauthorizedError } from '../errors';
import { ProjectError } from '../project/errors';
import type { Project } from '../project/load-project';
import type { RequestContext } from './context';

export type Next = () => Promise<unknown>;
export type KoaMiddleware = (ctx: RequestContext, next: Next) => unknown;
type Factory = (config: unknown, deps: { strapi: unknown }) => unknown;
type PolicyHandler = (policyContext: unknown, config: unknown, deps: { strapi: unknown }) => unknown;

/** Where a route was declared: how v4 resolves a bare policy name, and what an error names. */
export interface RouteOrigin {
  apiName?: string;
  pluginName?: string;
  /** project file of the route, relative to the project folder */
  file: string;
  /** `GET /articles/:id`, for messages */
  route: string;
}

/** Policies and middlewares of the project by v4 uid: `global::x`, `api::<api>.x` (and `plugin::<p>.x`). */
export interface HookRegistry {
  policies: Map<string, unknown>;
  middlewares: Map<string, unknown>;
  projectDir: string;
  strapi: () => unknown;
}

export function hookRegistry(project: Project, strapi: () => unknown): HookRegistry {
  const policies = new Map<string, unknown>(Object.entries(project.global.policies));
  const middlewares = new Map<string, unknown>(Object.entries(project.global.middlewares));
  for (const api of Object.values(project.apis)) {
    for (const [uid, mod] of Object.entries(api.policies)) policies.set(uid, mod);
    for (const [uid, mod] of Object.entries(api.middlewares)) middlewares.set(uid, mod);
  }
  return { policies, middlewares, projectDir: project.dir, strapi };
}

/** koa-compose: each middleware gets `next` for the rest; calling it twice is an error, as in koa. */
export function compose(list: KoaMiddleware[]): (ctx: RequestContext) => Promise<unknown> {
  return (ctx) => {
    let last = -1;
    const dispatch = (i: number): Promise<unknown> => {
      if (i <= last) return Promise.reject(new Error('next() called multiple times'));
      last = i;
      const fn = list[i];
      if (!fn) return Promise.resolve();
      try {
        return Promise.resolve(fn(ctx, () => dispatch(i + 1)));
      } catch (err) {
        return Promise.reject(err);
      }
    };
    return dispatch(0);
  };
}

// ---- policies ----

export interface ResolvedPolicy {
  handler: PolicyHandler;
  config: unknown;
}

const isKoa = (type: unknown): boolean => type === 'koa';

/**
 * v4 `createPolicyContext('koa', ctx)`: a copy of the ctx's own fields (`state` and `request` shared with it) plus
 * `type` and `is(type)`. It also keeps the ctx's methods (`badRequest`, `get`, ...), which v4's copy loses.
 */
export function policyContext(ctx: RequestContext): RequestContext & { type: 'koa'; is(type: string): boolean } {
  return Object.assign(Object.create(Object.getPrototypeOf(ctx)) as RequestContext, ctx, { is: isKoa, type: 'koa' as const });
}

function describe(v: unknown): string {
  return typeof v === 'function' ? 'a function' : JSON.stringify(v) ?? String(v);
}

/** v4 `findPolicy`: the name as a uid first, then (a bare name) in the route's own plugin or API. */
function findPolicy(name: string, origin: RouteOrigin, reg: HookRegistry): unknown {
  if (reg.policies.has(name)) return reg.policies.get(name);
  const local = origin.pluginName ? `plugin::${origin.pluginName}.${name}` : origin.apiName ? `api::${origin.apiName}.${name}` : undefined;
  if (local && reg.policies.has(local)) return reg.policies.get(local);
  throw new ProjectError(`route ${origin.route}: policy "${name}" does not exist (v4: Could not find policy "${name}")`, origin.file);
}

/** v4 `policy.resolve` of one entry: a function, a uid, or `{ name, config }` (also used for GraphQL resolversConfig) */
export function resolvePolicy(entry: unknown, origin: RouteOrigin, reg: HookRegistry): ResolvedPolicy {
  if (typeof entry === 'function') return { handler: entry as PolicyHandler, config: {} };
  const named = typeof entry === 'string' ? { name: entry, config: {} } : (entry as { name?: unknown; config?: unknown } | null);
  if (!named || typeof named !== 'object' || typeof named.name !== 'string') {
    throw new ProjectError(`route ${origin.route}: a policy must be a name, { name, config } or a function, not ${describe(entry)}`, origin.file);
  }
  const config = named.config || {};
  const policy = findPolicy(named.name, origin, reg);
  if (typeof policy === 'function') return { handler: policy as PolicyHandler, config };
  // createPolicy({ name, validator, handler }) objects: the validator checks the config at start-up
  const p = policy as { handler?: unknown; validator?: (config: unknown) => void } | null;
  if (p && typeof p.handler === 'function') {
    if (typeof p.validator === 'function') {
      try {
        p.validator(config);
      } catch {
        throw new ProjectError(`route ${origin.route}: invalid config passed to "${named.name}" policy`, origin.file);
      }
    }
    return { handler: p.handler as PolicyHandler, config };
  }
  throw new ProjectError(`route ${origin.route}: policy "${named.name}" must export a function`, origin.file);
}

const isNamed = (err: unknown, name: string): boolean => (err as { name?: unknown } | null)?.name === name;

/**
 * A policy's ForbiddenError or UnauthorizedError answers as v4's authorize step turns it: the generic 403
 * "Forbidden" / 401 "Unauthorized". A PolicyError keeps its message and details (v4 loses them too, a
 * confirmed v4 bug, strapi/strapi#18566; v5 keeps them).
 */
function asV4PolicyFailure(err: unknown): unknown {
  if (isNamed(err, 'PolicyError')) return err;
  if (err instanceof ForbiddenError || isNamed(err, 'ForbiddenError')) return new ForbiddenError('Forbidden');
  if (err instanceof UnauthorizedError || isNamed(err, 'UnauthorizedError')) return new UnauthorizedError('Unauthorized');
  return err;
}

/** One middleware running the route's policies in order; anything but `true`/`undefined` fails (v4). */
function policiesMiddleware(list: ResolvedPolicy[], strapi: () => unknown): KoaMiddleware {
  return async (ctx, next) => {
    const pc = policyContext(ctx);
    const deps = { strapi: strapi() };
    for (const { handler, config } of list) {
      let result: unknown;
      try {
        result = await handler(pc, config, deps);
      } catch (err) {
        throw asV4PolicyFailure(err);
      }
      if (result !== true && result !== undefined) throw new PolicyError();
    }
    return next();
  };
}

// ---- middlewares ----

const passThrough: KoaMiddleware = (_ctx, next) => next();

function instantiate(factory: unknown, name: string, config: unknown, origin: { file: string; route?: string }, reg: HookRegistry): KoaMiddleware {
  const where = origin.route ? `route ${origin.route}: ` : '';
  if (typeof factory !== 'function') throw new ProjectError(`${where}middleware "${name}" must export a function (config, { strapi }) => middleware`, origin.file);
  let mw: unknown;
  try {
    mw = (factory as Factory)(config, { strapi: reg.strapi() });
  } catch (err) {
    throw new ProjectError(`${where}middleware "${name}": ${(err as Error)?.message ?? String(err)}`, origin.file, err);
  }
  if (mw === undefined || mw === null) return passThrough;
  if (typeof mw !== 'function') throw new ProjectError(`${where}middleware "${name}" must return a function (ctx, next) => ...`, origin.file);
  return mw as KoaMiddleware;
}

/** `{ resolve }`: a module path or package, else a path relative to the project folder (v4). */
function resolveModule(spec: string, origin: { file: string }, reg: HookRegistry): unknown {
  const req = createRequire(path.join(reg.projectDir, 'package.json'));
  let file: string;
  try {
    file = req.resolve(spec);
  } catch {
    file = path.resolve(reg.projectDir, spec);
  }
  try {
    const mod = req(file) as { __esModule?: boolean; default?: unknown };
    return mod && mod.__esModule && 'default' in mod ? mod.default : mod;
  } catch (err) {
    throw new ProjectError(`could not load middleware "${spec}": ${(err as Error)?.message ?? String(err)}`, origin.file, err);
  }
}

/**
 * v4 `resolveMiddlewares`: functions as they are; names and `{ name, config }` through the registry
 * (factories called once, now); `{ resolve, config }` loaded from the project. `strapi::` names are not
 * project middlewares: the caller handles them.
 */
export function resolveMiddleware(item: unknown, origin: { file: string; route?: string }, reg: HookRegistry): KoaMiddleware {
  const where = origin.route ? `route ${origin.route}: ` : '';
  if (typeof item === 'function') return item as KoaMiddleware;
  const o = typeof item === 'string' ? { name: item } : (item as { name?: unknown; resolve?: unknown; config?: unknown } | null);
  if (o && typeof o === 'object') {
    const config = o.config ?? {};
    if (typeof o.name === 'string') {
      if (!reg.middlewares.has(o.name)) throw new ProjectError(`${where}middleware "${o.name}" does not exist (v4: Middleware ${o.name} not found.)`, origin.file);
      return instantiate(reg.middlewares.get(o.name), o.name, config, origin, reg);
    }
    if (typeof o.resolve === 'string') return instantiate(resolveModule(o.resolve, origin, reg), o.resolve, config, origin, reg);
  }
  throw new ProjectError(`${where}a middleware must be a name, { name, config }, { resolve, config } or a function, not ${describe(item)}`, origin.file);
}

// ---- one route ----

export interface RouteHooks {
  policies?: unknown;
  middlewares?: unknown;
}

/** The route's own part of the chain (policies, then middlewares); empty when it declares none. */
export function routeHookMiddlewares(hooks: RouteHooks, origin: RouteOrigin, reg: HookRegistry): KoaMiddleware[] {
  const out: KoaMiddleware[] = [];
  const policies = hooks.policies ?? [];
  const middlewares = hooks.middlewares ?? [];
  if (!Array.isArray(policies)) throw new ProjectError(`route ${origin.route}: config.policies must be an array`, origin.file);
  if (!Array.isArray(middlewares)) throw new ProjectError(`route ${origin.route}: config.middlewares must be an array (v4: Route middlewares config must be an array)`, origin.file);
  if (policies.length) out.push(policiesMiddleware(policies.map((p) => resolvePolicy(p, origin, reg)), reg.strapi));
  for (const m of middlewares) out.push(resolveMiddleware(m, origin, reg));
  return out;
}

/** Resolves every route's policies and middlewares (start-up; throws ProjectError naming the route file). */
export function attachRouteHooks(routes: Array<{ method: string; path: string; config: RouteHooks; origin?: { apiName?: string; pluginName?: string; file: string }; hooks?: KoaMiddleware[] }>, reg: HookRegistry): void {
  for (const r of routes) {
    const { policies, middlewares } = r.config;
    if (policies === undefined && middlewares === undefined) continue;
    const origin: RouteOrigin = { ...(r.origin ?? { file: 'route' }), route: `${r.method} ${r.path}` };
    const hooks = routeHookMiddlewares(r.config, origin, reg);
    if (hooks.length) r.hooks = hooks;
  }
}

/** The project middlewares of config/middlewares.js (entries that are not `strapi::`), in their order. */
export function projectMiddlewares(entries: unknown[], file: string, reg: HookRegistry): KoaMiddleware[] {
  return entries.map((e) => resolveMiddleware(e, { file }, reg));
}
