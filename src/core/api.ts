// The project's APIs: core controllers and services per content type, the project's own overrides on
// top (v4: the override object gets the core one as prototype, so `super.find(ctx)` works), and routes.
import type { ContentType, Model } from '../model/types';
import type { Project } from '../project/load-project';
import { isCoreController, isCoreService } from '../project/strapi-module';
import { ProjectError } from '../project/errors';
import type { Database } from '../storage/dialect';
import type { DocumentService } from '../documents/document-service';
import { createCoreController } from '../rest/core-controller';
import { createCoreService, type CoreService, type LocalizedContent, type MediaSigning } from '../content/core-service';
import type { PaginationConfig } from '../query/pagination';
import type { Auth } from '../auth/authenticate';
import type { Lifecycles } from '../storage/lifecycles';
import type { EntryUploads } from '../rest/entry-uploads';
import { createPublicService } from '../content/public-service';
import { createContentReads } from '../content/content-reads';
import type { QueryContext } from '../query/parse-query';
import { MAX_POPULATE_DEPTH } from '../query/query-context';
import { queryLimits } from '../query/query-context';
import { coreRouterObjects, localizationRouteObject, projectRoutes, type RouteDef } from '../rest/routes';
import { isCoreRouter, type CoreRouterDescriptor } from '../project/strapi-module';
import type { RequestContext } from '../rest/context';
import type { CoreAccess } from './access';

type Methods = Record<string, unknown>;

export interface ApiDeps {
  project: Project;
  model: Model;
  db: Database;
  documents: DocumentService;
  access: CoreAccess;
  /** what the project's factories receive as `{ strapi }` */
  strapi: unknown;
  defaultLocale(): string;
  /** the i18n plugin's part in writes and reads of localized types */
  i18n?: LocalizedContent;
  /** the upload plugin's part in multipart entry writes */
  uploads?: EntryUploads;
  /** the models' lifecycle hooks */
  lifecycles?: Lifecycles;
  /** the upload plugin's signed media urls (private providers) */
  media?: MediaSigning;
}

/**
 * `createCoreX(uid, ({ strapi }) => ({...}))` or `(uid, {...})`, or a plain v4 module. Over a core controller or
 * service (`core`), v4's factories also copy the core methods the project did not write onto the object, so they
 * are its own (`Object.keys` lists them); the core object stays its prototype (`super.find(ctx)`).
 */
function extend(base: Methods, ext: unknown, strapi: unknown, file: string, core = false): Methods {
  if (ext === undefined || ext === null) return base;
  const own = typeof ext === 'function' ? (ext as (a: { strapi: unknown }) => unknown)({ strapi }) : ext;
  if (typeof own !== 'object' || own === null) throw new ProjectError('must export an object of methods (or a function returning one)', file);
  if (core) for (const key of Object.keys(base)) if ((own as Methods)[key] === undefined) (own as Methods)[key] = base[key];
  Object.setPrototypeOf(own, base);
  return own as Methods;
}

/** Factories by uid, each run once on first use; a factory that asks for itself (a cycle) is a clear error. */
class LazyRegistry {
  private readonly factories = new Map<string, () => Methods>();
  private readonly instances = new Map<string, Methods>();
  private readonly building = new Set<string>();
  constructor(private readonly kind: string) {}
  define(uid: string, factory: () => Methods): void {
    this.factories.set(uid, factory);
  }
  has(uid: string): boolean {
    return this.factories.has(uid);
  }
  get(uid: string): Methods | undefined {
    const hit = this.instances.get(uid);
    if (hit) return hit;
    const factory = this.factories.get(uid);
    if (!factory) return undefined;
    if (this.building.has(uid)) throw new ProjectError(`the ${this.kind} "${uid}" asks for itself while it is being created`, uid);
    this.building.add(uid);
    try {
      const made = factory();
      this.instances.set(uid, made);
      return made;
    } finally {
      this.building.delete(uid);
    }
  }
  all(): void {
    for (const uid of this.factories.keys()) this.get(uid);
  }
}

export function createApi(deps: ApiDeps) {
  const { project, model } = deps;
  // v4 instantiates controllers and services on first use, so a factory may look up another one
  const controllers = new LazyRegistry('controller');
  const services = new LazyRegistry('service');
  const { strapi } = deps;
  const visibility = { globalPrivate: new Set(project.config.get<string[]>('api.responses.privateAttributes', [])) };
  const pagination = {
    defaultLimit: Number(project.config.get('api.rest.defaultLimit', 25)),
    maxLimit: project.config.get<number | undefined>('api.rest.maxLimit', undefined),
    withCount: project.config.get<boolean>('api.rest.withCount', true) !== false,
  };
  // config/api.js `rest.maxPopulateDepth` (docs/configuration.md)
  const maxPopulateDepth = Number(project.config.get('api.rest.maxPopulateDepth', MAX_POPULATE_DEPTH)) || MAX_POPULATE_DEPTH;
  // project code (strapi.service(uid)): every attribute, as v4's core service; the core controller sanitizes
  const trusted: QueryContext = { model, visibility: { ...visibility, trusted: true }, pagination, maxPopulateDepth, canRead: () => true };
  const limits = queryLimits((key) => project.config.get(key, undefined));
  const findOnePublicationState = project.config.get<boolean>('api.rest.findOnePublicationState', false) === true;
  // config/api.js `rest.jsonReads` (docs/configuration.md): false answers every read through the JavaScript path
  const jsonReads = project.config.get<boolean>('api.rest.jsonReads', true) !== false;
  /** what a caller may read and name in its query; `paging` replaces REST's pagination settings (GraphQL's own) */
  const queryContextFor = (auth: Auth, paging: PaginationConfig = pagination): QueryContext =>
    ({ model, visibility, pagination: paging, maxPopulateDepth, limits, canRead: (uid) => deps.access.rest.canRead(auth, uid) });
  const queryContext = (ctx: RequestContext): QueryContext => queryContextFor(ctx.state.auth);
  const serviceContext = { db: deps.db, model, documents: deps.documents, defaultLocale: deps.defaultLocale, i18n: deps.i18n, findOnePublicationState, lifecycles: deps.lifecycles, media: deps.media };
  /** the core service of every model, the plugins' included (what GraphQL's shadow CRUD reads and writes through) */
  const coreServices = new Map<string, CoreService>();
  const coreService = (uid: string): CoreService => {
    let core = coreServices.get(uid);
    if (!core) coreServices.set(uid, (core = createCoreService(serviceContext, model.require(uid))));
    return core;
  };

  /** v4's core service and core controller of a content type; `service()` is the one its controller calls */
  const coreParts = (ct: ContentType, service: () => unknown) => {
    const core = coreService(ct.uid);
    const publicService = createPublicService(core, ct, trusted);
    const ctrl = createCoreController({
      model,
      service: service as never,
      // while the project has not replaced the service's find/findOne: queries kept per shape, and the JSON reads
      core: publicService as never,
      reads: createContentReads(core, ct, jsonReads && ct.kind === 'collectionType'),
      queryContext: (ctx) => queryContext(ctx),
      uploads: deps.uploads,
      privateAttributes: visibility.globalPrivate,
    }, ct);
    return { publicService: publicService as Methods, ctrl: ctrl as unknown as Methods };
  };

  for (const ct of model.apiTypes()) {
    const [apiName, name] = ct.uid.slice('api::'.length).split('.');
    const api = project.apis[apiName];
    const file = (kind: string) => `${project.dir}/src/api/${apiName}/${kind}/${name}.js`;
    const svcModule = api?.services[ct.uid];
    const { publicService, ctrl } = coreParts(ct, () => services.get(ct.uid));
    services.define(ct.uid, () => extend(publicService, isCoreService(svcModule) ? svcModule.extend : svcModule, strapi, file('services'), isCoreService(svcModule)));
    const ctrlModule = api?.controllers[ct.uid];
    controllers.define(ct.uid, () => extend(ctrl, isCoreController(ctrlModule) ? ctrlModule.extend : ctrlModule, strapi, file('controllers'), isCoreController(ctrlModule)));
  }
  // controllers and services of an api that are not a content type's (custom routes)
  for (const [apiName, api] of Object.entries(project.apis)) {
    for (const [uid, mod] of Object.entries(api.controllers)) {
      if (!controllers.has(uid) && !isCoreController(mod)) controllers.define(uid, () => extend({}, mod, strapi, `${project.dir}/src/api/${apiName}/controllers`));
    }
    for (const [uid, mod] of Object.entries(api.services)) {
      if (!services.has(uid) && !isCoreService(mod)) services.define(uid, () => extend({}, mod, strapi, `${project.dir}/src/api/${apiName}/services`));
    }
  }
  let routes: RouteDef[] | undefined;
  let view: Record<string, unknown> | undefined;
  return {
    /**
     * v4's `strapi.api`: per API folder `contentTypes` (by name), `routes` (by route file: core routers with their
     * `routes` list, custom route files as written; the objects served later) and its controllers and services
     */
    view(): Record<string, unknown> {
      if (view) return view;
      view = {};
      for (const [apiName, mods] of Object.entries(project.apis)) {
        const prefix = `api::${apiName}.`;
        const routers: Record<string, unknown> = {};
        for (const [key, mod] of Object.entries(mods.routes)) {
          const ct = isCoreRouter(mod) ? model.get(mod.uid) : undefined;
          if (ct) coreRouterObjects(ct, mod as CoreRouterDescriptor);
          routers[key.slice(prefix.length)] = mod;
        }
        // v4's i18n register: the create-localization route in each localized type's own router
        for (const ct of model.apiTypes()) {
          const router = routers[ct.modelName] as { routes?: unknown } | undefined;
          if (ct.localized && ct.uid.startsWith(prefix) && Array.isArray(router?.routes)) router.routes.push(localizationRouteObject(ct));
        }
        const types = Object.fromEntries([...model.contentTypes.values()].filter((ct) => ct.uid.startsWith(prefix)).map((ct) => [ct.uid.slice(prefix.length), ct.schema]));
        const own = (uids: string[], get: (uid: string) => unknown) => Object.fromEntries(uids.map((uid) => [uid.slice(prefix.length), get(uid)]));
        view[apiName] = {
          contentTypes: types,
          routes: routers,
          get controllers() { return own(Object.keys(mods.controllers).concat(Object.keys(types).map((n) => prefix + n)), (uid) => controllers.get(uid)); },
          get services() { return own(Object.keys(mods.services).concat(Object.keys(types).map((n) => prefix + n)), (uid) => services.get(uid)); },
        };
      }
      return view;
    },
    /** what a request may read and name in its query (plugins' controllers validate queries with it) */
    queryContext,
    queryContextFor,
    coreService,
    /** config/api.js `rest.jsonReads` */
    jsonReads,
    controller: (uid: string) => controllers.get(uid),
    /** a plugin's createCoreController/createCoreService(uid, extend) for its own content type */
    coreFactory(kind: 'controller' | 'service', uid: string, descriptor: unknown, file: string): unknown {
      const ct = model.get(uid);
      if (!ct || ct.kind === 'component') throw new ProjectError(`createCore${kind === 'controller' ? 'Controller' : 'Service'}: content type "${uid}" does not exist`, file);
      const ext = (descriptor as { extend?: unknown }).extend;
      const service = () => (strapi as { service(uid: string): unknown }).service(uid);
      const { publicService, ctrl } = coreParts(ct, service);
      // v4's factories return the extension object even without one: `{}` over the core
      return extend(kind === 'controller' ? ctrl : publicService, ext ?? {}, strapi, file, true);
    },
    service: (uid: string) => services.get(uid),
    /** builds every controller and service now (start-up), so a broken factory stops start-up, not a request */
    instantiateAll(): void {
      services.all();
      controllers.all();
    },
    routes(): RouteDef[] {
      routes ??= projectRoutes(project, model, (uid) => controllers.get(uid), () => deps.uploads);
      return routes;
    },
  };
}

export type Api = ReturnType<typeof createApi>;
