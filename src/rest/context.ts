// The koa-like `ctx` v4 controllers receive, so project code written for v4 (`ctx.query`,
// `ctx.params`, `ctx.request.body`, `ctx.state.auth`, `ctx.badRequest(...)`) runs unchanged.
import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError } from '../errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Auth } from '../auth/authenticate';

export interface RequestContext {
  query: Record<string, unknown>;
  params: Record<string, string>;
  request: { body: unknown; query: Record<string, unknown>; headers: Record<string, string | string[] | undefined>; method: string; url: string };
  /** `user`: the signed-in users-permissions user (JWT), without private attributes (v4 `ctx.state.user`) */
  state: { auth: Auth; route: { uid?: string; action?: string; handler: string }; user?: Record<string, unknown> & { id: number } };
  /** the underlying request and reply (multipart streams, redirects); absent when called from code */
  raw?: { req: FastifyRequest; reply: FastifyReply };
  body: unknown;
  status: number;
  /** response headers set by the controller */
  responseHeaders: Record<string, string>;
  set(name: string, value: string): void;
  get(name: string): string | undefined;
  badRequest(message?: string, details?: Record<string, unknown>): never;
  notFound(message?: string): never;
  forbidden(message?: string): never;
  unauthorized(message?: string): never;
}

export function createContext(init: {
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  method: string;
  url: string;
  auth: Auth;
  route: RequestContext['state']['route'];
  user?: RequestContext['state']['user'];
  raw?: RequestContext['raw'];
}): RequestContext {
  const ctx: RequestContext = {
    query: init.query,
    params: init.params,
    request: { body: init.body, query: init.query, headers: init.headers, method: init.method, url: init.url },
    state: { auth: init.auth, route: init.route, user: init.user },
    raw: init.raw,
    body: undefined,
    status: 200,
    responseHeaders: {},
    set(name, value) { ctx.responseHeaders[name.toLowerCase()] = value; },
    get(name) {
      const v = init.headers[name.toLowerCase()];
      return Array.isArray(v) ? v.join(', ') : v;
    },
    badRequest(message = 'Bad Request', details = {}) { throw new BadRequestError(message, details); },
    notFound(message = 'Not Found') { throw new NotFoundError(message); },
    forbidden(message = 'Forbidden') { throw new ForbiddenError(message); },
    unauthorized(message = 'Unauthorized') { throw new UnauthorizedError(message); },
  };
  return ctx;
}
