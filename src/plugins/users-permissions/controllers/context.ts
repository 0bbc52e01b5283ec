// What the users-permissions controllers share: the plugin's services and settings, the user model, and
// the helpers every answer goes through (sanitize, a JWT bound to the user's password).
import type { RequestContext } from '../../../rest/context';
import type { ContentType, Model } from '../../../model/types';
import type { QueryFn } from '../../../query/query-engine';
import type { QueryContext } from '../../../query/query-context';
import type { Entity } from '../../../query/types';
import type { UpServices } from '../services';
import type { Settings } from '../settings';
import { sanitizeOutput } from '../sanitize';
import type { EmailService } from '../../email';

export interface ControllerDeps {
  model: Model;
  userType: ContentType;
  query: QueryFn;
  services: UpServices;
  settings: Settings;
  /** a JWT for this user, stamped with its current password hash (see auth/passwords.ts) */
  issueFor(user: Entity): string;
  /** config/plugins.js `users-permissions.config.register.allowedFields` */
  registerAllowedFields(): unknown;
  globalPrivate: ReadonlySet<string>;
  email(): EmailService | undefined;
  /** the request's query context (what the caller may read), for query validation */
  queryContext(ctx: RequestContext): QueryContext;
  log: { error(obj: unknown, msg?: string): void };
}

export function sanitizeUser(d: ControllerDeps, user: unknown, ctx: RequestContext): unknown {
  return sanitizeOutput(d.model, d.userType, user, ctx.state.auth, d.globalPrivate);
}

export function body(ctx: RequestContext): Record<string, unknown> {
  const b = ctx.request.body;
  return typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

/** the signed-in user of a JWT request (v4 `ctx.state.user`) */
export function stateUser(ctx: RequestContext): Entity | undefined {
  return ctx.state.auth.kind === 'user' ? ctx.state.auth.user : undefined;
}
