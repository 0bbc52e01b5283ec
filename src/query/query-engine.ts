// `strapi.query(uid)`: v4's storage API, used by project bootstraps and by the REST pipeline.
import type { ContentType, Model } from '../model/types';
import type { Database, Executor } from '../storage/dialect';
import { countEntities, findEntities, populate as populateEntities } from '../storage/read-entities';
import { deleteEntity, insertEntity, updateEntity } from '../storage/write-entities';
import type { Entity, FindParams, Populate, Where, WriteParams } from './types';

export interface QueryApi {
  findOne(params?: FindParams): Promise<Entity | null>;
  findMany(params?: FindParams): Promise<Entity[]>;
  count(params?: { where?: Where }): Promise<number>;
  create(params: WriteParams): Promise<Entity>;
  createMany(params: { data: Record<string, unknown>[] }): Promise<{ count: number; ids: number[] }>;
  update(params: WriteParams): Promise<Entity | null>;
  updateMany(params: { where?: Where; data: Record<string, unknown> }): Promise<{ count: number }>;
  delete(params: { where?: Where; select?: string[]; populate?: Populate }): Promise<Entity | null>;
  deleteMany(params?: { where?: Where }): Promise<{ count: number }>;
  populate(entity: Entity, populate: Populate): Promise<Entity>;
}

/** v4 applies schema defaults to scalar attributes left undefined on create. */
function withDefaults(ct: ContentType, data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const attr of Object.values(ct.attributes)) {
    if (attr.kind === 'scalar' && out[attr.name] === undefined && attr.default !== undefined) out[attr.name] = attr.default;
  }
  return out;
}

/** Called after a write to `uid` commits (caches such as permissions listen here). */
export type WriteListener = (uid: string) => void;

export interface QueryEngineOptions {
  /** i18n: the default locale code, given to entries of localized types created without one (v4's i18n lifecycle) */
  defaultLocale?(): string;
}

export function createQueryEngine(db: Database, model: Model, listeners: WriteListener[] = [], options: QueryEngineOptions = {}) {
  const prepare = (ct: ContentType, data: Record<string, unknown>) => {
    const out = withDefaults(ct, data);
    if (ct.localized && out.locale === undefined && options.defaultLocale) out.locale = options.defaultLocale();
    return out;
  };
  const cache = new Map<string, QueryApi>();
  const notify = (uid: string) => { for (const l of listeners) l(uid); };
  return function query(uid: string, tx?: Executor): QueryApi {
    const hit = !tx && cache.get(uid);
    if (hit) return hit;
    const ct = model.require(uid);
    const ex: Executor = tx ?? db;
    const inTx = async <T>(fn: (t: Executor) => Promise<T>): Promise<T> => {
      const result = await (tx ? fn(tx) : db.transaction(fn));
      notify(uid); // inside an outer transaction this fires early; listeners only drop caches, so that is safe
      return result;
    };
    const readBack = (t: Executor, id: number, p: { select?: string[]; populate?: Populate }) =>
      findEntities(t, model, ct, { where: { id }, select: p.select, populate: p.populate, limit: 1 }).then((r) => r[0] ?? null);

    const api: QueryApi = {
      async findOne(params = {}) {
        const rows = await findEntities(ex, model, ct, { ...params, limit: 1 });
        return rows[0] ?? null;
      },
      findMany: (params = {}) => findEntities(ex, model, ct, params),
      count: (params = {}) => countEntities(ex, model, ct, params.where),
      create: (params) => inTx(async (t) => {
        const id = await insertEntity(t, model, ct, prepare(ct, params.data ?? {}));
        return (await readBack(t, id, params))!;
      }),
      createMany: (params) => inTx(async (t) => {
        const ids: number[] = [];
        for (const d of params.data) ids.push(await insertEntity(t, model, ct, prepare(ct, d)));
        return { count: ids.length, ids };
      }),
      update: (params) => inTx(async (t) => {
        const found = await findEntities(t, model, ct, { where: params.where, select: [], limit: 1 });
        if (!found.length) return null;
        await updateEntity(t, model, ct, found[0].id, params.data ?? {});
        return readBack(t, found[0].id, params);
      }),
      updateMany: (params) => inTx(async (t) => {
        const found = await findEntities(t, model, ct, { where: params.where, select: [] });
        for (const e of found) await updateEntity(t, model, ct, e.id, params.data);
        return { count: found.length };
      }),
      delete: (params) => inTx(async (t) => {
        const found = await findEntities(t, model, ct, { where: params.where, select: params.select, populate: params.populate, limit: 1 });
        if (!found.length) return null;
        await deleteEntity(t, model, ct, found[0].id);
        return found[0];
      }),
      deleteMany: (params = {}) => inTx(async (t) => {
        const found = await findEntities(t, model, ct, { where: params.where, select: [] });
        for (const e of found) await deleteEntity(t, model, ct, e.id);
        return { count: found.length };
      }),
      async populate(entity, populate) {
        await populateEntities(ex, model, ct, [entity], populate);
        return entity;
      },
    };
    if (!tx) cache.set(uid, api);
    return api;
  };
}

export type QueryFn = ReturnType<typeof createQueryEngine>;
