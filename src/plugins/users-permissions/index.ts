// The users-permissions plugin: users, roles, JWT and the /api/auth, /api/users and
// /api/users-permissions routes, its services under `strapi.plugin('users-permissions')`, and its start-up
// (JWT secret, settings; roles and default permissions are created by core/access.ts's bootstrap).
import type { PluginContext, TesseraPlugin } from '../../core/plugin';
import type { EntityService } from '../../core/entity-service';
import type { RequestContext } from '../../rest/context';
import { assertJwtOptions, createJwtService, signJwt, type JwtOptions } from '../../auth/jwt';
import { resolveJwtSecret } from '../../auth/jwt-secret';
import { UP_USER_UID } from '../../auth/jwt-strategy';
import { passwordStamp } from '../../auth/passwords';
import { createRateLimiter, type RateLimitConfig } from '../../auth/rate-limit';
import { projectRoutes } from '../../rest/routes';
import type { Entity } from '../../query/types';
import type { EmailService } from '../email';
import { createAuthController } from './controllers/auth';
import type { ControllerDeps } from './controllers/context';
import { createRoleController } from './controllers/roles';
import { createUserController } from './controllers/users';
import { v4Controllers } from '../v4/v4-controllers';
import { PLUGIN_ACTIONS, limitAction, rateLimitMiddleware, upRouters } from './routes';
import { sanitizeOutput } from './sanitize';
import { createServices } from './services';
import { createSettings } from './settings';
import { validateCallback } from './providers/callback-url';
import { createProvidersService } from './providers/connect-user';
import { createGrantFlow } from './providers/grant-flow';
import { createProvidersRegistry } from './providers/registry';
import { createStateCookie } from './providers/state-cookie';

/** v4's plugin config defaults (UP:config.js), under config/plugins.js `users-permissions.config` */
const DEFAULT_JWT: JwtOptions = { expiresIn: '30d' };
const DEFAULT_RATELIMIT: RateLimitConfig = { interval: 60_000, max: 10 };

export interface UsersPermissionsPluginOptions {
  entityService: () => EntityService;
  email: () => EmailService | undefined;
  /** the request's query context, as the core controllers build it */
  queryContext: ControllerDeps['queryContext'];
  globalPrivate: ReadonlySet<string>;
  /** the project's plugins' content-API actions (known once the server's routes are built) */
  pluginActions?: () => Array<[string, string, string[]]>;
}

export interface UsersPermissionsPlugin extends TesseraPlugin {
  /** counts a call of a rate-limited action made outside its route (GraphQL) in that route's window; throws when over */
  limitAction(action: string, ctx: RequestContext): void;
  /** v4's `strapi.plugin('users-permissions').controller(name)`, which its GraphQL mutations call */
  controllers: {
    auth: ReturnType<typeof createAuthController>;
    user: ReturnType<typeof createUserController>;
    role: ReturnType<typeof createRoleController>;
  };
}

export function createUsersPermissionsPlugin(ctx: PluginContext, opts: UsersPermissionsPluginOptions): UsersPermissionsPlugin {
  const { model, query, project, log, access } = ctx;
  const userType = model.require(UP_USER_UID);
  const settings = createSettings(access.store);
  const jwtOptions = (): JwtOptions => ({ ...DEFAULT_JWT, ...(ctx.config<JwtOptions | undefined>('jwt', undefined) ?? {}) });
  let secret: string | undefined;
  const getSecret = () => {
    if (secret === undefined) throw new Error('the users-permissions JWT secret is not resolved yet (plugin bootstrap)');
    return secret;
  };
  access.useJwt({
    secret: getSecret,
    options: jwtOptions,
    emailConfirmation: async () => !!(await settings.advanced()).email_confirmation,
  });
  const jwt = createJwtService({ secret: getSecret, options: jwtOptions });
  const serverUrl = () => {
    const url = project.config.get<string>('server.url', '');
    if (/^https?:\/\//.test(url)) return url;
    return `http://${project.config.get<string>('server.host', 'localhost')}:${project.config.get('server.port', 1337)}${url}`;
  };
  const adminUrl = () => `${serverUrl()}${project.config.get<string>('admin.url', '/admin')}`;
  const apiActions = (): Array<[string, string, string[]]> => {
    const byController = new Map<string, string[]>();
    for (const r of projectRoutes(project, model, () => undefined)) {
      if (!r.action.startsWith('api::')) continue;
      const [type, controller, action] = r.action.split('.');
      const key = `${type}.${controller}`;
      const list = byController.get(key) ?? [];
      if (!list.includes(action)) list.push(action);
      byController.set(key, list);
    }
    for (const ct of model.apiTypes()) {
      const key = ct.uid;
      if (ct.localized && byController.has(key)) byController.get(key)!.push('createLocalization');
    }
    return [...byController].sort(([a], [b]) => a.localeCompare(b)).map(([key, actions]) => {
      const dot = key.indexOf('.');
      return [key.slice(0, dot), key.slice(dot + 1), actions];
    });
  };
  const apiPrefix = project.config.get<string>('api.rest.prefix', '/api');
  const services = createServices({
    query, settings, jwt,
    entityService: () => opts.entityService(),
    email: opts.email,
    actions: () => [...apiActions(), ...PLUGIN_ACTIONS, ...(opts.pluginActions?.() ?? [])],
    serverUrl, adminUrl,
    apiPrefix,
    log: { error: (m) => log.error(m) },
    publicUser: (u: Entity) => sanitizeOutput(model, userType, u, undefined, opts.globalPrivate) as Entity,
  });
  const registry = createProvidersRegistry(project.dir);
  const providers = createProvidersService({ query, settings, registry, serverUrl, apiPrefix });
  const grantFlow = createGrantFlow({
    settings, apiPrefix,
    cookie: createStateCookie(() => project.config.get('server.app.keys', undefined)),
    redirectUri: providers.buildRedirectUri,
    configuredServerUrl: () => String(project.config.get('server.url', '') ?? ''),
    validateCallback: (callback, provider) => {
      const configured = ctx.config<unknown>('callback.validate', undefined);
      return (typeof configured === 'function' ? configured : validateCallback)(callback, provider);
    },
    log,
  });
  const deps: ControllerDeps = {
    model, userType, query, services, settings,
    issueFor: (user) => signJwt({ id: user.id, pwv: passwordStamp(user.password, getSecret()) }, getSecret(), jwtOptions()),
    registerAllowedFields: () => ctx.config('register.allowedFields', undefined),
    globalPrivate: opts.globalPrivate,
    log,
    email: opts.email,
    queryContext: opts.queryContext,
  };
  const limiter = createRateLimiter(() => {
    const configured = ctx.config<RateLimitConfig | undefined>('ratelimit', undefined);
    return configured === undefined ? DEFAULT_RATELIMIT : { ...DEFAULT_RATELIMIT, ...configured };
  });
  const controllers = {
    auth: createAuthController(deps, { serverUrl, adminUrl, providers, grantFlow }),
    user: createUserController(deps),
    role: createRoleController(deps),
  };
  return {
    name: 'users-permissions',
    controllers,
    services: { ...services, providers, 'providers-registry': registry },
    limitAction: (action, rctx) => limitAction(limiter, action, rctx),
    v4: {
      routes: upRouters(),
      // v4's route table names the permissions tree's controller `permissions`
      controllers: v4Controllers({ ...controllers, permissions: { getPermissions: controllers.role.getPermissions } }),
      middlewares: { rateLimit: rateLimitMiddleware(limiter) },
    },
    async bootstrap() {
      assertJwtOptions(jwtOptions());
      secret = resolveJwtSecret({ configured: ctx.config('jwtSecret', undefined), projectDir: project.dir, env: process.env, log }).secret;
      // as v4 merges its plugin defaults: project code reading strapi.config sees what is in force
      project.config.set('plugin.users-permissions.jwtSecret', secret);
      project.config.set('plugin.users-permissions.jwt', jwtOptions());
      if (!project.config.has('plugin.users-permissions.ratelimit')) project.config.set('plugin.users-permissions.ratelimit', { ...DEFAULT_RATELIMIT });
      // as v4's initGrant: providers a project added to the registry get their grant settings
      const grant = await settings.grant();
      const added = Object.entries(registry.getAll()).filter(([name]) => !Object.hasOwn(grant, name));
      if (added.length) await settings.set('grant', { ...grant, ...Object.fromEntries(added.map(([name, p]) => [name, { icon: p.icon, enabled: p.enabled, ...p.grantConfig }])) });
      const allowed = ctx.config('register.allowedFields', undefined);
      if (!Array.isArray(allowed)) {
        const builtIn = new Set(['username', 'email', 'provider', 'password', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked', 'role', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);
        const extra = Object.keys(userType.attributes).filter((k) => !builtIn.has(k));
        if (extra.length) log.warn(`Users-permissions registration has defaulted to accepting the following additional user fields during registration: ${extra.join(',')}`);
      }
    },
  };
}
