// The mark a core read action (core controller find/findOne, with the core service and helpers in place) puts
// on the request for the body it returns, naming itself (`api::article.article.find`). The server keeps that
// body only when it is what it sends AND the route's own action made it: a project override that wraps the core
// action and returns another object, or sets its own body, is not kept, and neither is a custom controller that
// changes `ctx.query` (from the user, a header) and then calls some type's core `find` (its answer depends on
// what that code read, which no key holds).
import type { RequestContext } from '../rest/context';

const CORE_ANSWER = Symbol('tessera.coreAnswer');
type Marked = RequestContext & { [CORE_ANSWER]?: { body: unknown; action: string } };

/** `body`: what the action returns (null: nothing found, a 404); `action`: `<uid>.find` or `<uid>.findOne` */
export function markCoreAnswer<T>(ctx: RequestContext, action: string, body: T): T {
  (ctx as Marked)[CORE_ANSWER] = { body, action };
  return body;
}

/** whether `body` is the one the core read action `action` (the route's) answered with (null included) */
export function isCoreAnswer(ctx: RequestContext, action: string, body: unknown): boolean {
  const mark = (ctx as Marked)[CORE_ANSWER];
  return mark !== undefined && mark.body === body && mark.action === action;
}
