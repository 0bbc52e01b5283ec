// The one small interface through which the v4 plugins (users-permissions, upload, i18n, graphql) plug
// into the core, as they do in Strapi: services under `strapi.plugin(name)`, content-API routes, a step at
// start-up, and (for front doors of their own, such as GraphQL) a hook on the HTTP server.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { DocumentService } from '../documents/document-service';
import type { Model } from '../model/types';
import type { Project } from '../project/load-project';
import type { QueryFn } from '../query/query-engine';
import type { RouteDef } from '../rest/routes';
import type { Database } from '../storage/dialect';
import type { Lifecycles } from '../storage/lifecycles';
import type { CoreAccess } from './access';

/** What a plugin may use of the instance it is plugged into. */
export interface PluginContext {
  project: Project;
  model: Model;
  db: Database;
  query: QueryFn;
  documents: DocumentService;
  access: CoreAccess;
  log: Logger;
  /** `config/plugins.js` -> `<name>.config.<key>` of this plugin */
  config<T>(key: string, fallback?: T): T;
  /** the `strapi` object project code sees (built after the plugins: call it lazily) */
  strapi(): unknown;
  /** the models' lifecycle hooks (writes a plugin makes through its own document service run them too) */
  lifecycles?: Lifecycles;
}

export interface TesseraPlugin {
  /** the v4 plugin name: `users-permissions`, `upload`, `i18n`, `graphql` */
  name: string;
  /** `strapi.plugin(name).service(key)` */
  services?: Record<string, unknown>;
  /** `strapi.plugin(name).provider`: the provider instance (v4: the upload and email plugins'), read when asked */
  providerInstance?(): unknown;
  /** content-API routes (paths below the REST prefix), checked by the common access check */
  routes?(): RouteDef[];
  /**
   * the plugin as v4 declares its routes (`{ 'content-api': { type, routes: [{ method, path, handler: 'ctrl.action',
   * config }] } }`), controllers and route middlewares: when present, its routes are served from its v4 module
   * (so an extension or a register() that changes them is served as changed), besides any of `routes()`
   */
  v4?: { routes: unknown; controllers: Record<string, unknown>; middlewares?: Record<string, unknown> };
  /** after schema sync, before the project's own bootstrap (v4 order: plugins first) */
  bootstrap?(): Promise<void>;
  /** extra server parts that are not content-API routes (e.g. the GraphQL endpoint) */
  server?(app: FastifyInstance): void | Promise<void>;
  /** on close, before the database closes */
  destroy?(): Promise<void>;
}

export type PluginFactory = (ctx: PluginContext) => TesseraPlugin;
