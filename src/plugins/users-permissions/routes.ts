// The plugin's content-API routes as v4 declares them (UP:routes/content-api/*.js): v4 route objects with
// handler strings, served from the plugin's v4 module (so an extension or a register() that changes them is
// served as changed), and its `rateLimit` route middleware on the auth routes v4 limits.
import type { RequestContext } from '../../rest/context';
import type { KoaMiddleware } from '../../rest/route-chain';
import { identifierOf, type RateLimiter } from '../../auth/rate-limit';

type Handler = (ctx: RequestContext) => Promise<unknown>;

export interface UpControllers {
  auth: Record<'callback' | 'connect' | 'register' | 'forgotPassword' | 'resetPassword' | 'changePassword' | 'emailConfirmation' | 'sendEmailConfirmation', Handler>;
  user: Record<'find' | 'findOne' | 'count' | 'me' | 'create' | 'update' | 'destroy', Handler>;
  role: Record<'find' | 'findOne' | 'createRole' | 'updateRole' | 'deleteRole' | 'getPermissions', Handler>;
}

/**
 * What a rate-limited route is limited by besides the route and the client: the body field its handler looks
 * the user up by, or `true` for nothing more (reset-password: the code is what would be guessed, so all codes
 * share the window; connect: no body; change-password: the signed-in user is added). Routes of the project that
 * name the middleware are limited by route and client.
 */
type Limit = true | 'identifier' | 'email';

const RATE_LIMIT = 'plugin::users-permissions.rateLimit';

/** [method, v4 path, handler, limited by] */
const TABLE: Array<[string, string, string, Limit | false]> = [
  ['GET', '/connect/(.*)', 'auth.connect', true],
  ['POST', '/auth/local', 'auth.callback', 'identifier'],
  ['POST', '/auth/local/register', 'auth.register', 'email'],
  ['GET', '/auth/:provider/callback', 'auth.callback', false],
  ['POST', '/auth/forgot-password', 'auth.forgotPassword', 'email'],
  ['POST', '/auth/reset-password', 'auth.resetPassword', true],
  ['GET', '/auth/email-confirmation', 'auth.emailConfirmation', false],
  ['POST', '/auth/send-email-confirmation', 'auth.sendEmailConfirmation', false],
  ['POST', '/auth/change-password', 'auth.changePassword', true],
  ['GET', '/users/count', 'user.count', false],
  ['GET', '/users', 'user.find', false],
  ['GET', '/users/me', 'user.me', false],
  ['GET', '/users/:id', 'user.findOne', false],
  ['POST', '/users', 'user.create', false],
  ['PUT', '/users/:id', 'user.update', false],
  ['DELETE', '/users/:id', 'user.destroy', false],
  ['GET', '/users-permissions/roles/:id', 'role.findOne', false],
  ['GET', '/users-permissions/roles', 'role.find', false],
  ['POST', '/users-permissions/roles', 'role.createRole', false],
  ['PUT', '/users-permissions/roles/:id', 'role.updateRole', false],
  ['DELETE', '/users-permissions/roles/:id', 'role.deleteRole', false],
  ['GET', '/users-permissions/permissions', 'permissions.getPermissions', false],
];

/** v4's `routes` of the plugin: a fresh object per instance (project code changes it in place) */
export function upRouters(): Record<string, { type: string; routes: Array<Record<string, unknown>> }> {
  return {
    admin: { type: 'admin', routes: [] },
    'content-api': {
      type: 'content-api',
      routes: TABLE.map(([method, path, handler, limit]) => ({
        method, path, handler,
        config: limit === false ? { prefix: '' } : { middlewares: [RATE_LIMIT], prefix: '' },
      })),
    },
  };
}

/** the handler's body field to limit by, for the plugin's own routes (by handler, as v4's route table names them) */
const LIMITS = new Map(TABLE.filter(([, , , l]) => l !== false).map(([method, , handler, limit]) => [`${method} ${handler}`, limit as Limit]));
/** the REST route whose window an action shares (GraphQL's login counts in REST's) */
const LIMITED_PATHS = new Map(TABLE.filter(([, , , l]) => l !== false).map(([method, path, handler]) => [`${method} ${handler}`, `${method} ${path}`]));

/** one hit of the limiter for a request; the headers go on the reply itself, so error answers carry them too */
function hit(limiter: RateLimiter, ctx: RequestContext, route: string, by: Limit): void {
  try {
    const verdict = limiter.hit({
      route,
      identifier: by === true ? '' : identifierOf(ctx.request.body, by),
      ip: ctx.ip,
      userId: ctx.state.user?.id,
    });
    if (verdict) {
      if (ctx.raw) ctx.raw.reply.headers(verdict.headers);
      else for (const [k, v] of Object.entries(verdict.headers)) ctx.set(k, v);
    }
  } catch (err) {
    const headers = (err as { headers?: Record<string, string> }).headers;
    if (headers) ctx.raw?.reply.headers(headers);
    throw err;
  }
}

/**
 * The same limit for a controller action called from elsewhere (GraphQL's login, register...): v4 has none there,
 * Tessera counts them in the REST route's window (docs/compatibility.md). `action` as routes name it: `auth.callback`.
 */
export function limitAction(limiter: RateLimiter, action: string, ctx: RequestContext): void {
  const key = `POST ${action}`;
  const by = LIMITS.get(key);
  if (by !== undefined) hit(limiter, ctx, LIMITED_PATHS.get(key)!, by);
}

/**
 * v4's `rateLimit` route middleware (koa2-ratelimit): runs after authentication and the permission check; the
 * headers go on the reply itself, so error answers (a failed login) carry them too.
 */
export function rateLimitMiddleware(limiter: RateLimiter): (config: unknown) => KoaMiddleware {
  return () => async (ctx, next) => {
    const route = ctx.state.route;
    hit(limiter, ctx, `${route.method} ${route.path}`, LIMITS.get(`${route.method} ${route.handler}`) ?? true);
    return next();
  };
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
