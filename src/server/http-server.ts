// The fastify assembly: body and query parsing as v4 does them, the v4 error envelope for everything,
// routes with their permission check, 404/405 as JSON, health, security headers, CORS, public files.
import fs from 'node:fs';
import type { RequestListener } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import qs from 'qs';
import type { Logger } from 'pino';
import { BadRequestError, JsonSyntaxError, MethodNotAllowedError, NotFoundError, ValidationError, httpErrorBody, toErrorBody } from '../errors';
import { DEFAULT_MAX_JSON_DEPTH, jsonTextTooDeep, tooDeepMessage } from '../json-nesting';
import type { Access } from '../rest/access';
import { answerStatus, createContext, sessionCookies, usedSession, withV4Auth, type RequestContext, type RouteState } from '../rest/context';
import { compose, type KoaMiddleware } from '../rest/route-chain';
import { requestContext } from '../rest/request-scope';
import type { ProjectHttpServer, ServerTimeouts } from './project-http-server';
import { UP_STRATEGY, type Auth } from '../auth/authenticate';
import { NO_ACCESS } from '../auth/abilities';
import { untouchedJsonText } from '../rest/json-body';
import { auditResponse, hasResponseAuditors } from './response-audit';
import { routeMatchKey, type RouteDef } from '../rest/routes';
import type { MiddlewareSettings } from './middlewares-config';
import { createQueryStringParser } from './query-string';
import { clientErrorHandler, expectationFailed, frameworkError } from './client-error';
import { canonicalFilePath, contentTypeFor, resolvePublicFile, sendPublicFile, uploadsDirOf } from './static-files';
import { lazySchemaCompilers } from './schema-compilers';
import { ShapeCache } from '../query/shape-cache';
import { createSessions, sessionOptions, type Sessions } from './sessions';
import { isCoreAnswer } from '../cache/core-answer';
import { answerKey, REST_DOOR, sendKept, type KeptAnswers } from '../cache/kept-answers';
import { withFastHits } from '../cache/fast-hits';

/** Node's own default, which v4 (koa on node:http) answers with; fastify's would be none */
export const DEFAULT_REQUEST_TIMEOUT = 300_000;

export interface ServerOptions {
  routes: RouteDef[];
  prefix: string;
  settings: MiddlewareSettings;
  access: Access;
  publicDir: string;
  faviconFile?: string;
  log: Logger;
  /** config/middlewares.js project middlewares (rest/route-chain.ts), run around every route in their order */
  appMiddlewares?: KoaMiddleware[];
  /** config/server.js `proxy`: trust X-Forwarded-For / -Proto for the client ip (rate limits) */
  trustProxy?: boolean;
  /** config/api.js `rest.maxJsonDepth`: deeper JSON bodies are a 400 before they are parsed */
  maxJsonDepth?: number;
  /** ms a request may take to arrive whole (config/server.js `http.serverOptions.requestTimeout`): then a 408 */
  requestTimeout?: number;
  /**
   * the http.Server to answer on (v4's `strapi.server.httpServer`, which project code may use before the
   * server is built, e.g. to attach socket.io in bootstrap); without it fastify makes its own
   */
  httpServer?: ProjectHttpServer;
  /** run each request in strapi.requestContext (rest/request-scope.ts): costs every await on Node 20, so only when project code uses it */
  trackRequests?: boolean;
  /** config/server.js `app.keys`: strapi::session signs its cookie with them (server/sessions.ts) */
  appKeys?: unknown;
  /** the response cache (cache/kept-answers.ts): answers of the core read routes kept while they hold */
  keptAnswers?: KeptAnswers;
  /** writes strapi::logger's line per request (default `log.info`; core/logger.ts infoLine writes it directly) */
  requestLine?: (msg: string) => void;
}

/** the options and what buildServer made of them for every request */
type Server = ServerOptions & { sessions?: Sessions };

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "connect-src 'self' https:;img-src 'self' data: blob:;media-src 'self' data: blob:;default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'",
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
};

const MAX_CACHED_QUERY = 2048;

/** a deep copy of what qs returns (plain or null-prototype objects, arrays, strings, null) */
function copyQuery(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(copyQuery);
  const out: Record<string, unknown> = Object.getPrototypeOf(v) === null ? Object.create(null) : {};
  for (const k of Object.keys(v)) {
    const value = copyQuery((v as Record<string, unknown>)[k]);
    // an own `__proto__` key (qs with allowPrototypes) stays a key, never the copy's prototype
    if (k === '__proto__') Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
    else out[k] = value;
  }
  return out;
}

function sendError(reply: FastifyReply, err: unknown, log: Logger): void {
  const { status, body } = toErrorBody(err);
  if (status >= 500) log.error({ err }, 'request failed');
  reply.code(status).type('application/json; charset=utf-8').send(body);
}

function allowedOrigin(cors: MiddlewareSettings['cors'], origin: string | undefined): string | null {
  if (!origin) return null;
  const list = Array.isArray(cors.origin) ? cors.origin : [cors.origin];
  if (list.includes('*')) return cors.credentials ? origin : '*';
  return list.includes(origin) ? origin : null;
}

export function buildServer(options: ServerOptions): FastifyInstance {
  const { settings, log } = options;
  // v4 reads NODE_ENV for the cookie's `secure` default as the process has it
  const o: Server = { ...options, sessions: settings.session ? createSessions(sessionOptions(settings.session, process.env.NODE_ENV), options.appKeys) : undefined };
  const qsOptions = { strictNullHandling: true, arrayLimit: 100, depth: 20, ...settings.query };
  const queryString = createQueryStringParser(settings.query);
  // a query string seen before is not parsed again; each request gets its own copy (controllers may change it)
  const parsedQueries = new ShapeCache<Record<string, unknown>>();
  const parseQueryString = (s: string): Record<string, unknown> => {
    const hit = s.length <= MAX_CACHED_QUERY ? parsedQueries.get(s) : undefined;
    if (hit) return copyQuery(hit) as Record<string, unknown>;
    const parsed = queryString.parse(s);
    if (s.length <= MAX_CACHED_QUERY && !queryString.rejection(parsed)) parsedQueries.set(s, copyQuery(parsed) as Record<string, unknown>);
    return parsed;
  };
  // the headers every answer gets (security headers, x-powered-by), and CORS's for an Origin (not a preflight's)
  const BASE_HEADERS: Record<string, string> = { ...(settings.security ? SECURITY_HEADERS : {}), ...(settings.poweredBy ? { 'x-powered-by': settings.poweredBy } : {}) };
  const baseHeaders = (reply: FastifyReply): void => {
    reply.headers(BASE_HEADERS);
  };
  const corsHeaders = (origin: string | undefined): Record<string, string> => {
    const allowed = allowedOrigin(settings.cors, origin);
    if (!allowed) return { vary: 'Origin' };
    const h: Record<string, string> = { vary: 'Origin', 'access-control-allow-origin': allowed };
    if (settings.cors.credentials) h['access-control-allow-credentials'] = 'true';
    if (settings.cors.expose?.length) h['access-control-expose-headers'] = settings.cors.expose.join(',');
    return h;
  };
  // strapi::logger's line per request
  const requestLine = o.requestLine ?? ((msg: string) => log.info(msg));
  // kept answers for callers without credentials go out before fastify (cache/fast-hits.ts)
  let closing = false;
  const fast = (handler: RequestListener): RequestListener => (!o.keptAnswers ? handler : withFastHits(handler, {
    kept: o.keptAnswers,
    prefix: o.prefix + '/',
    publicAbility: () => o.access.publicAbilityNow?.(),
    headers: (origin) => (settings.cors.enabled ? { ...BASE_HEADERS, ...corsHeaders(origin) } : BASE_HEADERS),
    closing: () => closing,
    logLine: settings.logger ? (method, url, ms, status) => requestLine(`${method} ${url} (${Math.round(ms)} ms) ${status}`) : undefined,
  }));
  const app = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: settings.jsonLimit,
    requestTimeout: o.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT,
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: 200,
      querystringParser: (s: string) => parseQueryString(s),
    },
    return503OnClosing: false, // answered in the onRequest hook below
    clientErrorHandler,
    // a malformed escape or an over-long path parameter, found while routing: v4's envelope, not fastify's body
    frameworkErrors: (err, _req, reply) => {
      baseHeaders(reply);
      sendError(reply, frameworkError(err), log);
    },
    trustProxy: o.trustProxy === true,
    schemaController: lazySchemaCompilers,
    serverFactory: o.httpServer ? (handler, opts) => o.httpServer!.serve(fast(handler as RequestListener), opts as unknown as ServerTimeouts) : undefined,
  });

  app.removeContentTypeParser(['application/json', 'text/plain']);
  const maxJsonDepth = o.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  app.addContentTypeParser(['application/json', 'application/vnd.api+json'], { parseAs: 'string' }, (_req, text, done) => {
    const s = String(text);
    if (s.trim() === '') return done(null, undefined);
    if (jsonTextTooDeep(s, maxJsonDepth)) return done(new ValidationError(tooDeepMessage('The request body', maxJsonDepth)), undefined);
    try {
      done(null, JSON.parse(s));
    } catch (e) {
      done(new JsonSyntaxError((e as Error).message), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) => done(null, qs.parse(String(text), qsOptions)));
  app.addContentTypeParser(/^text\//, { parseAs: 'string' }, (_req, text, done) => done(null, text));

  app.server.on('checkExpectation', expectationFailed);
  // a request arriving on an open connection while the server closes: 503 in the envelope (fastify's own
  // answer to it, return503OnClosing, has its own body)
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  // one callback-style hook per request for headers, CORS and the query-string limits (no promise per hook)
  const apiPaths = o.prefix + '/';
  // routes plugins serve at the root (v4 admin routes, strapi.server.routes): their handlers see the path as asked
  // (koa-static's own guard answers a path escape 403, as in v4)
  const rootRoutes = new Set(o.routes.filter((r) => r.root).map((r) => r.path));
  app.addHook('onRequest', (req, reply, done) => {
    baseHeaders(reply);
    if (closing) {
      reply.code(503).type('application/json; charset=utf-8').send(httpErrorBody(503, undefined).body);
      return;
    }
    if (settings.cors.enabled) {
      const cors = corsHeaders(req.headers.origin);
      reply.headers(cors);
      if (cors['access-control-allow-origin']) {
        if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
          reply.header('access-control-allow-methods', settings.cors.methods.join(','));
          reply.header('access-control-allow-headers', req.headers['access-control-request-headers'] ?? settings.cors.headers.join(','));
          if (settings.cors.maxAge) reply.header('access-control-max-age', String(settings.cors.maxAge));
          reply.code(204).send();
          return;
        }
      }
    }
    // files are served only at their canonical path, whichever static handler the router chose (issue #20):
    // another spelling (`//uploads/x`, `/x/../uploads/x`, `/uploads%2fx`) is refused before any handler runs
    if ((req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith(apiPaths) && !(rootRoutes.size && rootRoutes.has(req.routeOptions.url ?? ''))) {
      const file = canonicalFilePath(req.url);
      if (file === null || file === 'malformed') {
        sendError(reply, file === null ? new NotFoundError('Not Found') : new BadRequestError('failed to decode'), log);
        return;
      }
    }
    const rejected = queryString.rejection(req.query);
    if (rejected) {
      sendError(reply, rejected, log);
      return;
    }
    done();
  });
  if (settings.logger) {
    app.addHook('onResponse', (req, reply, done) => {
      requestLine(`${req.method} ${req.url} (${Math.round(reply.elapsedTime)} ms) ${reply.statusCode}`);
      done();
    });
  }

  if (hasResponseAuditors()) {
    app.addHook('onSend', async (req, reply, payload) => {
      if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
        auditResponse({ method: req.method, url: req.url, status: reply.statusCode, contentType: reply.getHeader('content-type') as string | undefined, body: payload });
      }
      return payload;
    });
  }

  app.setErrorHandler((err, _req, reply) => sendError(reply, frameworkError(err), log));

  app.get('/_health', async (_req, reply) => {
    reply.header('strapi', 'You are so French!');
    return reply.code(204).send();
  });

  // keyed by routeMatchKey: routes whose paths differ only in parameter names share one path
  const methodsByPath = new Map<string, { url: string; methods: Set<string> }>();
  for (const route of o.routes) {
    const url = route.root ? route.path : o.prefix + route.path;
    const key = routeMatchKey(url);
    const path = methodsByPath.get(key) ?? { url, methods: new Set<string>() };
    methodsByPath.set(key, path);
    // as koa-router: a later route on the same method and path never answers (the first one does)
    if (path.methods.has(route.method)) continue;
    path.methods.add(route.method);
    // a route without policies, middlewares or project middlewares runs with no chain at all
    const state = routeStateOf(route);
    const chained = route.hooks?.length || o.appMiddlewares?.length ? chainedHandler(o, route, state, o.appMiddlewares ?? []) : undefined;
    const kept = !chained && o.keptAnswers && isCoreReadRoute(route) ? o.keptAnswers : undefined;
    const handler = chained ?? (kept ? (req: FastifyRequest, reply: FastifyReply) => handleKept(o, kept, route, state, req, reply) : (req: FastifyRequest, reply: FastifyReply) => handle(o, route, state, req, reply));
    app.route({ method: route.method, url, handler });
  }
  for (const { url, methods } of methodsByPath.values()) {
    // a GET no route takes is v4's public-files catch-all's: a 404 (below), never a 405
    const others = ['POST', 'PUT', 'DELETE', 'PATCH'].filter((m) => !methods.has(m));
    if (!others.length) continue;
    const allow = [...methods].join(', ');
    app.route({ method: others as never, url, handler: (_req, reply) => { reply.header('allow', allow); sendError(reply, new MethodNotAllowedError(), log); } });
  }

  app.setNotFoundHandler(async (req, reply) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith(o.prefix + '/')) {
      const pathOnly = req.url.split('?')[0];
      if (settings.favicon.enabled && pathOnly === '/favicon.ico' && o.faviconFile && fs.existsSync(o.faviconFile)) {
        reply.header('cache-control', `public, max-age=${Math.floor(settings.favicon.maxAge / 1000)}`);
        return reply.type('image/x-icon').send(fs.createReadStream(o.faviconFile));
      }
      const file = settings.public.enabled ? await resolvePublicFile(o.publicDir, pathOnly, { uploadsDir: uploadsDirOf(o.publicDir) }) : null;
      if (file) return sendPublicFile(req, reply, file, { maxAge: settings.public.maxAge / 1000 });
    }
    if (WRITE_METHODS.has(req.method)) {
      // v4: every path has its public-files GET route, so another method anywhere is a 405 for it
      reply.header('allow', 'HEAD, GET');
      sendError(reply, new MethodNotAllowedError(), log);
      return reply;
    }
    sendError(reply, new NotFoundError('Not Found'), log);
    return reply;
  });
  return app;
}

/**
 * The caller. `auth: false` routes skip authentication as v4 does: any token, valid or not, is ignored (no 401),
 * and the request can read no relation (v4 removes every populated relation there: no one is authenticated).
 */
async function callerOf(o: Server, route: RouteDef, req: FastifyRequest): Promise<Auth> {
  if (route.config.auth === false) return UNAUTHENTICATED;
  return authorized(o, route, await o.access.authenticate(req.headers.authorization));
}

/** `auth`, once allowed the route's action (and its further ones); throws 401/403 */
function authorized(o: Server, route: RouteDef, auth: Auth): Auth {
  o.access.authorize(auth, route.action);
  if (route.moreActions) for (const action of route.moreActions) o.access.authorize(auth, action);
  return auth;
}

const UNAUTHENTICATED: Auth = { kind: 'public', ability: NO_ACCESS, strategy: UP_STRATEGY, credentials: null };

/** the methods a route may take besides GET; another one on a path no route takes is v4's 405 (below) */
const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/** v4's `ctx.state.route` of a route: made once, when the route is registered, and shared by its requests */
function routeStateOf(route: RouteDef): RouteState {
  const pluginName = route.origin?.pluginName ?? uidPart(route.action, 'plugin::');
  const info: RouteState['info'] = pluginName ? { pluginName, type: 'content-api' } : { apiName: route.origin?.apiName ?? uidPart(route.action, 'api::'), type: 'content-api' };
  return { uid: route.uid, action: route.action, handler: route.origin?.handler ?? route.action, method: route.method, path: route.path, config: route.config as Record<string, unknown>, info };
}

/** `uidPart('api::article.article.find', 'api::')` -> `article`; undefined for another namespace */
const uidPart = (action: string, namespace: string): string | undefined => (action.startsWith(namespace) ? action.slice(namespace.length).split('.')[0] : undefined);

function contextOf(o: Server, state: RouteState, req: FastifyRequest, reply: FastifyReply, auth: Auth): RequestContext {
  return createContext({
    query: (req.query ?? {}) as Record<string, unknown>,
    queryConfig: o.settings.query,
    params: (req.params ?? {}) as Record<string, string>,
    body: req.body,
    headers: req.headers,
    method: req.method,
    url: req.url,
    auth,
    route: state,
    user: auth.kind === 'user' ? auth.user : undefined,
    raw: { req, reply },
    sessions: o.sessions,
  });
}

async function handle(o: Server, route: RouteDef, state: RouteState, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  // callerOf inlined: the hot path keeps one await for authentication
  const auth = route.config.auth === false ? UNAUTHENTICATED : authorized(o, route, await o.access.authenticate(req.headers.authorization));
  return answerWith(o, route, state, req, reply, auth);
}

/** a GET of a content type's `find` or `findOne`: what the core controller may answer, and the cache keep */
function isCoreReadRoute(route: RouteDef): boolean {
  return route.method === 'GET' && route.uid !== undefined && (route.action === `${route.uid}.find` || route.action === `${route.uid}.findOne`);
}

/**
 * `handle` with the response cache: a kept answer still valid is sent as it was (no parse, plan or SQL); else
 * the answer is built, and kept when the core read action made it (isCoreAnswer) and nothing else changed it.
 */
async function handleKept(o: Server, k: KeptAnswers, route: RouteDef, state: RouteState, req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const auth = route.config.auth === false ? UNAUTHENTICATED : authorized(o, route, await o.access.authenticate(req.headers.authorization));
  const key = auth.kind === 'none' ? null : answerKey(k, REST_DOOR, auth.ability, req.url);
  if (key === null) return answerWith(o, route, state, req, reply, auth);
  const looked = k.cache.lookup(key);
  // SQLite answers at once: no await on the hit path
  const found = looked instanceof Promise ? await looked : looked;
  if ('hit' in found) return sendKept(k, req, reply, found.hit);
  const snapshot = found.miss;
  const ctx = contextOf(o, state, req, reply, auth);
  const result = await (o.trackRequests ? requestContext.run(ctx, () => route.handler(ctx)) : route.handler(ctx));
  const body = ctx.body ?? result;
  // kept only as the route's core action made it: no status, type, header or session cookie set by other code,
  // and under the key it was looked up with (the default locale may have changed while it was built)
  if (!isCoreAnswer(ctx, route.action, body) || answerStatus(ctx) !== 200 || ctx.type || Object.keys(ctx.responseHeaders).length || usedSession(ctx)
    || (auth.kind !== 'none' && answerKey(k, REST_DOOR, auth.ability, req.url) !== key)) return send(reply, ctx, body);
  const tables = k.tables([route.uid!]);
  if (body === null) {
    const { status, body: error } = toErrorBody(new NotFoundError('Not Found'));
    return sendKept(k, req, reply, k.cache.store(key, snapshot, tables, status, JSON_TYPE, JSON.stringify(error)));
  }
  const text = untouchedJsonText(body) ?? JSON.stringify(body);
  return sendKept(k, req, reply, k.cache.store(key, snapshot, tables, 200, JSON_TYPE, text));
}

const JSON_TYPE = 'application/json; charset=utf-8';

function answerWith(o: Server, route: RouteDef, state: RouteState, req: FastifyRequest, reply: FastifyReply, auth: Auth): Promise<void> {
  const ctx = contextOf(o, state, req, reply, auth);
  // strapi.requestContext: project code below (services, lifecycle hooks) finds this ctx
  if (o.trackRequests) return requestContext.run(ctx, () => answer(route, ctx, reply));
  return answer(route, ctx, reply);
}

async function answer(route: RouteDef, ctx: RequestContext, reply: FastifyReply): Promise<void> {
  const result = await route.handler(ctx);
  // v4 (returnBodyMiddleware): the body the controller set wins over the value it returned, as on the chained path
  return send(reply, ctx, ctx.body ?? result);
}

/**
 * A route with policies, route middlewares or project middlewares, composed once at start-up as v4 composes
 * it: project middlewares (config/middlewares.js order), authentication and the permission check, the
 * route's policies, its middlewares, then the handler, whose result is in `ctx.body` when `next()` returns.
 */
function chainedHandler(o: Server, route: RouteDef, state: RouteState, appMiddlewares: KoaMiddleware[]): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const authenticate: KoaMiddleware = async (ctx, next) => {
    const raw = ctx.raw!;
    const auth = await callerOf(o, route, raw.req);
    ctx.state.auth = withV4Auth(auth);
    ctx.state.user = auth.kind === 'user' ? auth.user as RequestContext['state']['user'] : undefined;
    return next();
  };
  // v4 returnBodyMiddleware: a value the handler returns becomes the body unless it set one
  const handler: KoaMiddleware = async (ctx) => {
    const values = await route.handler(ctx);
    if ((ctx.body === undefined || ctx.body === null) && values !== undefined && values !== null) ctx.body = values;
  };
  const run = compose([...appMiddlewares, authenticate, ...(route.hooks ?? []), handler]);
  return async (req, reply) => {
    // no one is authenticated before the project middlewares ran (v4: they run before the router)
    const ctx = contextOf(o, state, req, reply, NOBODY);
    // strapi.requestContext, from the first project middleware on (v4 sets it before every middleware)
    await (o.trackRequests ? requestContext.run(ctx, () => run(ctx)) : run(ctx));
    await send(reply, ctx, ctx.body);
  };
}

const NOBODY: Auth = { kind: 'none', reason: 'Missing or invalid credentials' };

async function send(reply: FastifyReply, ctx: RequestContext, body: unknown): Promise<void> {
  // the protocol is read only for a session to commit (fastify computes it on each read)
  const cookies = sessionCookies(ctx, reply.request);
  if (cookies.length) reply.header('set-cookie', cookies);
  if ((body === undefined || body === null) && ctx.status === 204) {
    // koa: a controller that set `ctx.body = null` explicitly answers 204 (v4's users routes do)
    await reply.code(204).headers(ctx.responseHeaders).send();
    return;
  }
  if (body === undefined || body === null) throw new NotFoundError('Not Found');
  // koa `ctx.type = 'html' | '.css' | 'text/html'` (koa-send sets it): the Content-Type it names
  const named = ctx.type ? contentTypeFor(ctx.type) : undefined;
  if (named) ctx.responseHeaders['content-type'] = named;
  reply.code(answerStatus(ctx)).headers(ctx.responseHeaders);
  // a body the JSON read path wrote, that nothing looked inside: sent as written
  const text = untouchedJsonText(body);
  if (text !== undefined) {
    await reply.type('application/json; charset=utf-8').send(text);
    return;
  }
  // koa's body types: JSON always; a string (html when it starts with `<`), bytes or a stream only without one set
  const typed = ctx.responseHeaders['content-type'] !== undefined;
  if (isStream(body) || Buffer.isBuffer(body)) {
    if (!typed) reply.type('application/octet-stream');
  } else if (typeof body === 'string') {
    if (!typed) reply.type(/^\s*</.test(body) ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8');
  } else if (typeof body === 'object') {
    reply.type('application/json; charset=utf-8');
  }
  await reply.send(body);
}

const isStream = (v: unknown): v is NodeJS.ReadableStream => typeof v === 'object' && v !== null && typeof (v as { pipe?: unknown }).pipe === 'function';
