// The `strapi` object project code receives (register/bootstrap, controllers via global `strapi`):
// the v4 surface that exists so far. Plugins register their services here.
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
import type { TesseraPlugin } from './plugin';
import type { EventHub } from '../webhooks/event-hub';

export interface StrapiDeps {
  project: Project;
  model: Model;
  db: Database;
  query: QueryFn;
  log: Logger;
  /** the project's APIs, built after this object (their factories receive it): read on use */
  api(): Api;
  access: CoreAccess;
  plugins: TesseraPlugin[];
  entityService: EntityService;
  lifecycles: Lifecycles;
  /** v4's `strapi.eventHub` (webhooks/event-hub.ts) */
  eventHub?: EventHub;
}

export function createStrapiObject(d: StrapiDeps) {
  const { project, model } = d;
  const root = project.dir;
  const pluginServices: Record<string, Record<string, unknown>> = Object.fromEntries(d.plugins.map((p) => [p.name, p.services ?? {}]));
  const adminServices: Record<string, unknown> = { 'api-token': d.access.apiTokens };
  const schemaOf = (uid: string) => model.get(uid)?.schema;
  const pluginsByName = new Map(d.plugins.map((p) => [p.name, p]));
  const plugin = (name: string) => ({
    service: (s: string) => pluginServices[name]?.[s],
    services: pluginServices[name] ?? {},
    get provider() {
      return pluginsByName.get(name)?.providerInstance?.();
    },
    contentType: (n: string) => schemaOf(`plugin::${name}.${n}`),
    config: (key: string, def?: unknown) => project.config.get(`plugin.${name}.${key}`, def),
  });
  const log = {
    info: (m: unknown) => d.log.info(String(m)),
    warn: (m: unknown) => d.log.warn(String(m)),
    error: (m: unknown) => d.log.error(m instanceof Error ? { err: m } : {}, m instanceof Error ? m.message : String(m)),
    debug: (m: unknown) => d.log.debug(String(m)),
  };
  return {
    config: project.config,
    log,
    dirs: {
      app: { root, src: path.join(root, 'src'), api: path.join(root, 'src/api'), components: path.join(root, 'src/components'), extensions: path.join(root, 'src/extensions'), policies: path.join(root, 'src/policies'), middlewares: path.join(root, 'src/middlewares'), config: path.join(root, 'config') },
      static: { public: project.publicDir },
    },
    contentTypes: Object.fromEntries([...model.contentTypes].map(([uid, ct]) => [uid, ct.schema])),
    components: Object.fromEntries([...model.components].map(([uid, ct]) => [uid, ct.schema])),
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
      if (uid.startsWith('plugin::')) {
        const [name, s] = uid.slice('plugin::'.length).split('.');
        return pluginServices[name]?.[s];
      }
      return d.api().service(uid);
    },
    controller: (uid: string) => d.api().controller(uid),
    plugin,
    plugins: new Proxy({}, { get: (_t, name: string) => plugin(name) }),
    admin: { services: adminServices },
  };
}

export type StrapiObject = ReturnType<typeof createStrapiObject>;
