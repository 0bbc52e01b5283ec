// Tessera's own plugins' controllers as v4's are seen from project code: an action sets `ctx.body` (an
// extension that wraps one reads it there after awaiting the original), and keeps returning it for Tessera's
// own callers (GraphQL mutations over the REST controllers).
import type { RequestContext } from '../../rest/context';

type Action = (ctx: RequestContext) => Promise<unknown>;

export function v4Controllers(controllers: Record<string, Record<string, Action>>): Record<string, Record<string, Action>> {
  return Object.fromEntries(Object.entries(controllers).map(([name, actions]) => [name, Object.fromEntries(Object.entries(actions).map(([key, fn]) => [key, async (ctx: RequestContext) => {
    const value = await fn(ctx);
    if (value !== undefined && value !== null && (ctx.body === undefined || ctx.body === null)) ctx.body = value;
    return value;
  }]))]));
}
