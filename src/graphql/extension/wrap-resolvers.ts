// v4's wrapResolvers for a schema with extensions: each field with a resolversConfig entry, and every Query and
// Mutation field, runs as v4 runs it: the permission check (`auth`), then the config's middlewares in order,
// then its policies, then the resolver. Policies and middlewares are resolved at start-up (an unknown name stops
// it, naming the field), and resolvers see v4's GraphQL context (`context.state`, `context.koaContext`).
import { defaultFieldResolver, isObjectType, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { merge } from 'lodash';
import type { Auth } from '../../auth/authenticate';
import { ForbiddenError, PolicyError } from '../../errors';
import { ProjectError } from '../../project/errors';
import { resolvePolicy, type HookRegistry, type ResolvedPolicy } from '../../rest/route-chain';
import type { RequestContext } from '../../rest/context';
import type { GraphqlContext } from '../context';
import { restContext } from '../plugins/rest-call';
import { configOf, type GeneratedExtension } from './generate';

type Resolver = GraphQLFieldResolver<unknown, GraphqlContext>;
type Args = Record<string, unknown>;
/** v4's GraphQL resolver middleware */
type Middleware = (next: Resolver, parent: unknown, args: Args, context: GraphqlContext, info: GraphQLResolveInfo) => unknown;

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

export interface WrapDeps {
  hooks: HookRegistry;
  strapi: () => unknown;
  /**
   * The Query and Mutation fields the schema had before the extensions, with the auth v4 gives them (`{ scope }`,
   * `false`, or `{}`); their resolvers check it themselves (shadow CRUD's and the plugins' operations), so here
   * only a project's own `auth`, or theirs once an extension replaced the resolver.
   */
  baseRoot: Map<string, unknown>;
  /** root fields an extension gave another resolver (they no longer check anything themselves) */
  replaced: ReadonlySet<string>;
  /** filled here: generated operations whose check a project's `auth` replaced (resolvers.ts skips theirs) */
  authReplaced: Set<string>;
}

export function wrapResolvers(schema: GraphQLSchema, ext: GeneratedExtension, deps: WrapDeps): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const root = ROOT_TYPES.has(type.name);
    for (const [name, field] of Object.entries(type.getFields())) {
      if (name.startsWith('__')) continue;
      const path = `${type.name}.${name}`;
      const config = configOf(ext.resolversConfig, path);
      if (!root && config === undefined) continue;
      const auth = root ? rootAuth(path, config?.auth, deps) : config?.auth === undefined || config.auth === null ? undefined : config.auth;
      const chain = resolverChain(path, config ?? {}, (field.resolve as Resolver | undefined) ?? (defaultFieldResolver as Resolver), deps);
      field.resolve = ((parent: unknown, args: Args, context: GraphqlContext, info: GraphQLResolveInfo) => {
        withV4Context(context);
        if (auth !== undefined && !verify(context.auth, auth)) throw new ForbiddenError('Forbidden access');
        return chain(parent, args, context, info);
      }) as never;
    }
  }
}

/**
 * The `auth` a root field is checked with here (undefined: its own resolver checks). v4 merges a project's
 * config over the plugins' (the earlier registration wins, deep): so does this.
 */
function rootAuth(path: string, own: unknown, deps: WrapDeps): unknown {
  const given = own !== undefined && own !== null;
  if (!deps.baseRoot.has(path)) return given ? own : {}; // an extension's operation: v4's default check
  const replaced = deps.replaced.has(path);
  if (!replaced && !given) return undefined;
  // generated operations skip their own check then (resolvers.ts); the plugins' operations keep theirs
  if (!replaced) deps.authReplaced.add(path);
  return merge({}, { auth: deps.baseRoot.get(path) }, { auth: given ? own : undefined }).auth ?? {};
}

/**
 * v4's `strapi.auth.verify(state.auth, config)` with the api-token and users-permissions strategies: `false`
 * lets anyone through; no scope lets any signed-in user and full-access tokens through (not Public); a scope
 * (a string or a list) needs every action in the caller's permissions.
 */
export function verify(auth: Auth, config: unknown): boolean {
  if (config === false) return true;
  if (auth.kind === 'none') return false;
  const scope = (config as { scope?: unknown } | null | undefined)?.scope;
  if (!scope) {
    if (auth.kind === 'user') return true;
    return auth.kind === 'api-token' && auth.token.type === 'full-access';
  }
  const scopes = Array.isArray(scope) ? scope : [scope];
  return scopes.every((s) => auth.ability.can(String(s)));
}

/** the config's middlewares, then its policies, then the resolver (v4's order) */
function resolverChain(path: string, config: { policies?: unknown; middlewares?: unknown }, resolve: Resolver, deps: WrapDeps): Resolver {
  const middlewares = middlewaresOf(path, config.middlewares, deps);
  const policies = policiesOf(path, config.policies, deps);
  let next: Resolver = resolve;
  if (policies.length) next = policiesResolver(policies, next, deps);
  for (const mw of [...middlewares].reverse()) {
    const inner = next;
    next = (parent, args, context, info) => mw(inner, parent, args as Args, context, info);
  }
  return next;
}

const describe = (v: unknown): string => (typeof v === 'function' ? 'a function' : JSON.stringify(v) ?? String(v));

function policiesOf(path: string, list: unknown, deps: WrapDeps): ResolvedPolicy[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new ProjectError(`GraphQL resolversConfig "${path}": policies must be an array, not ${describe(list)}`);
  return list.map((entry) => resolvePolicy(entry, { file: '', route: `GraphQL ${path}` }, deps.hooks));
}

/** v4's parseMiddlewares: a function; a name (the registered middleware itself is the resolver middleware); `{ name, options }` (its factory's product) */
function middlewaresOf(path: string, list: unknown, deps: WrapDeps): Middleware[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new ProjectError(`GraphQL resolversConfig "${path}": middlewares must be an array, not ${describe(list)}`);
  return list.map((entry) => {
    if (typeof entry === 'function') return entry as Middleware;
    const named = typeof entry === 'string' ? { name: entry, options: undefined, factory: false } : entry && typeof entry === 'object' ? { ...(entry as { name?: unknown; options?: unknown }), factory: true } : undefined;
    if (!named || typeof named.name !== 'string') throw new ProjectError(`GraphQL resolversConfig "${path}": a middleware must be a function, a name or { name, options }, not ${describe(entry)}`);
    const registered = deps.hooks.middlewares.get(named.name);
    if (typeof registered !== 'function') throw new ProjectError(`GraphQL resolversConfig "${path}": middleware "${named.name}" does not exist (v4: Middleware ${named.name} not found.)`);
    if (!named.factory) return registered as Middleware;
    const made = (registered as (options: unknown, deps: { strapi: unknown }) => unknown)(named.options ?? {}, { strapi: deps.strapi() });
    if (typeof made !== 'function') throw new ProjectError(`GraphQL resolversConfig "${path}": middleware "${named.name}" must return a function (next, parent, args, context, info) => ...`);
    return made as Middleware;
  });
}

/** v4's policies middleware: each policy gets the GraphQL policy context; anything but true/undefined blocks */
function policiesResolver(policies: ResolvedPolicy[], resolve: Resolver, deps: WrapDeps): Resolver {
  return async (parent, args, context, info) => {
    const policyContext = graphqlPolicyContext(parent, args as Args, context, info);
    const strapi = deps.strapi();
    for (const { handler, config } of policies) {
      const result = await handler(policyContext, config, { strapi });
      if (result !== true && result !== undefined) throw new PolicyError();
    }
    return resolve(parent, args, context, info);
  };
}

/** v4's `createPolicyContext('graphql', ...)` */
function graphqlPolicyContext(parent: unknown, args: Args, context: GraphqlContext, info: GraphQLResolveInfo) {
  const v4 = context as V4Context;
  return {
    type: 'graphql' as const,
    is: (type: string) => type === 'graphql',
    parent,
    args,
    context,
    info,
    get state() {
      return v4.state;
    },
    get http() {
      return v4.koaContext;
    },
  };
}

// ---- v4's GraphQL context ----

/** v4's `ctx.state.auth`: `{ strategy, credentials, ability }` (beside Tessera's own fields, which its code reads) */
export function v4Auth(auth: Auth): Record<string, unknown> {
  switch (auth.kind) {
    case 'api-token':
      return { ...auth, strategy: { name: 'api-token' }, credentials: auth.token };
    case 'user':
      return { ...auth, strategy: { name: 'users-permissions' }, credentials: auth.user };
    case 'public':
      return { ...auth, strategy: { name: 'users-permissions' }, credentials: null };
    default:
      return { ...auth, strategy: null, credentials: null, ability: null };
  }
}

interface V4Context extends GraphqlContext {
  state: RequestContext['state'];
  koaContext: RequestContext;
}

const READY = Symbol('tessera.v4GraphqlContext');

/**
 * v4 hands resolvers `{ state: koaCtx.state, koaContext: koaCtx }`: the same members here, made on first read,
 * the koa-like context over the GraphQL request (its headers, body and query) sharing that state.
 */
function withV4Context(context: GraphqlContext): void {
  const c = context as GraphqlContext & { [READY]?: true };
  if (c[READY] || 'state' in c) return;
  c[READY] = true;
  let state: RequestContext['state'] | undefined;
  let koa: RequestContext | undefined;
  const stateOf = () => {
    if (!state) {
      const { auth } = context;
      state = { auth: v4Auth(auth) as unknown as Auth, route: { handler: '', info: { type: 'content-api' } } as RequestContext['state']['route'], user: auth.kind === 'user' ? (auth.user as RequestContext['state']['user']) : undefined, isAuthenticated: auth.kind !== 'none' };
    }
    return state;
  };
  Object.defineProperties(c, {
    state: { get: stateOf, configurable: true },
    koaContext: {
      get: () => {
        if (!koa) {
          const req = (context as { reply?: { request?: { body?: unknown; query?: unknown } } }).reply?.request;
          koa = restContext(context, { body: req?.body, query: (req?.query ?? {}) as Record<string, unknown> });
          koa.state = stateOf();
        }
        return koa;
      },
      configurable: true,
    },
  });
}
