// The koa-like `ctx` v4 controllers receive, so project code written for v4 (`ctx.query`,
// `ctx.params`, `ctx.request.body`, `ctx.state.auth`, `ctx.badRequest(...)`) runs unchanged. Policies and
// middlewares (rest/route-chain.ts) also use koa's `ctx.method`, `ctx.path`, `ctx.ip`, `ctx.throw`,
// `ctx.is`, `ctx.response`; plugins' handlers koa-static's members (`ctx.status` 404 until a body or a status
// is set, `ctx.type`, `ctx.acceptsEncodings`, a stream as the body, `ctx.path` following `ctx.url`),
// `ctx.redirect` and `ctx.session` (server/sessions.ts). The methods live on one shared prototype (as koa's
// do): a request allocates its fields only.
import http from 'node:http';
import _ from 'lodash';
import qs from 'qs';
import { httpErrorBody } from '../errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_STRATEGY, UP_STRATEGY, type Auth } from '../auth/authenticate';
import type { RequestFile } from './entry-uploads';
import { qsParseOptions } from '../server/query-string';
import type { SessionData, SessionState, Sessions } from '../server/sessions';
import { redirect as redirectAnswer } from './redirect';

type Headers = Record<string, string | string[] | undefined>;

export interface ContextResponse {
  status: number;
  body: unknown;
  readonly headers: Record<string, string>;
  set(name: string, value: string): void;
  get(name: string): string | undefined;
}

/**
 * v4's `ctx.state.route`: the route's declaration (method, path below the prefix, handler, config, info with
 * `apiName` or `pluginName` and `type: 'content-api'`), plus the content type and permission action.
 */
export interface RouteState {
  uid?: string;
  action?: string;
  handler: string;
  method?: string;
  path?: string;
  config?: Record<string, unknown>;
  info?: { apiName?: string; pluginName?: string; type: 'content-api' };
}

export interface RequestContext {
  /**
   * the parsed query string; assigning it works as in v4 (koa's setter through strapi::query): the object is
   * written to the query string with qs and parsed back, so a controller sees `"true"` where `true` was set
   */
  query: Record<string, unknown>;
  /** the query string without `?` (koa `ctx.querystring`); assigning it changes `url` and `query` */
  querystring: string;
  params: Record<string, string>;
  /** `files`: a multipart request's files on custom routes (v4's koa-body `ctx.request.files`); `query`, `querystring` and `url` are the ctx's */
  request: { files?: Record<string, RequestFile | RequestFile[]>; body: unknown; query: Record<string, unknown>; querystring: string; headers: Headers; header: Headers; method: string; url: string };
  /** `user`: the signed-in users-permissions user (JWT), without private attributes (v4 `ctx.state.user`) */
  state: { auth: Auth; route: RouteState; user?: Record<string, unknown> & { id: number }; [key: string]: unknown };
  /** the underlying request and reply (multipart streams, redirects); absent when called from code */
  raw?: { req: FastifyRequest; reply: FastifyReply };
  /** koa: setting a body makes the status 200 unless one was set; `null` makes it 204 */
  body: unknown;
  /** koa: 404 until a body or a status is set */
  status: number;
  /**
   * koa `ctx.type`: what code set (`'html'`, `'.css'`, a media type), `''` until then; the answer's Content-Type
   * follows it (server/http-server.ts). A plain field, so that a policy context's `type: 'koa'` stays its own.
   */
  type: string;
  /** response headers set by the controller */
  responseHeaders: Record<string, string>;
  /** the node response (koa `ctx.res`); absent when called from code */
  readonly res?: http.ServerResponse;
  /** strapi::session's session (undefined when the project does not list that middleware, as in v4) */
  session: SessionData | null | undefined;
  method: string;
  /** path and query string, as requested */
  url: string;
  /** request headers (koa `ctx.headers` / `ctx.header`) */
  headers: Headers;
  header: Headers;
  /** the url without its query string */
  readonly path: string;
  /** the client address (config/server.js `proxy` decides whether X-Forwarded-For counts) */
  readonly ip: string;
  /** koa `ctx.response`: status, body and response headers of this ctx */
  readonly response: ContextResponse;
  set(name: string, value: string | number): void;
  get(name: string): string | undefined;
  /** koa `ctx.acceptsEncodings(...)`: the first of them the request's Accept-Encoding prefers, or false */
  acceptsEncodings(...encodings: string[]): string | false;
  /** koa `ctx.redirect(url | 'back', alt)`: 302 (unless a redirect status is set), Location, a short body */
  redirect(url: string, alt?: string): void;
  /** koa `ctx.throw(status, message)`: an http error v4 answers in its envelope */
  throw(status: number, message?: string, details?: Record<string, unknown>): never;
  /** koa `ctx.is(...types)`: the request's content type if it matches one of `types` ('json', 'multipart', a mime) */
  is(...types: string[]): string | false | null;
  /** v4's response helpers (one per 4xx/5xx status, below): the status and the error envelope as the answer, without throwing */
  badRequest(message?: string | null, details?: unknown): void;
  notFound(message?: string | null, details?: unknown): void;
  forbidden(message?: string | null, details?: unknown): void;
  unauthorized(message?: string | null, details?: unknown): void;
  /** v4's koa response helpers: `ctx.send(data, status = 200)`, `ctx.created(data)` (201), `ctx.deleted(data)` (200, or 204 without data) */
  send(data: unknown, status?: number): void;
  created(data: unknown): void;
  deleted(data?: unknown): void;
}

const SHORT_TYPES: Record<string, string> = { json: 'application/json', urlencoded: 'application/x-www-form-urlencoded', multipart: 'multipart/*', text: 'text/*', html: 'text/html' };

function mimeMatches(actual: string, wanted: string): boolean {
  const w = SHORT_TYPES[wanted] ?? (wanted.includes('/') ? wanted : '');
  if (!w) return false;
  if (w.endsWith('/*')) return actual.startsWith(w.slice(0, -1));
  if (w.startsWith('*/')) return actual.endsWith(w.slice(1));
  return actual === w || (w === 'application/json' && actual.endsWith('+json'));
}

/** an http-errors style error: toErrorBody answers it with its status (4xx) or as a 500 */
class HttpError extends Error {
  readonly expose: boolean;
  constructor(readonly status: number, message: string | undefined, readonly details: Record<string, unknown>) {
    super(message ?? '');
    this.expose = status < 500;
  }
}

/** the statuses koa answers without a body, and its redirect statuses */
const EMPTY_STATUSES = new Set([204, 205, 304]);
const REDIRECT_STATUSES = new Set([300, 301, 302, 303, 305, 307, 308]);

/** `accepts` (negotiator): the provided encoding the Accept-Encoding header prefers (identity acceptable unless refused) */
function acceptedEncoding(header: string | undefined, provided: string[]): string | false {
  const specs: Array<{ encoding: string; q: number; i: number }> = [];
  for (const [i, part] of (header ?? '').split(',').entries()) {
    const m = /^\s*([^\s;]+)\s*(?:;(.*))?$/.exec(part);
    if (!m) continue;
    const q = /(?:^|;)\s*q\s*=\s*([0-9.]+)/.exec(m[2] ?? '');
    specs.push({ encoding: m[1].toLowerCase(), q: q ? Number(q[1]) : 1, i });
  }
  if (!specs.some((s) => s.encoding === 'identity')) specs.push({ encoding: 'identity', q: specs.length ? Math.min(...specs.map((s) => s.q)) : 1, i: specs.length });
  const ranked = provided.map((encoding, o) => {
    let best = { q: 0, s: -1, i: -1 };
    for (const spec of specs) {
      const s = spec.encoding === encoding.toLowerCase() ? 1 : spec.encoding === '*' ? 0 : -1;
      if (s >= 0 && (s > best.s || (s === best.s && spec.q > best.q))) best = { q: spec.q, s, i: spec.i };
    }
    return { encoding, o, ...best };
  }).filter((r) => r.q > 0);
  ranked.sort((a, b) => b.q - a.q || b.s - a.s || a.i - b.i || a.o - b.o);
  return ranked[0]?.encoding ?? false;
}

const contextPrototype: ThisType<RequestContext> & Pick<RequestContext, 'set' | 'get' | 'acceptsEncodings' | 'redirect' | 'throw' | 'is' | 'send' | 'created' | 'deleted'> = {
  set(name, value) { this.responseHeaders[name.toLowerCase()] = String(value); },
  get(name) {
    const v = this.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  },
  throw(status, message, details = {}) {
    throw new HttpError(Number.isInteger(status) && status >= 400 && status < 600 ? status : 500, message, details);
  },
  is(...types) {
    const raw = this.get('content-type');
    if (!raw) return null;
    const actual = raw.split(';')[0].trim().toLowerCase();
    if (types.length === 0) return actual;
    for (const t of types.flat()) if (mimeMatches(actual, String(t).toLowerCase())) return t;
    return false;
  },
  acceptsEncodings(...encodings) {
    return acceptedEncoding(this.get('accept-encoding'), encodings.flat());
  },
  redirect(url, alt) {
    const to = url === 'back' ? String(this.get('referrer') ?? this.get('referer') ?? alt ?? '/') : url;
    const prior = (this as Internal)[STATUS];
    this.body = redirectAnswer(this, to);
    if (prior !== undefined && REDIRECT_STATUSES.has(prior)) this.status = prior;
  },
  send(data, status = 200) {
    this.status = status;
    this.body = data;
  },
  created(data) {
    this.status = 201;
    this.body = data;
  },
  deleted(data) {
    if (data === undefined || data === null) this.status = 204;
    else {
      this.status = 200;
      this.body = data;
    }
  },
};

/**
 * v4 gives ctx one method per 4xx/5xx status (`ctx.badRequest(message, details)`, `ctx.notFound()`,
 * `ctx.tooManyRequests()`, ...: koa.js addCustomMethods) that sets the status and the error envelope as the
 * answer without throwing: code that calls one inside its own try/catch, or goes on after it, behaves as in v4
 * (a null message is the status's own, as http-errors makes it; details are kept as given, a text included).
 */
for (const code of Object.keys(http.STATUS_CODES).map(Number).filter((c) => c >= 400 && c < 600)) {
  const method = _.camelCase(http.STATUS_CODES[code]);
  if (method in contextPrototype) continue;
  Object.defineProperty(contextPrototype, method, {
    value(this: RequestContext, message?: string, details: Record<string, unknown> = {}) {
      const { status, body } = httpErrorBody(code, message, details);
      this.status = status;
      this.body = body;
    },
  });
}
const QUERY = Symbol('query');
/** the strapi::query configuration (config/middlewares.js): how an assigned query is parsed back */
const QUERY_CONFIG = Symbol('query config');
/** the status set (explicitly, or by setting a body), and the body */
const STATUS = Symbol('status');
const BODY = Symbol('body');
/** strapi::session's sessions (null: not listed), and this request's, once read */
const SESSIONS = Symbol('sessions');
const SESSION = Symbol('session');
type Internal = RequestContext & {
  [QUERY]: Record<string, unknown>;
  [QUERY_CONFIG]: Record<string, unknown>;
  [STATUS]: number | undefined;
  [BODY]: unknown;
  [SESSIONS]: Sessions | null;
  [SESSION]: SessionState | undefined;
};

/** the status to answer with: the one set, else 200 (a controller that returned its answer set none) */
export function answerStatus(ctx: RequestContext): number {
  return (ctx as Internal)[STATUS] ?? 200;
}

/** whether code used the request's session (its answer may then set a cookie) */
export function usedSession(ctx: RequestContext): boolean {
  return (ctx as Internal)[SESSION] !== undefined;
}

/** the Set-Cookie headers of the request's session, if code used it (server/sessions.ts) */
export function sessionCookies(ctx: RequestContext, request: { readonly protocol: string }): string[] {
  const c = ctx as Internal;
  return c[SESSIONS] && c[SESSION] ? c[SESSIONS].commit(c[SESSION], request.protocol === 'https') : [];
}

Object.defineProperties(contextPrototype, {
  query: {
    get(this: Internal) { return this[QUERY]; },
    // koa: `set query(obj) { this.querystring = qs.stringify(obj) }`
    set(this: Internal, obj: unknown) { this.querystring = qs.stringify(obj); },
  },
  querystring: {
    get(this: RequestContext) {
      const q = this.url.indexOf('?');
      return q < 0 ? '' : this.url.slice(q + 1);
    },
    // koa: the url takes the new query string (an unchanged one changes nothing); its getter then parses it
    // with strapi::query's qs options
    set(this: Internal, str: string) {
      const value = String(str ?? '');
      if (value === this.querystring) return;
      this.url = value ? `${this.path}?${value}` : this.path;
      this[QUERY] = qs.parse(value, qsParseOptions(this[QUERY_CONFIG])) as Record<string, unknown>;
    },
  },
  path: {
    get(this: RequestContext) {
      const q = this.url.indexOf('?');
      return q < 0 ? this.url : this.url.slice(0, q);
    },
  },
  status: {
    get(this: Internal) { return this[STATUS] ?? (this[BODY] === undefined || this[BODY] === null ? 404 : 200); },
    set(this: Internal, code: number) { this[STATUS] = code; },
  },
  body: {
    get(this: Internal) { return this[BODY]; },
    set(this: Internal, value: unknown) {
      this[BODY] = value;
      if (value === null || value === undefined) {
        if (!EMPTY_STATUSES.has(this.status)) this[STATUS] = 204;
      } else if (this[STATUS] === undefined) {
        this[STATUS] = 200;
      }
    },
  },
  res: { get(this: RequestContext) { return this.raw?.reply.raw; } },
  session: {
    get(this: Internal) {
      if (!this[SESSIONS]) return undefined;
      this[SESSION] ??= this[SESSIONS].load(this.get('cookie'));
      return this[SESSION].session;
    },
    set(this: Internal, value: unknown) {
      if (!this[SESSIONS]) {
        // without strapi::session, a plain property (koa)
        Object.defineProperty(this, 'session', { value, writable: true, enumerable: true, configurable: true });
        return;
      }
      if (value !== null && (typeof value !== 'object' || Array.isArray(value))) throw new Error('this.session can only be set as null or an object.');
      this[SESSION] ??= this[SESSIONS].load(this.get('cookie'));
      this[SESSION].session = value === null ? null : { ...(value as SessionData) };
    },
  },
  ip: { get(this: RequestContext) { return this.raw?.req.ip ?? ''; } },
  response: {
    get(this: RequestContext): ContextResponse {
      const ctx = this;
      return {
        get status() { return ctx.status; },
        set status(v: number) { ctx.status = v; },
        get body() { return ctx.body; },
        set body(v: unknown) { ctx.body = v; },
        get headers() { return ctx.responseHeaders; },
        set: (name, value) => ctx.set(name, value),
        get: (name) => ctx.responseHeaders[name.toLowerCase()],
      };
    },
  },
});

/** koa's `ctx.request`: its own fields, and the query and url of its ctx (kept in a private field: copies leave it out) */
class ContextRequest {
  readonly #ctx: RequestContext;
  files?: Record<string, RequestFile | RequestFile[]>;
  header: Headers;
  constructor(ctx: RequestContext, public body: unknown, public headers: Headers, public method: string) {
    this.#ctx = ctx;
    this.header = headers;
  }
  get query() { return this.#ctx.query; }
  set query(v) { this.#ctx.query = v; }
  get querystring() { return this.#ctx.querystring; }
  set querystring(v) { this.#ctx.querystring = v; }
  get url() { return this.#ctx.url; }
  set url(v) { this.#ctx.url = v; }
  /** koa-router sets them on the request too */
  get params() { return this.#ctx.params; }
  get path() { return this.#ctx.path; }
}

/**
 * v4's `ctx.state.auth` members (`strategy`, `credentials`): the authenticator sets them when it makes the Auth;
 * an Auth made elsewhere (no one authenticated) gets them here, once.
 */
export function withV4Auth(auth: Auth): Auth {
  if ('strategy' in auth) return auth;
  const strategy = auth.kind === 'api-token' ? TOKEN_STRATEGY : auth.kind === 'none' ? undefined : UP_STRATEGY;
  const credentials = auth.kind === 'user' ? auth.user : auth.kind === 'api-token' ? auth.token : null;
  return Object.assign(auth, { strategy, credentials }) as Auth;
}

const NO_CONFIG: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

export function createContext(init: {
  query: Record<string, unknown>;
  /** strapi::query's configuration (config/middlewares.js), for a query the project assigns; v4's defaults when absent */
  queryConfig?: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
  headers: Headers;
  method: string;
  url: string;
  auth: Auth;
  route: RequestContext['state']['route'];
  user?: RequestContext['state']['user'];
  raw?: RequestContext['raw'];
  /** strapi::session's sessions, when the project lists that middleware */
  sessions?: Sessions;
}): RequestContext {
  const ctx = Object.create(contextPrototype) as Internal;
  ctx[QUERY] = init.query;
  ctx[QUERY_CONFIG] = init.queryConfig ?? NO_CONFIG;
  ctx.params = init.params;
  ctx.request = new ContextRequest(ctx, init.body ?? {}, init.headers, init.method);
  ctx.state = { auth: withV4Auth(init.auth), route: init.route, user: init.user };
  ctx.raw = init.raw;
  ctx[BODY] = undefined;
  ctx[STATUS] = undefined;
  ctx[SESSIONS] = init.sessions ?? null;
  ctx[SESSION] = undefined;
  ctx.type = '';
  ctx.responseHeaders = {};
  ctx.method = init.method;
  ctx.url = init.url;
  ctx.headers = init.headers;
  ctx.header = init.headers;
  return ctx;
}
