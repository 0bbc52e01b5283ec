// Project files do `require('@strapi/strapi').factories` and `require('@strapi/utils')`, packages we
// never install. We answer those two exact names from memory by patching node's CJS loader, so an
// unmodified project folder loads without a node_modules of its own. An installed package (a v4 plugin)
// that requires `@strapi/utils` gets the real one it resolves, with Tessera's `errors` and `env`: plugins use
// far more of it (sanitize, validate, getAbsoluteServerUrl, ...) than the project's own code does.
import Module from 'node:module';
import path from 'node:path';
import { env as processEnvHelper, type EnvHelper } from './env';
import { errors } from './strapi-errors';

/** `createCoreRouter(uid, options)` as written in routes/<name>.js; the REST layer expands it. */
export interface CoreRouterDescriptor {
  __tessera: 'core-router';
  uid: string;
  /** v4 options: { prefix?, only?, except?, config?: { find: { auth, policies, middlewares } }, type? } */
  options: Record<string, unknown>;
}

/** `createCoreController(uid, extend)`: extend is `({ strapi }) => methods` or a methods object. */
export interface CoreControllerDescriptor {
  __tessera: 'core-controller';
  uid: string;
  extend?: Function | object;
}

/** `createCoreService(uid, extend)`: same shape as the controller descriptor. */
export interface CoreServiceDescriptor {
  __tessera: 'core-service';
  uid: string;
  extend?: Function | object;
}

export type CoreDescriptor = CoreRouterDescriptor | CoreControllerDescriptor | CoreServiceDescriptor;

export interface StrapiFactories {
  createCoreRouter(uid: string, options?: Record<string, unknown>): unknown;
  createCoreController(uid: string, extend?: Function | object): unknown;
  createCoreService(uid: string, extend?: Function | object): unknown;
}

/**
 * What a core controller or service descriptor does when called as v4's factory (`({ strapi }) => controller`,
 * as plugins and extensions call them): the `strapi` object Tessera hands out builds it.
 */
export const BUILD_CORE = Symbol.for('tessera.buildCore');
type CoreBuilder = (kind: 'controller' | 'service', uid: string, descriptor: CoreControllerDescriptor | CoreServiceDescriptor) => unknown;

function callableDescriptor<T extends CoreControllerDescriptor | CoreServiceDescriptor>(d: T, kind: 'controller' | 'service'): T {
  const factory = (opts?: { strapi?: Record<symbol, CoreBuilder> }) => {
    const build = opts?.strapi?.[BUILD_CORE] ?? (globalThis as { strapi?: Record<symbol, CoreBuilder> }).strapi?.[BUILD_CORE];
    if (typeof build !== 'function') throw new Error(`createCore${kind === 'controller' ? 'Controller' : 'Service'}("${d.uid}") was called without the strapi object`);
    return build(kind, d.uid, d);
  };
  return Object.assign(factory, d);
}

/** The default factories: record what the project asked for, interpret later (or when called, as v4's factories). */
export const descriptorFactories: StrapiFactories = {
  createCoreRouter: (uid, options = {}): CoreRouterDescriptor => ({ __tessera: 'core-router', uid, options }),
  createCoreController: (uid, extend) => callableDescriptor<CoreControllerDescriptor>({ __tessera: 'core-controller', uid, extend }, 'controller'),
  createCoreService: (uid, extend) => callableDescriptor<CoreServiceDescriptor>({ __tessera: 'core-service', uid, extend }, 'service'),
};

const tagged = (x: unknown, tag: CoreDescriptor['__tessera']): boolean =>
  (typeof x === 'object' || typeof x === 'function') && x !== null && (x as { __tessera?: unknown }).__tessera === tag;
export const isCoreRouter = (x: unknown): x is CoreRouterDescriptor => tagged(x, 'core-router');
export const isCoreController = (x: unknown): x is CoreControllerDescriptor => tagged(x, 'core-controller');
export const isCoreService = (x: unknown): x is CoreServiceDescriptor => tagged(x, 'core-service');

// ---- the loader patch -------------------------------------------------------------------------

type LoadFn = (request: string, parent: unknown, isMain: boolean) => unknown;
type ResolveFn = (request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _load: LoadFn; _resolveFilename: ResolveFn };

/** Exports served for the shimmed names; undefined when the patch is not installed. */
let shims: Record<string, unknown> | undefined;
let originalLoad: LoadFn | undefined;
let originalResolve: ResolveFn | undefined;

function patch(): void {
  if (originalLoad) return;
  originalLoad = loader._load;
  originalResolve = loader._resolveFilename;
  const load = originalLoad;
  const resolve = originalResolve;
  loader._load = function (this: unknown, request, parent, isMain) {
    if (shims && Object.prototype.hasOwnProperty.call(shims, request)) {
      const real = request === UTILS ? installedUtilsFile(this, parent) : undefined;
      return real ? realUtils(load.call(this, real, parent, isMain) as Record<string, unknown>, shims[UTILS] as Record<string, unknown>) : shims[request];
    }
    return load.call(this, request, parent, isMain);
  };
  loader._resolveFilename = function (this: unknown, request, ...rest) {
    if (shims && Object.prototype.hasOwnProperty.call(shims, request)) return (request === UTILS && installedUtilsFile(this, rest[0])) || request;
    return resolve.call(this, request, ...rest);
  };
}

const UTILS = '@strapi/utils';
const IN_PACKAGE = `${path.sep}node_modules${path.sep}`;

/** the real @strapi/utils a package (a file under node_modules) resolves, if it is installed */
function installedUtilsFile(self: unknown, parent: unknown): string | undefined {
  const from = (parent as { filename?: unknown } | null | undefined)?.filename;
  if (typeof from !== 'string' || !from.includes(IN_PACKAGE) || !originalResolve) return undefined;
  try {
    return originalResolve.call(self, UTILS, parent, false);
  } catch {
    return undefined;
  }
}

/** per real module (by its exports): what packages get of it */
const realUtilsViews = new WeakMap<object, Record<string, unknown>>();

/**
 * The real @strapi/utils with Tessera's `errors` and `env`. Its own error classes are made subclasses of
 * Tessera's (each of its namesake), so what its functions throw (validate's "Invalid parameter", a
 * pagination error) is answered as v4 answers it rather than as a 500.
 */
function realUtils(real: Record<string, unknown>, shim: Record<string, unknown>): Record<string, unknown> {
  const seen = realUtilsViews.get(real);
  if (seen && seen.errors === shim.errors && seen.env === shim.env) return seen;
  const own = (real.errors ?? {}) as Record<string, unknown>;
  const tessera = shim.errors as Record<string, unknown>;
  for (const [name, cls] of Object.entries(own)) {
    const base = tessera[name];
    if (typeof cls !== 'function' || typeof base !== 'function' || cls === base) continue;
    Object.setPrototypeOf(cls, base);
    Object.setPrototypeOf(cls.prototype, base.prototype);
  }
  const view = { ...real, errors: shim.errors, env: shim.env };
  realUtilsViews.set(real, view);
  return view;
}

function unpatch(): void {
  if (!originalLoad || !originalResolve) return;
  loader._load = originalLoad;
  loader._resolveFilename = originalResolve;
  originalLoad = originalResolve = undefined;
  shims = undefined;
}

export interface ShimOptions {
  /** `require('@strapi/utils').env`; defaults to the helper over process.env */
  env?: EnvHelper;
  /** more properties of `require('@strapi/strapi')` */
  strapi?: Record<string, unknown>;
}

/**
 * Make `require('@strapi/strapi')` return `{ factories, ...opts.strapi }` and `require('@strapi/utils')`
 * return `{ env, errors }`. Installing again replaces the answers (last one wins). Returns a function
 * restoring what was there before (and removing the patch if nothing was).
 */
export function installStrapiModuleShim(factories: object, opts: ShimOptions = {}): () => void {
  const previous = shims;
  patch();
  shims = {
    '@strapi/strapi': { ...opts.strapi, factories },
    '@strapi/utils': { env: opts.env ?? processEnvHelper, errors },
  };
  return () => {
    if (previous) shims = previous;
    else unpatch();
  };
}
