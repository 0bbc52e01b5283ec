// One Tessera instance for one v4 project: load it, open its database, run its lifecycle in v4's order
// (register, schema sync, bootstrap), and assemble the HTTP server. `close()` undoes it all.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildModel, type ModelSource } from '../model/build-model';
import { convertCustomFields, createCustomFields } from '../model/custom-fields';
import { provisionalCustomFields, refreshModel, schemasText, sourcesOf } from '../model/refresh-model';
import { PluginRegistry } from '../plugins/v4/plugin-registry';
import { applyRouterDefaults, pluginRoutes, serverRoutes } from '../plugins/v4/plugin-routes';
import { registerNativeDocumentation } from '../plugins/native-documentation';
import { addPluginHooks } from '../plugins/v4/plugin-hooks';
import { ADMIN_ONLY_INTERNAL, adminOnlyModule, extendPlugins, loadProjectPlugins, pluginActionTree, nativeModule, pluginLifecycles, pluginModelSources, runPluginHook } from '../plugins/v4/project-plugins';
import { internalModelSources } from '../model/internal-models';
import type { Model } from '../model/types';
import { loadProject, type Project } from '../project/load-project';
import { ProjectError } from '../project/errors';
import type { EnvSource } from '../project/env';
import { createQueryEngine, type QueryFn, type WriteListener } from '../query/query-engine';
import { DatabaseConfigError, openDatabase, type DatabaseConfig } from '../storage/open-database';
import type { Database } from '../storage/dialect';
import { syncSchema } from '../storage/schema/sync-schema';
import { substringIndexConfig } from '../storage/schema/tessera-search';
import { Lifecycles } from '../storage/lifecycles';
import { onJsonFallback } from '../storage/read-json';
import { createDocumentService } from '../documents/document-service';
import { createLogger, infoLine } from './logger';
import { createI18nPlugin } from '../plugins/i18n';
import { createUploadPlugin } from '../plugins/upload';
import { createUsersPermissionsPlugin } from '../plugins/users-permissions';
import { createEmailPlugin } from '../plugins/email';
import { createGraphqlPlugin, graphqlEnabled } from '../plugins/graphql';
import { createEntityService } from './entity-service';
import type { PluginContext, TesseraPlugin } from './plugin';
import { createAccess } from './access';
import { createApi } from './api';
import { createStrapiObject, type StrapiObject } from './strapi-object';
import { buildServer, DEFAULT_REQUEST_TIMEOUT } from '../server/http-server';
import { createKeptAnswers, type KeptAnswers } from '../cache/kept-answers';
import { responseCacheConfig } from '../cache/cache-config';
import type { ResponseCache } from '../cache/response-cache';
import { middlewareSettings } from '../server/middlewares-config';
import { maxJsonDepth } from '../json-nesting';
import { attachRouteHooks, hookRegistry, projectMiddlewares } from '../rest/route-chain';
import { createWebhooks } from '../webhooks/index';
import { createCron, type Cron } from './cron';
import { createCronLock } from './cron-lock';
import { createProjectHttpServer } from '../server/project-http-server';
import type { KoaMiddleware } from '../rest/route-chain';
import { projectSourceUses } from '../project/source-uses';
import { attachWebhooks } from '../webhooks/registry';

export interface TesseraOptions {
  dir: string;
  env?: EnvSource;
  /** no log output (tests) */
  silent?: boolean;
  logger?: Logger;
  /** false: open the project's storage only (CLI maintenance), without register/bootstrap */
  lifecycle?: boolean;
  /** what `strapi.reload()` does: under `tessera develop`, ask the parent process for a restart */
  restart?: () => void;
}

export interface Tessera {
  project: Project;
  model: Model;
  db: Database;
  query: QueryFn;
  strapi: StrapiObject;
  server: FastifyInstance;
  log: Logger;
  /** the response cache, when on (its counters: hits, misses, early hits) */
  responseCache?: ResponseCache;
  listen(opts?: { host?: string; port?: number }): Promise<string>;
  close(): Promise<void>;
  summary(): string;
}

function internalSources(project: Project): ModelSource[] {
  return internalModelSources().map((src) => {
    const ext = project.extensions[src.uid];
    // src/extensions/<plugin>/content-types/<name>/schema.json replaces the plugin's schema (v4)
    return ext ? { ...src, schema: { ...src.schema, ...ext, attributes: ext.attributes ?? src.schema.attributes } } : src;
  });
}

/** The model's sources as the plugins' modules have them after their extensions (which may change content types). */
function extendedSources(project: Project, registry: PluginRegistry, internal: ModelSource[]): ModelSource[] {
  const fromModules = new Map<string, ModelSource>();
  for (const p of registry.all()) for (const src of pluginModelSources(p.name, p.module, p.file)) fromModules.set(src.uid, src);
  const internalNow = internal.map((src) => {
    const now = fromModules.get(src.uid);
    return now ? { ...src, schema: now.schema } : src;
  });
  const thirdParty = [...fromModules.values()].filter((src) => !internal.some((i) => i.uid === src.uid));
  return [...internalNow, ...thirdParty, ...project.sources];
}

/** config/database.js: client sqlite or postgres (storage/open-database.ts) */
function openProjectDatabase(project: Project): Database {
  try {
    return openDatabase(project.dir, project.config.get<DatabaseConfig>('database.connection', {}));
  } catch (err) {
    if (err instanceof DatabaseConfigError) throw new ProjectError(err.message, path.join(project.dir, 'config/database.js'));
    throw err;
  }
}

/**
 * A stand-in for an object made later: property reads and writes go to it once it exists; before, the members of
 * `early` answer (v4's strapi already has its config and log while plugins load: their config validators use them).
 */
function lateStrapi(target: () => object | undefined, early: Record<string, unknown>): object {
  const get = (key?: PropertyKey) => {
    const t = target();
    if (t) return t;
    if (key !== undefined && Object.hasOwn(early, key)) return early;
    throw new Error(`strapi${typeof key === 'string' ? `.${key}` : ''} is not ready yet: the strapi object exists from the plugins' register() on`);
  };
  return new Proxy({}, {
    get: (_o, key) => Reflect.get(get(key), key),
    set: (_o, key, value) => Reflect.set(get(), key, value),
    has: (_o, key) => Reflect.has(get(key), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_o, key) => {
      const d = Reflect.getOwnPropertyDescriptor(get(key), key);
      return d ? { ...d, configurable: true } : undefined;
    },
  });
}

export async function createTessera(opts: TesseraOptions): Promise<Tessera> {
  const log = opts.logger ?? createLogger({ silent: opts.silent });
  const project = await loadProject(path.resolve(opts.dir), { env: opts.env });
  // plugin code may capture the global `strapi` when it is required (before the object exists): it gets a
  // stand-in that forwards to the instance's strapi object once made
  let strapiRef: object | undefined;
  const earlyLog = { error: (m: unknown) => log.error(String(m)), warn: (m: unknown) => log.warn(String(m)), info: (m: unknown) => log.info(String(m)), debug: (m: unknown) => log.debug(String(m)) };
  (globalThis as { strapi?: unknown }).strapi = lateStrapi(() => strapiRef, { config: project.config, log: earlyLog });
  // the project's v4 plugins: loaded before the model, which holds their content types
  const projectPlugins = await loadProjectPlugins(project);
  const notRun = [...projectPlugins.notRun];
  const internal = internalSources(project);
  const initialSources = [...internal, ...projectPlugins.plugins.flatMap((p) => pluginModelSources(p.name, p.module, p.file)), ...project.sources];
  // custom fields are known after the register() calls: until then their attributes stand as JSON (nothing reads
  // them before), and the model is completed in place once they are registered
  const model = buildModel(provisionalCustomFields(initialSources), { warn: (m) => log.warn(m) });
  Object.assign(project.lifecycles, pluginLifecycles(projectPlugins.plugins));
  const settings = middlewareSettings(project.config.get('middlewares'), path.join(project.dir, 'config/middlewares.js'));
  // config/api.js `rest.maxJsonDepth`: JSON bodies (server) and json/blocks values (document service)
  const jsonDepth = maxJsonDepth((key) => project.config.get(key, undefined));
  const db = openProjectDatabase(project);
  let cron: Cron | undefined;
  try {
    const listeners: WriteListener[] = [];
    // v4's write events: strapi.eventHub and the webhooks of strapi_webhooks (docs/configuration.md, "Webhooks")
    const webhooks = createWebhooks({
      db, model,
      defaultHeaders: project.config.get<Record<string, unknown>>('server.webhooks.defaultHeaders', {}),
      reloadMs: project.config.get<number | undefined>('server.webhooks.reloadInterval', undefined),
      globalPrivate: new Set(project.config.get<string[]>('api.responses.privateAttributes', [])),
      warn: (m) => log.warn(m),
      error: (err, m) => log.error({ err }, m),
    });
    attachWebhooks(db, webhooks);
    // a read the JSON path hands to the JavaScript path: one warning per query shape, with the error
    onJsonFallback(db, (err, m) => log.warn({ err }, m));
    // the models' lifecycles.js and strapi.db.lifecycles subscribers, run by the query engine and document service
    const lifecycles = new Lifecycles(project.lifecycles, db);
    // the i18n plugin (below) knows the default locale; the query engine asks it only once serving
    const query = createQueryEngine(db, model, listeners, { defaultLocale: () => i18n.locales.defaultLocaleSync(), lifecycles });
    const documents = createDocumentService(db, model, { warn: (m) => log.warn(m), lifecycles, maxJsonDepth: jsonDepth });
    const access = createAccess({ project, model, db, query, log, listeners });
    let strapi: StrapiObject | undefined;
    const pluginContext = (name: string): PluginContext => ({
      project, model, db, query, documents, access, log, lifecycles,
      config: <T>(key: string, fallback?: T) => project.config.get<T>(`plugin.${name}.${key}`, fallback as T),
      strapi: () => strapi,
    });
    const i18n = createI18nPlugin(pluginContext('i18n'), { uploads: () => upload.entryUploads });
    const upload = createUploadPlugin(pluginContext('upload'));
    const email = createEmailPlugin(pluginContext('email'));
    // localized types go through i18n (locale check, sibling sync), as v4's i18n decorates the entity service
    const entityService = createEntityService({ model, query, documents, localized: i18n.content, notifyWrite: access.notifyWrite, onPasswordSet: access.onPasswordSet, events: webhooks, media: upload.media });
    let api: ReturnType<typeof createApi> | undefined;
    let keptAnswers: KeptAnswers | undefined;
    const usersPermissions = createUsersPermissionsPlugin(pluginContext('users-permissions'), {
      entityService: () => entityService,
      email: () => email.email,
      queryContext: (ctx) => api!.queryContext(ctx),
      globalPrivate: new Set(project.config.get<string[]>('api.responses.privateAttributes', [])),
      pluginActions: () => pluginActions,
    });
    const plugins: TesseraPlugin[] = [email, usersPermissions, upload, i18n];
    if (graphqlEnabled({ project })) {
      plugins.push(createGraphqlPlugin(pluginContext('graphql'), () => ({
        queryContextFor: api!.queryContextFor, coreService: api!.coreService, jsonReads: api!.jsonReads,
        // v4's plugin mutations call the REST controllers: the routes served below (built before the plugins' server hooks)
        route: (method, path) => routes.find((r) => r.method === method && r.path === path)?.handler,
        upload, usersPermissions, keptAnswers,
      })));
    }
    // strapi.cron (config/server.js `cron`), strapi.server (the http.Server exists from now on, as in v4; a
    // middleware given to strapi.server.use() joins the project middlewares: in register before them, later after)
    const jobs = createCron({ strapi: () => strapi, lock: createCronLock(db), error: (err, m) => log.error({ err }, m), warn: (m) => log.warn(m) });
    cron = jobs;
    // config/server.js `http.serverOptions.requestTimeout` (v5's key; v4 runs on Node's default, 300 s): a request
    // that has not arrived whole by then is a 408, so a client trickling a body cannot hold a connection for ever
    const requestTimeout = requestTimeoutOf(project.config.get('server.http.serverOptions.requestTimeout', undefined));
    const httpServer = createProjectHttpServer(requestTimeout);
    const usedMiddlewares: { before: KoaMiddleware[]; after: KoaMiddleware[] } = { before: [], after: [] };
    const addedRoutes: unknown[] = [];
    /** the project's plugins' content-API actions, for users-permissions' action tree (set once routes are built) */
    let pluginActions: Array<[string, string, string[]]> = [];
    let phase: 'register' | 'bootstrap' | 'built' = 'register';
    let loaded = false;
    const hooks = hookRegistry(project, () => strapi);
    // strapi.plugin(name) / strapi.plugins: Tessera's plugins as v4 modules, then the project's, in v4's order
    const registry = new PluginRegistry({ project, model: () => model, strapi: () => strapi, core: () => api!.coreFactory });
    const natives = new Map(plugins.map((p) => [p.name, p]));
    const addNative = (p: TesseraPlugin) => registry.add({ name: p.name, module: nativeModule(p, project, internal), native: true, file: `the ${p.name} plugin`, provider: p.providerInstance });
    // v4's order (register and bootstrap run in it); Tessera's own plugins the project does not list come last
    for (const name of projectPlugins.order) {
      const native = natives.get(name);
      const loadedPlugin = projectPlugins.plugins.find((p) => p.name === name);
      if (native) addNative(native);
      else if (loadedPlugin) registry.add({ name, module: loadedPlugin.module, native: false, file: loadedPlugin.file });
      else if (ADMIN_ONLY_INTERNAL.has(name)) registry.add({ name, module: adminOnlyModule(), native: true, file: `the ${name} plugin (admin panel only)` });
    }
    for (const p of plugins) if (!registry.get(p.name)) addNative(p);
    // v4: a custom field names a plugin only when that plugin is loaded, else it is global::
    const customFields = createCustomFields({ isPlugin: (name) => registry.get(name) !== undefined });
    // strapi.requestContext: requests are tracked when project code mentions it, or config/server.js says so
    const trackRequests = project.config.get<boolean | undefined>('server.requestContext', undefined) ?? projectSourceUses(project.dir, 'requestContext');
    // the strapi object first: v4 factories (`createCoreController(uid, ({ strapi }) => ...)`) receive it
    strapi = createStrapiObject({
      project, model, db, query, log, api: () => api!, access, plugins: registry, customFields, entityService, lifecycles, eventHub: webhooks.eventHub,
      cron: jobs, httpServer, hooks: () => hooks, isLoaded: () => loaded, restart: opts.restart, trackRequests,
      server: {
        addRoutes: (r) => {
          if (phase === 'built') throw new Error('strapi.server.routes() is only possible in register or bootstrap (the server is built once, at start)');
          addedRoutes.push(r);
        },
        listRoutes: () => api!.routes().map((r) => ({ methods: [r.method], path: `${project.config.get<string>('api.rest.prefix', '/api')}${r.path}`, stack: [] })),
        routerUse: () => {
          notRun.push('a koa router added with strapi.server.router.use() (a plugin answering requests before the Content API, e.g. a response cache): not run, every request is answered by the API itself');
        },
      },
      useMiddleware: (mw) => {
        if (phase === 'built') throw new Error('strapi.server.use() is only possible in register or bootstrap (the server is built once, at start)');
        usedMiddlewares[phase === 'register' ? 'before' : 'after'].push(mw);
      },
    });
    (globalThis as { strapi?: unknown }).strapi = strapiRef = strapi;
    api = createApi({ project, model, db, documents, access, strapi, defaultLocale: i18n.locales.defaultLocaleSync, i18n: i18n.content, uploads: upload.entryUploads, lifecycles, media: upload.media });

    const lifecycle = opts.lifecycle !== false;
    await extendPlugins(registry, project, natives, notRun);
    // the plugins' content-type lifecycles as their extensions left them
    for (const [uid, hooks] of Object.entries(pluginLifecycles(registry.all().filter((p) => !p.native)))) lifecycles.setFile(uid, hooks);
    const extended = extendedSources(project, registry, internal);
    if (JSON.stringify(extended.map((s) => s.schema)) !== JSON.stringify(initialSources.map((s) => s.schema))) {
      refreshModel(model, buildModel(provisionalCustomFields(extended), { warn: (m) => log.warn(m) }));
      strapi.refreshSchemas();
    }
    // register() may change strapi.contentTypes[uid].attributes (v4 builds its database model after it)
    const beforeRegister = schemasText(model);
    // v4: upload's and users-permissions' register give the documentation plugin their specifications
    registerNativeDocumentation(strapi, project.dir);
    // the plugins' register() also when the project is only opened (CLI): it registers their custom fields
    for (const p of registry.all()) if (!p.native) await runPluginHook(p, 'register', strapi);
    if (lifecycle) await project.app.register?.({ strapi });
    // what register() changed of the schemas, and the custom fields it registered (v4 converts them after it)
    // opened without the project's register(): a custom field only it would register stays JSON
    const registered = sourcesOf(model, (uid) => lifecycle || customFields.has(uid));
    const converted = convertCustomFields(registered, customFields);
    if (converted.some((src, i) => src !== registered[i]) || schemasText(model) !== beforeRegister) {
      refreshModel(model, buildModel(converted, { warn: () => undefined }));
      strapi.refreshSchemas();
    }
    api.instantiateAll();
    addPluginHooks(hooks, registry);
    phase = 'bootstrap';
    // nodes starting together on one database take turns from the schema sync to the end of the bootstraps: each
    // bootstrap's read-then-write of first-start rows (roles, settings, the project's own) sees the others' rows
    const startTurn = db.exclusive ? <T>(fn: () => Promise<T>) => db.exclusive!('tessera:start', fn) : <T>(fn: () => Promise<T>) => fn();
    const sync = await startTurn(async () => {
      const result = await syncSchema(db, model, { info: (m) => log.info(m), warn: (m) => log.warn(m) }, { substringIndex: substringIndexConfig(project.config.get('database.settings', {})) });
      await bootstrapAll();
      return result;
    });
    async function bootstrapAll(): Promise<void> {
      await access.bootstrap();
      // v4's initRouting, before the bootstraps: plugin routers get their type and prefix in place
      for (const p of registry.all()) if (!p.native) applyRouterDefaults(p);
      // v4's order: each plugin's bootstrap in the registry's (a plugin declared before graphql extends its schema
      // in its own bootstrap, which graphql's reads); Tessera's own run also when the project is only opened
      for (const p of registry.all()) {
        const native = p.native ? natives.get(p.name) : undefined;
        if (native) await native.bootstrap?.();
        else if (!p.native && lifecycle) await runPluginHook(p, 'bootstrap', strapi);
      }
      // as v4: the tasks of config/server.js are added before the project's bootstrap, started after it
      if (lifecycle && project.config.get<boolean>('server.cron.enabled', false) === true) jobs.add(project.config.get('server.cron.tasks', {}));
      if (lifecycle) await project.app.bootstrap?.({ strapi });
    }
    await webhooks.load(); // as v4: after the bootstrap
    if (lifecycle) jobs.start();
    loaded = true;

    // Tessera's plugins' own routes (those of their v4 modules come below, with the project's plugins')
    const routes = [...api.routes(), ...plugins.flatMap((p) => p.routes?.() ?? [])];
    for (const p of registry.all()) {
      if (p.native && !natives.get(p.name)?.v4) continue;
      routes.push(...pluginRoutes(p, registry, model, (uid) => api!.controller(uid)).routes);
    }
    routes.push(...serverRoutes(addedRoutes, (uid) => api!.controller(uid), 'strapi.server.routes()'));
    pluginActions = pluginActionTree(registry, routes);
    // sanitizers and validators project code added (v4's core controllers run them; Tessera's run their own)
    const added = (['sanitizers', 'validators'] as const).flatMap((kind) =>
      ['content-api.input', 'content-api.output', 'content-api.query'].filter((p) => strapi[kind].get(p).length > 0).map((p) => `${kind} ${p}`));
    if (added.length) notRun.push(`${added.join(', ')} added by project or plugin code: kept, not run by the core controllers (Tessera applies v4's own sanitizing to every answer)`);
    if (projectPlugins.adminParts.length) log.info(`plugins' admin panel parts not served (Tessera serves the Content API): ${projectPlugins.adminParts.join(', ')}`);
    if (notRun.length) log.warn(`not run by Tessera:\n  - ${notRun.join('\n  - ')}`);
    access.setKnownActions(routes.map((r) => r.action));
    // route policies and middlewares, and the project's own middlewares: resolved now, unknown names stop start-up
    attachRouteHooks(routes, hooks);
    phase = 'built';
    // config/api.js `responseCache`: answers of the core read routes and GraphQL queries kept while they hold
    keptAnswers = createKeptAnswers(db, model, responseCacheConfig(project.config.get('api.responseCache', undefined), project.env<string>('TESSERA_RESPONSE_CACHE'), path.join(project.dir, 'config/api.js')), {
      allowed: () => !lifecycles.hasAnyReads() && !upload.media?.active,
      stamp: () => i18n.locales.defaultLocaleSync(),
    });
    const appMiddlewares = [...usedMiddlewares.before, ...projectMiddlewares(settings.project, path.join(project.dir, 'config/middlewares.js'), hooks), ...usedMiddlewares.after];
    const server = buildServer({
      routes,
      prefix: project.config.get<string>('api.rest.prefix', '/api'),
      settings,
      appMiddlewares,
      access: access.rest,
      trustProxy: project.config.get<boolean>('server.proxy', false) === true,
      maxJsonDepth: jsonDepth,
      requestTimeout,
      publicDir: project.publicDir,
      faviconFile: path.join(project.dir, 'favicon.png'),
      log,
      httpServer,
      trackRequests,
      appKeys: project.config.get('server.app.keys', undefined),
      keptAnswers,
      requestLine: infoLine(log),
    });
    for (const plugin of plugins) await plugin.server?.(server);
    await server.ready();
    let closed = false;
    return {
      project, model, db, query, strapi, server, log, responseCache: keptAnswers?.cache,
      async listen(o = {}) {
        const host = o.host ?? project.config.get<string>('server.host', '0.0.0.0');
        const port = o.port ?? Number(project.config.get('server.port', 1337));
        await server.listen({ host, port });
        const addr = server.server.address();
        const actual = typeof addr === 'object' && addr ? addr.port : port;
        return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actual}`;
      },
      async close() {
        if (closed) return;
        closed = true;
        await jobs.destroy(); // no new runs; the runs in flight finish (bounded) before the database closes
        await server.close(); // stops accepting, lets requests in flight finish
        // v4's order: the plugins' destroy (their register ran, also for a project only opened), then the project's
        for (const p of registry.all()) if (!p.native) await runPluginHook(p, 'destroy', strapi).catch((err) => log.error({ err }, (err as Error).message));
        if (lifecycle) await project.app.destroy?.({ strapi });
        for (const plugin of plugins) await plugin.destroy?.();
        await webhooks.close(); // calls in flight end (each within its timeout); waiting ones are dropped
        await access.close();
        await db.close();
      },
      summary() {
        const types = model.apiTypes();
        return `${types.length} content types (${types.map((t) => t.singularName).join(', ')}), ${[...model.components.keys()].filter((c) => !c.includes('::')).length} components, ${routes.length} routes; schema: ${sync.created.length} tables created, ${sync.addedColumns.length} columns added`;
      },
    };
  } catch (err) {
    await cron?.destroy().catch(() => undefined); // a start-up that fails after bootstrap leaves no job running
    await db.close().catch(() => undefined);
    throw err;
  }
}

/** a non-negative number of ms (0: none), else v4's default */
function requestTimeoutOf(value: unknown): number {
  const n = Number(value);
  return value !== undefined && value !== null && Number.isFinite(n) && n >= 0 ? n : DEFAULT_REQUEST_TIMEOUT;
}
