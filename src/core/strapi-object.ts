// The `strapi` object project code receives (register/bootstrap, controllers via global `strapi`):
// the v4 surface that exists so far (docs/configuration.md, "The strapi object"). Plugins register their
// services here; the members about the running server are built in strapi-runtime.ts.
import path from 'node:path';
import type { Logger } from 'pino';
import type { Model } from '../model/types';
import type { Project } from '../project/load-project';
import type { QueryFn } from '../query/query-engine';
import type { Database } from '../storage/dialect';
import { currentHookTransaction, type Lifecycles, type Subscriber } from '../storage/lifecycles';
import { dbTransaction, type TransactionCallback } from '../storage/db-transaction';
import type { Api } from './api';
import type { CoreAccess } from './access';
import type { EntityService } from './entity-service';
import type { PluginFacade, PluginRegistry } from '../plugins/v4/plugin-registry';
import { BUILD_CORE } from '../project/strapi-module';
import type { CustomFields } from '../model/custom-fields';
import type { EventHub } from '../webhooks/event-hub';
import type { KoaMiddleware } from '../rest/route-chain';
import { requestContext } from '../rest/request-scope';
import type { HookRegistry } from '../rest/route-chain';
import type { ProjectHttpServer } from '../server/project-http-server';
import type { Cron } from './cron';
import { adminPermissionService, applyServerUrl, configFacade, createContainer, createPathRegistry, createReload, createServerFacade, createStrapiFetch, createTelemetry, type ServerFacadeDeps } from './strapi-runtime';
import { authorize } from '../auth/permissions';
import { UnauthorizedError } from '../errors';
import type { Auth } from '../auth/authenticate';

export interface StrapiDeps {
  project: Project;
  model: Model;
  db: Database;
  query: QueryFn;
  log: Logger;
  /** the project's APIs, built after this object (their factories receive it): read on use */
  api(): Api;
  access: CoreAccess;
  /** the enabled plugins as v4 modules (`strapi.plugin(name)`, `strapi.plugins`) */
  plugins: PluginRegistry;
  /** `strapi.customFields` (model/custom-fields.ts) */
  customFields: CustomFields;
  entityService: EntityService;
  lifecycles: Lifecycles;
  /** v4's `strapi.eventHub` (webhooks/event-hub.ts) */
  eventHub?: EventHub;
  /** v4's `strapi.cron` (core/cron.ts) */
  cron: Cron;
  /** the http.Server the instance will answer on (`strapi.server.httpServer`) */
  httpServer: ProjectHttpServer;
  /** `strapi.server.use(mw)`: adds a project middleware (an error once the server is built) */
  useMiddleware(mw: KoaMiddleware): void;
  /** the rest of `strapi.server` (routes added by code, the route list, a plugin's own router) */
  server: Omit<ServerFacadeDeps, 'http' | 'use'>;
  /** the project's policies and middlewares by uid (`strapi.policy`, `strapi.middleware`) */
  hooks(): HookRegistry;
  /** true once register and bootstrap ran (`strapi.isLoaded`) */
  isLoaded(): boolean;
  /** under `tessera develop`: asks for a restart (`strapi.reload()`) */
  restart?: () => void;
  /** whether requests run in strapi.requestContext (core/tessera.ts decides) */
  trackRequests: boolean;
}

export function createStrapiObject(d: StrapiDeps) {
  const { project, model } = d;
  const root = project.dir;
  const adminServices: Record<string, unknown> = { 'api-token': d.access.apiTokens, permission: adminPermissionService() };
  const schemaOf = (uid: string) => model.get(uid)?.schema;
  // undefined for a plugin that is not enabled, as v4 (typed as v4 types it)
  const plugin = (name: string) => d.plugins.facade(name) as PluginFacade;
  /** `plugin::<name>.<key>` -> [name, key] */
  const pluginUid = (uid: string): [string, string] => {
    const rest = uid.slice('plugin::'.length);
    const dot = rest.indexOf('.');
    return [rest.slice(0, dot), rest.slice(dot + 1)];
  };
  // v4's winston levels: `http` (v4's default level) shows as info, `verbose` as debug, `silly` as trace
  const log = {
    error: (m: unknown) => d.log.error(m instanceof Error ? { err: m } : {}, m instanceof Error ? m.message : String(m)),
    warn: (m: unknown) => d.log.warn(String(m)),
    info: (m: unknown) => d.log.info(String(m)),
    http: (m: unknown) => d.log.info(String(m)),
    verbose: (m: unknown) => d.log.debug(String(m)),
    debug: (m: unknown) => d.log.debug(String(m)),
    silly: (m: unknown) => d.log.trace(String(m)),
  };
  const appDirs = { root, src: path.join(root, 'src'), api: path.join(root, 'src/api'), components: path.join(root, 'src/components'), extensions: path.join(root, 'src/extensions'), policies: path.join(root, 'src/policies'), middlewares: path.join(root, 'src/middlewares'), config: path.join(root, 'config') };
  const contentTypes: Record<string, unknown> = {};
  const components: Record<string, unknown> = {};
  const refreshSchemas = () => {
    for (const [uid, ct] of model.contentTypes) contentTypes[uid] = ct.schema;
    for (const [uid, ct] of model.components) components[uid] = ct.schema;
  };
  refreshSchemas();
  applyServerUrl(project.config);
  const config = configFacade(project.config);
  const strapi = {
    config,
    log,
    /** `dist` is the app folder: a JavaScript project is not built */
    dirs: { app: appDirs, dist: { ...appDirs }, static: { public: project.publicDir } },
    contentTypes,
    contentType: (uid: string) => contentTypes[uid],
    components,
    /** the model changed in place after register() (custom fields, extended plugin types): the schemas shown follow */
    refreshSchemas,
    customFields: d.customFields,
    getModel: schemaOf,
    query: (uid: string) => d.query(uid),
    entityService: d.entityService,
    eventHub: d.eventHub,
    /** v4 `strapi.store(...)`: the core store (`strapi_core_store_settings`) */
    store: d.access.store,
    /** v4's `strapi.db`: `query(uid)`, `transaction(cb)`, `lifecycles` (subscribe, clear, disable, enable), `metadata.get(uid)` */
    db: {
      query: (uid: string) => d.query(uid),
      connection: d.db,
      /** several writes as one transaction (storage/db-transaction.ts) */
      transaction: <T>(cb: TransactionCallback<T>) => dbTransaction(d.db, cb),
      inTransaction: () => currentHookTransaction() !== undefined,
      lifecycles: {
        subscribe: (subscriber: Subscriber) => d.lifecycles.subscribe(subscriber),
        clear: () => d.lifecycles.clear(),
        disable: () => d.lifecycles.disable(),
        enable: () => d.lifecycles.enable(),
      },
      metadata: {
        get: (uid: string) => d.lifecycles.metadataOf(model.require(uid)),
        has: (uid: string) => model.get(uid) !== undefined,
      },
    },
    service(uid: string) {
      if (uid.startsWith('admin::')) return adminServices[uid.slice('admin::'.length)];
      if (uid.startsWith('plugin::')) return d.plugins.instance('service', ...pluginUid(uid));
      return d.api().service(uid);
    },
    controller: (uid: string) => (uid.startsWith('plugin::') ? d.plugins.instance('controller', ...pluginUid(uid)) : d.api().controller(uid)),
    plugin,
    plugins: d.plugins.byName,
    admin: { services: adminServices },
    policy: (uid: string) => d.hooks().policies.get(uid),
    middleware: (uid: string) => d.hooks().middlewares.get(uid),
    /** the koa ctx of the request the calling code runs for (rest/request-scope.ts) */
    requestContext: d.trackRequests ? requestContext : untrackedRequestContext(d.log),
    cron: d.cron,
    server: createServerFacade({ http: d.httpServer, use: d.useMiddleware, ...d.server }),
    /** v4's `strapi.api`: per API folder its content types and route files (the routers project code may change) */
    get api() {
      return d.api().view();
    },
    /** v4's `strapi.auth.verify(auth, { scope })`: throws v4's 401/403 errors as a route's permission check does */
    auth: {
      verify: async (auth: Auth, config?: { scope?: string | string[] }) => {
        if (!auth) throw new UnauthorizedError('Unauthorized');
        const scopes = config?.scope === undefined ? [''] : Array.isArray(config.scope) ? config.scope : [config.scope];
        for (const scope of scopes) authorize(auth, scope);
      },
    },
    // v4's loaders set these lists before any plugin's register
    sanitizers: createPathRegistry({ 'content-api': { input: [], output: [], query: [] } }),
    validators: createPathRegistry({ 'content-api': { input: [], query: [] } }),
    reload: createReload({ restart: d.restart, warn: (m) => d.log.warn(m) }),
    fetch: createStrapiFetch({ globalProxy: project.config.get('server.globalProxy', undefined), warn: (m) => d.log.warn(m) }),
    telemetry: createTelemetry(),
    container: undefined as unknown as ReturnType<typeof createContainer>,
    get isLoaded() {
      return d.isLoaded();
    },
    /** Enterprise features: none */
    EE: false,
    /** createCoreController/createCoreService called as factories (project/strapi-module.ts) */
    [BUILD_CORE]: (kind: 'controller' | 'service', uid: string, descriptor: unknown) => d.api().coreFactory(kind, uid, descriptor, project.dir),
  };
  strapi.container = createContainer(() => strapi, {
    config,
    'content-types': { get: (uid: string) => contentTypes[uid], getAll: () => contentTypes },
    services: { get: (uid: string) => strapi.service(uid) },
    controllers: { get: (uid: string) => strapi.controller(uid) },
    policies: { get: (uid: string) => strapi.policy(uid) },
    middlewares: { get: (uid: string) => strapi.middleware(uid) },
    sanitizers: strapi.sanitizers,
    validators: strapi.validators,
  });
  return strapi;
}

/** strapi.requestContext while requests are not tracked (no project file mentions it): says how to turn it on */
function untrackedRequestContext(log: Logger) {
  let warned = false;
  return {
    run: requestContext.run,
    get() {
      if (!warned) {
        warned = true;
        log.warn('strapi.requestContext.get() is called, but requests are not tracked (no file of src/ or config/ mentions requestContext, or config/server.js sets `requestContext: false`): set `requestContext: true` in config/server.js');
      }
      return undefined;
    },
  };
}

export type StrapiObject = ReturnType<typeof createStrapiObject>;
