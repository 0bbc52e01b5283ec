// v4's GraphQL mutations of users-permissions and i18n call the plugins' REST controllers with the request's
// koa context, their arguments as its body, params or query. Here they call the REST routes' handlers (so the
// auth routes' rate limits, validation and messages are the REST ones) with a context made for the call: the
// caller's auth, the client address and the reply (rate-limit headers) of the GraphQL request.
import type { FastifyReply } from 'fastify';
import { createContext, type RequestContext } from '../../rest/context';
import type { GraphqlContext } from '../context';

/** mercurius adds the request's reply to every context it builds */
type MercuriusContext = GraphqlContext & { reply?: FastifyReply };

export interface RestCall {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** v4's `ctx.state.route` during a GraphQL request */
const GRAPHQL_ROUTE: RequestContext['state']['route'] = { handler: '', info: { type: 'content-api' } };

/** a koa-like context for one controller call made by a resolver */
export function restContext(gctx: GraphqlContext, call: RestCall): RequestContext {
  const reply = (gctx as MercuriusContext).reply;
  const req = reply?.request;
  const { auth } = gctx;
  return createContext({
    query: call.query ?? {},
    params: call.params ?? {},
    body: call.body ?? {},
    headers: req?.headers ?? {},
    method: req?.method ?? 'POST',
    url: req?.url ?? '',
    auth,
    route: GRAPHQL_ROUTE,
    user: auth.kind === 'user' ? (auth.user as RequestContext['state']['user']) : undefined,
    raw: reply ? { req: reply.request, reply } : undefined,
  });
}

/** runs a REST handler; the body it set wins over the value it returned (v4's returnBodyMiddleware) */
export async function callRest(handler: (ctx: RequestContext) => Promise<unknown>, gctx: GraphqlContext, call: RestCall): Promise<unknown> {
  const ctx = restContext(gctx, call);
  const result = await handler(ctx);
  return ctx.body ?? result ?? null;
}
