// The mark a core read action (core controller find/findOne, with the core service and helpers in place) puts
// on the request for the body it returns: the server keeps that body only when it is what it sends (a project
// override that wraps the core action and returns another object, or sets its own body, is not kept).
import type { RequestContext } from '../rest/context';

const CORE_ANSWER = Symbol('tessera.coreAnswer');
type Marked = RequestContext & { [CORE_ANSWER]?: unknown };

/** `body`: what the action returns (null: nothing found, a 404) */
export function markCoreAnswer<T>(ctx: RequestContext, body: T): T {
  (ctx as Marked)[CORE_ANSWER] = body;
  return body;
}

/** whether `body` is the one a core read action answered with (null included) */
export function isCoreAnswer(ctx: RequestContext, body: unknown): boolean {
  return CORE_ANSWER in ctx && (ctx as Marked)[CORE_ANSWER] === body;
}
