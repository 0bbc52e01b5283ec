// `strapi.query(uid)`: v4's storage API, used by project bootstraps and by the REST pipeline.
import type { ContentType, Model } from '../model/types';
import type { Database, Executor } from '../storage/dialect';
import { countEntities, findEntities, populate as populateEntities } from '../storage/read-entities';
import { deleteEntities, deleteEntity, insertEntities, insertEntity, updateEntities, updateEntity } from '../storage/write-entities';
import { countHooked, findManyHooked, findOneHooked, hookParams, type ReadShape } from '../storage/hooked-entities';
import { Lifecycles, currentHookTransaction, currentTransactionRoot, stampCreate, stampUpdate, transactionOrHook } from '../storage/lifecycles';
import type { Entity, FindParams, Populate, Where, WriteParams } from './types';

/**
 * v4's database layer also takes `filters`: a where (or a function of `{ meta }` returning one) joined to
 * `where` with AND (project and plugin code passes it, e.g. slugify's `findMany({ filters })`).
 */
type WithFilters<P> = P & { filters?: Where | ((ctx: { meta: { uid: string; attributes: ContentType['attributes'] } }) => Where | undefined) };

export interface QueryApi {
  /** `read`: Tessera's own callers only, a validated Content API read (storage/hooked-entities.ts ReadShape) */
  findOne(params?: WithFilters<FindParams>, read?: ReadShape): Promise<Entity | null>;
  findMany(params?: WithFilters<FindParams>, read?: ReadShape): Promise<Entity[]>;
  count(params?: WithFilters<{ where?: Where }>): Promise<number>;
  create(params: WriteParams): Promise<Entity>;
  createMany(params: { data: Record<string, unknown>[] }): Promise<{ count: number; ids: number[] }>;
  update(params: WriteParams): Promise<Entity | null>;
  updateMany(params: { where?: Where; data: Record<string, unknown> }): Promise<{ count: number }>;
  delete(params: { where?: Where; select?: string[]; populate?: Populate }): Promise<Entity | null>;
  deleteMany(params?: { where?: Where }): Promise<{ count: number }>;
  populate(entity: Entity, populate: Populate): Promise<Entity>;
}

/** Called after a write to `uid` commits (caches such as permissions listen here). */
export type WriteListener = (uid: string) => void;

export interface QueryEngineOptions {
  /** i18n: the default locale code, given to entries of localized types created without one (v4's i18n lifecycle) */
  defaultLocale?(): string;
  /** the models' lifecycle hooks, run around every operation as v4's entity manager runs them */
  lifecycles?: Lifecycles;
}

export function createQueryEngine(db: Database, model: Model, listeners: WriteListener[] = [], options: QueryEngineOptions = {}) {
  const lc = options.lifecycles ?? new Lifecycles({});
  // schema defaults: the storage layer's, as in v4 (write-entities.ts)
  const prepare = (ct: ContentType, data: Record<string, unknown>) =>
    ct.localized && data.locale === undefined && options.defaultLocale ? { ...data, locale: options.defaultLocale() } : data;
  const cache = new Map<string, QueryApi>();
  const rawCache = new Map<string, QueryApi>();
  const notify = (uid: string) => { for (const l of listeners) l(uid); };
  /**
   * `query(uid)`: v4's `strapi.query(uid)` / `strapi.db.query(uid)`, with the model's lifecycle hooks.
   * `tx`: run inside that transaction. `raw`: without hooks (Tessera's own look-ups that v4 does not make).
   */
  return function query(uid: string, tx?: Executor, raw = false): QueryApi {
    // code run by a hook inside a write, or inside `strapi.db.transaction(cb)`, joins that transaction
    if (!tx) tx = currentHookTransaction();
    const hooked = !raw;
    const byUid = hooked ? cache : rawCache;
    const hit = !tx && byUid.get(uid);
    if (hit) return hit;
    const ct = model.require(uid);
    const ex: Executor = tx ?? db;
    const has = (op: Parameters<Lifecycles['has']>[1]) => hooked && lc.has(uid, op);
    const inTx = async <T>(fn: (t: Executor) => Promise<T>): Promise<T> => {
      const result = await (tx ? fn(tx) : transactionOrHook(db, fn));
      notify(uid); // inside an outer transaction this fires early; listeners only drop caches, so that is safe
      currentTransactionRoot()?.commitCallbacks.push(() => notify(uid)); // and again once strapi.db.transaction committed (a read meanwhile cached the old state)
      return result;
    };
    const findOne = (t: Executor, params: FindParams, inWrite?: Executor, read?: ReadShape) =>
      hooked ? findOneHooked(t, model, lc, ct, params, inWrite, read) : findEntities(t, model, ct, { ...params, limit: 1 }).then((r) => r[0] ?? null);
    const readBack = (t: Executor, id: number, p: { select?: string[]; populate?: Populate }) =>
      findOne(t, { where: { id }, select: p.select, populate: p.populate }, t);
    /** the params the hooks of a write see and may change (a copy: the caller's object stays as it was) */
    const writeParams = <P extends object>(op: Parameters<Lifecycles['has']>[1], params: P): P => (has(op) ? hookParams(params) : params);

    /** `filters` joined to `where` (the hooks see the params with both, as v4's query builder state) */
    const filtered = <P extends { where?: Where }>(params: WithFilters<P>): P => {
      const { filters, ...rest } = params;
      if (filters === undefined || filters === null) return params;
      const extra = typeof filters === 'function' ? filters({ meta: { uid, attributes: ct.attributes } }) : filters;
      if (extra === undefined || extra === null) return rest as unknown as P;
      return { ...rest, where: rest.where === undefined || rest.where === null ? extra : { $and: [rest.where, extra] } } as unknown as P;
    };

    const api: QueryApi = {
      findOne: (params = {}, read) => findOne(ex, filtered(params), tx, read),
      findMany: (params = {}, read) => (hooked ? findManyHooked(ex, model, lc, ct, filtered(params), tx, read) : findEntities(ex, model, ct, filtered(params))),
      count: (params = {}) => (hooked ? countHooked(ex, model, lc, ct, filtered(params), tx) : countEntities(ex, model, ct, filtered(params).where)),
      create: (params) => inTx(async (t) => {
        const p = writeParams('create', { ...params, data: params.data ?? {} });
        let states;
        if (has('create')) {
          stampCreate(p.data);
          states = await lc.run('beforeCreate', ct, { params: p }, undefined, t);
        }
        const id = await insertEntity(t, model, ct, prepare(ct, p.data));
        const result = (await readBack(t, id, p))!;
        if (states) await lc.run('afterCreate', ct, { params: p, result }, states, t);
        return result;
      }),
      createMany: (params) => inTx(async (t) => {
        const p = writeParams('createMany', params);
        let states;
        if (has('createMany')) {
          for (const d of p.data) stampCreate(d);
          states = await lc.run('beforeCreateMany', ct, { params: p }, undefined, t);
        }
        // every row at once: a few statements per table, whatever the number of rows
        const ids = await insertEntities(t, model, ct, p.data.map((d) => prepare(ct, d)));
        const result = { count: ids.length, ids };
        if (states) await lc.run('afterCreateMany', ct, { params: p, result }, states, t);
        return result;
      }),
      update: (params) => inTx(async (t) => {
        const p = writeParams('update', { ...params, data: params.data ?? {} });
        let states;
        if (has('update')) {
          stampUpdate(p.data);
          states = await lc.run('beforeUpdate', ct, { params: p }, undefined, t);
        }
        const found = await findEntities(t, model, ct, { where: p.where, select: [], limit: 1 });
        if (!found.length) return null;
        await updateEntity(t, model, ct, found[0].id, p.data);
        const result = await readBack(t, found[0].id, p);
        if (states) await lc.run('afterUpdate', ct, { params: p, result }, states, t);
        return result;
      }),
      updateMany: (params) => inTx(async (t) => {
        const p = writeParams('updateMany', params);
        let states;
        if (has('updateMany')) states = await lc.run('beforeUpdateMany', ct, { params: p }, undefined, t);
        const found = await findEntities(t, model, ct, { where: p.where, select: [] });
        await updateEntities(t, model, ct, found.map((e) => e.id), p.data);
        const result = { count: found.length };
        if (states) await lc.run('afterUpdateMany', ct, { params: p, result }, states, t);
        return result;
      }),
      delete: (params) => inTx(async (t) => {
        const p = writeParams('delete', params);
        let states;
        if (has('delete')) states = await lc.run('beforeDelete', ct, { params: p }, undefined, t);
        // v4 reads the entry through findOne (its hooks run), with `id` added to a given select
        const entity = await findOne(t, { where: p.where, select: p.select && ['id', ...p.select], populate: p.populate }, t);
        if (!entity) return null;
        await deleteEntity(t, model, ct, entity.id);
        if (states) await lc.run('afterDelete', ct, { params: p, result: entity }, states, t);
        return entity;
      }),
      deleteMany: (params = {}) => inTx(async (t) => {
        const p = writeParams('deleteMany', params);
        let states;
        if (has('deleteMany')) states = await lc.run('beforeDeleteMany', ct, { params: p }, undefined, t);
        const found = await findEntities(t, model, ct, { where: p.where, select: [] });
        await deleteEntities(t, model, ct, found.map((e) => e.id));
        const result = { count: found.length };
        if (states) await lc.run('afterDeleteMany', ct, { params: p, result }, states, t);
        return result;
      }),
      async populate(entity, populate) {
        await populateEntities(ex, model, ct, [entity], populate);
        return entity;
      },
    };
    if (!tx) byUid.set(uid, api);
    return api;
  };
}

export type QueryFn = ReturnType<typeof createQueryEngine>;
