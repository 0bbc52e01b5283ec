// The plugin's content-API routes as v4 declares them (UP:routes/content-api/*.js): paths below the REST
// prefix, the permission action each needs, and the auth routes that are rate limited (the same routes as v4).
import type { RequestContext } from '../../rest/context';
import type { HttpMethod, RouteDef } from '../../rest/routes';
import { identifierOf, type RateLimiter } from '../../auth/rate-limit';

type Handler = (ctx: RequestContext) => Promise<unknown>;

export interface UpControllers {
  auth: Record<'callback' | 'connect' | 'register' | 'forgotPassword' | 'resetPassword' | 'changePassword' | 'emailConfirmation' | 'sendEmailConfirmation', Handler>;
  user: Record<'find' | 'findOne' | 'count' | 'me' | 'create' | 'update' | 'destroy', Handler>;
  role: Record<'find' | 'findOne' | 'createRole' | 'updateRole' | 'deleteRole' | 'getPermissions', Handler>;
}

/**
 * Whether a route is rate limited, and by what besides the route and the client: the body field its handler
 * looks the user up by, or `true` for nothing more (reset-password: the code is what would be guessed, so all
 * codes share the window; connect: no body; change-password: the signed-in user is added).
 */
type Limit = boolean | 'identifier' | 'email';

const TABLE: Array<[HttpMethod, string, keyof UpControllers, string, Limit, string?]> = [
  ['GET', '/connect/*', 'auth', 'connect', true],
  ['POST', '/auth/local', 'auth', 'callback', 'identifier'],
  ['POST', '/auth/local/register', 'auth', 'register', 'email'],
  ['GET', '/auth/:provider/callback', 'auth', 'callback', false],
  ['POST', '/auth/forgot-password', 'auth', 'forgotPassword', 'email'],
  ['POST', '/auth/reset-password', 'auth', 'resetPassword', true],
  ['GET', '/auth/email-confirmation', 'auth', 'emailConfirmation', false],
  ['POST', '/auth/send-email-confirmation', 'auth', 'sendEmailConfirmation', false],
  ['POST', '/auth/change-password', 'auth', 'changePassword', true],
  ['GET', '/users/count', 'user', 'count', false],
  ['GET', '/users', 'user', 'find', false],
  ['GET', '/users/me', 'user', 'me', false],
  ['GET', '/users/:id', 'user', 'findOne', false],
  ['POST', '/users', 'user', 'create', false],
  ['PUT', '/users/:id', 'user', 'update', false],
  ['DELETE', '/users/:id', 'user', 'destroy', false],
  ['GET', '/users-permissions/roles/:id', 'role', 'findOne', false],
  ['GET', '/users-permissions/roles', 'role', 'find', false],
  ['POST', '/users-permissions/roles', 'role', 'createRole', false],
  ['PUT', '/users-permissions/roles/:id', 'role', 'updateRole', false],
  ['DELETE', '/users-permissions/roles/:id', 'role', 'deleteRole', false],
  ['GET', '/users-permissions/permissions', 'role', 'getPermissions', false, 'permissions'],
];

/** v4 runs the rate limit as a route middleware: after authentication and the permission check. */
function rateLimited(limiter: RateLimiter, route: string, by: Exclude<Limit, false>, handler: Handler): Handler {
  return async (ctx) => {
    try {
      const verdict = limiter.hit({
        route,
        identifier: by === true ? '' : identifierOf(ctx.request.body, by),
        ip: ctx.ip,
        userId: ctx.state.user?.id,
      });
      // on the reply itself, so error answers (a failed login) carry them too, as koa2-ratelimit's do
      if (verdict) {
        if (ctx.raw) ctx.raw.reply.headers(verdict.headers);
        else for (const [k, v] of Object.entries(verdict.headers)) ctx.set(k, v);
      }
    } catch (err) {
      const headers = (err as { headers?: Record<string, string> }).headers;
      if (headers) ctx.raw?.reply.headers(headers);
      throw err;
    }
    return handler(ctx);
  };
}

export function upRoutes(controllers: UpControllers, limiter: RateLimiter): RouteDef[] {
  return TABLE.map(([method, path, controller, action, limit, controllerName]) => {
    const fn = (controllers[controller] as Record<string, Handler>)[action];
    const handler: Handler = (ctx) => fn(ctx);
    return {
      method, path,
      action: `plugin::users-permissions.${controllerName ?? controller}.${action}`,
      uid: 'plugin::users-permissions',
      config: {},
      handler: limit === false ? handler : rateLimited(limiter, `${method} ${path}`, limit, handler),
    };
  });
}

/** The content-API actions of the tree (`/permissions`, role findOne) in v4's order for the plugins v4 ships. */
export const PLUGIN_ACTIONS: Array<[string, string, string[]]> = [
  ['plugin::content-type-builder', 'components', ['getComponents', 'getComponent']],
  ['plugin::content-type-builder', 'content-types', ['getContentTypes', 'getContentType']],
  ['plugin::email', 'email', ['send']],
  ['plugin::upload', 'content-api', ['find', 'findOne', 'destroy', 'upload']],
  ['plugin::users-permissions', 'auth', ['callback', 'changePassword', 'resetPassword', 'connect', 'forgotPassword', 'register', 'emailConfirmation', 'sendEmailConfirmation']],
  ['plugin::users-permissions', 'user', ['create', 'update', 'find', 'findOne', 'count', 'destroy', 'me']],
  ['plugin::users-permissions', 'role', ['createRole', 'findOne', 'find', 'updateRole', 'deleteRole']],
  ['plugin::users-permissions', 'permissions', ['getPermissions']],
  ['plugin::i18n', 'locales', ['listLocales']],
];
