// The reads of read-entities.ts with the model's lifecycle hooks around them, as v4's entity manager runs
// them: before* sees the params (and may replace `where`, `select`, `populate`, ...), the query runs with
// what it left, after* sees the same params and the result (and may change the objects in it). Without a
// subscriber for that (model, operation) each function is the plain read.
import type { ContentType, Model } from '../model/types';
import type { Entity, FindParams, Where } from '../query/types';
import type { Executor } from './dialect';
import { countEntities, findEntities, normalizePopulate } from './read-entities';
import type { Lifecycles } from './lifecycles';

/**
 * What a Content API read may return (its validated `select` and `populate`): hooks may change these params
 * (they see their change), the read keeps the validated ones, so no hook makes a private field, a password
 * or a relation the caller may not read part of an answer. `strapi.query` and the entity service pass none.
 */
export type ReadShape = Pick<FindParams, 'select' | 'populate'>;

const shaped = (p: FindParams, shape?: ReadShape): FindParams => (shape ? { ...p, select: shape.select, populate: shape.populate } : p);

const isEntity = (v: unknown): v is Entity => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * After hooks may change the result objects of a Content API read (v4 answers what they changed), but what
 * they put under an attribute the read did not select or populate goes (v4's output sanitizer removes
 * private fields the same way): a hook that merges a full row into the result leaks nothing. Keys naming no
 * attribute (computed by the hook) stay.
 */
export function pruneToShape(model: Model, ct: ContentType, entity: Entity, shape: ReadShape): void {
  const nodes = normalizePopulate(ct, shape.populate);
  for (const key of Object.keys(entity)) {
    const attr = ct.attributes[key];
    if (!attr) continue;
    if (attr.kind === 'scalar') {
      const hidden = attr.type === 'password' || attr.raw.private === true;
      if (hidden || (shape.select && !shape.select.includes(key))) delete entity[key];
      continue;
    }
    const node = nodes.get(key);
    if (!node) {
      delete entity[key];
      continue;
    }
    const items = (Array.isArray(entity[key]) ? entity[key] : [entity[key]]) as unknown[];
    for (const item of items) {
      if (!isEntity(item)) continue;
      if (attr.kind === 'dynamiczone') {
        const uid = String(item.__component);
        const on = node.on?.[uid];
        const target = model.get(uid);
        if (target) pruneToShape(model, target, item, on === undefined || on === true ? { select: node.select, populate: node.populate } : on);
        continue;
      }
      if (attr.kind === 'relation' && attr.relation.startsWith('morph')) continue;
      const target = model.get(attr.kind === 'relation' ? attr.target : attr.kind === 'component' ? attr.component : 'plugin::upload.file');
      if (target && !('count' in item && Object.keys(item).length === 1)) pruneToShape(model, target, item, node);
    }
  }
}

/**
 * The params a hook sees: a deep copy, because the caller's may be kept per query shape
 * (stable-queries.ts) and a hook that edits `where` in place must not change later requests.
 */
export function hookParams<T extends object>(params: T): T {
  const out = structuredClone(params) as Record<string, unknown>;
  // v4's select always names `id` first (Tessera reads it anyway)
  if (Array.isArray(out.select) && out.select[0] !== 'id') out.select = ['id', ...out.select.filter((f) => f !== 'id')];
  return out as T;
}

export async function findManyHooked(ex: Executor, model: Model, lc: Lifecycles, ct: ContentType, params: FindParams, tx?: Executor, shape?: ReadShape): Promise<Entity[]> {
  if (!lc.has(ct.uid, 'findMany')) return findEntities(ex, model, ct, params);
  const p = hookParams(params) as FindParams & Record<string, unknown>;
  const states = await lc.run('beforeFindMany', ct, { params: p }, undefined, tx);
  const result = await findEntities(ex, model, ct, shaped(p, shape));
  await lc.run('afterFindMany', ct, { params: p, result }, states, tx);
  if (shape) for (const e of result) if (isEntity(e)) pruneToShape(model, ct, e, shape);
  return result;
}

export async function findOneHooked(ex: Executor, model: Model, lc: Lifecycles, ct: ContentType, params: FindParams, tx?: Executor, shape?: ReadShape): Promise<Entity | null> {
  if (!lc.has(ct.uid, 'findOne')) return (await findEntities(ex, model, ct, { ...params, limit: 1 }))[0] ?? null;
  const { limit: _limit, ...one } = params;
  const p = hookParams(one) as FindParams & Record<string, unknown>;
  const states = await lc.run('beforeFindOne', ct, { params: p }, undefined, tx);
  const result = (await findEntities(ex, model, ct, { ...shaped(p, shape), limit: 1 }))[0] ?? null;
  await lc.run('afterFindOne', ct, { params: p, result }, states, tx);
  if (shape && isEntity(result)) pruneToShape(model, ct, result, shape);
  return result;
}

/** `params`: what v4's count receives (its `where` counts; the rest is there for the hooks to see) */
export async function countHooked(ex: Executor, model: Model, lc: Lifecycles, ct: ContentType, params: { where?: Where } & Record<string, unknown>, tx?: Executor): Promise<number> {
  if (!lc.has(ct.uid, 'count')) return countEntities(ex, model, ct, params.where);
  const p = hookParams(params);
  const states = await lc.run('beforeCount', ct, { params: p }, undefined, tx);
  const result = await countEntities(ex, model, ct, p.where);
  await lc.run('afterCount', ct, { params: p, result }, states, tx);
  return result;
}
