// The reads of read-entities.ts with the model's lifecycle hooks around them, as v4's entity manager runs
// them: before* sees the params (and may replace `where`, `select`, `populate`, ...), the query runs with
// what it left, after* sees the same params and the result (and may change the objects in it). Without a
// subscriber for that (model, operation) each function is the plain read.
import { isDeepStrictEqual } from 'node:util';
import type { ContentType, Model } from '../model/types';
import type { Entity, FindParams, Populate, Where } from '../query/types';
import type { Executor } from './dialect';
import { countEntities, findEntities, normalizePopulate } from './read-entities';
import type { Lifecycles } from './lifecycles';

/**
 * What a read takes while its hooks leave `select` and `populate` as they saw them, given by Tessera's own
 * callers (`strapi.query` passes none): a Content API read's validated fields and tree (with its permission
 * and publication-state filters), or the entity service's populate with v4's publication filter. A hook
 * that changes either gets its change read, as v4 reads it (strapi-plugin-populate-deep replaces
 * `populate`); what leaves the server is then what v4's output sanitizer lets through (private fields,
 * passwords and relations the caller may not read never do: the doors sanitize every answer).
 */
export interface ReadShape {
  select?: FindParams['select'];
  populate?: FindParams['populate'];
  /**
   * the `populate` the hooks see instead: v4's database-level form of the caller's (`populate=deep,3` ->
   * ['deep', '3'], names no attribute holds included), as v4's entity service hands it on
   */
  hookPopulate?: Populate;
  /**
   * what a populate the hooks put in is read with: the read's publication state on every populated relation
   * (v4 hands a live find's publication filter to each populate, whoever wrote it)
   */
  scopePopulate?(populate: Populate): Populate | undefined;
  /** a Content API read: its results are pruned to the shape read (pruneToShape); project code's keep all */
  prune: boolean;
}

/** the shape of a validated Content API read (its params), with what hooks see as its populate and how a new one is read */
export function validatedRead(params: FindParams, hookPopulate?: Populate, scopePopulate?: ReadShape['scopePopulate']): ReadShape {
  return { select: params.select, populate: params.populate, hookPopulate, scopePopulate, prune: true };
}

/** the params a hooked read's hooks see */
function hookView<P extends FindParams>(params: P, shape?: ReadShape): P & Record<string, unknown> {
  const p = hookParams(params) as P & Record<string, unknown>;
  if (shape?.hookPopulate !== undefined) p.populate = structuredClone(shape.hookPopulate);
  return p;
}

/** what the read takes: the shape, or what the before* hooks made of `select` / `populate` */
function readShape(p: FindParams, seen: Pick<FindParams, 'select' | 'populate'>, shape?: ReadShape): ReadShape | undefined {
  if (!shape) return undefined;
  const populate = isDeepStrictEqual(p.populate, seen.populate) ? shape.populate : p.populate && shape.scopePopulate ? shape.scopePopulate(p.populate) : p.populate;
  return { select: isDeepStrictEqual(p.select, seen.select) ? shape.select : p.select, populate, prune: shape.prune };
}

const shaped = (p: FindParams, shape?: ReadShape): FindParams => (shape ? { ...p, select: shape.select, populate: shape.populate } : p);

const isEntity = (v: unknown): v is Entity => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * After hooks may change the result objects of a Content API read (v4 answers what they changed), but what
 * they put under an attribute the read did not select or populate goes (v4's output sanitizer removes
 * private fields the same way): a hook that merges a full row into the result leaks nothing. Keys naming no
 * attribute (computed by the hook) stay.
 */
export function pruneToShape(model: Model, ct: ContentType, entity: Entity, shape: Pick<FindParams, 'select' | 'populate'>): void {
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
  const p = hookView(params, shape);
  const seen = structuredClone({ select: p.select, populate: p.populate });
  const states = await lc.run('beforeFindMany', ct, { params: p }, undefined, tx);
  const read = readShape(p, seen, shape);
  const result = await findEntities(ex, model, ct, shaped(p, read));
  await lc.run('afterFindMany', ct, { params: p, result }, states, tx);
  if (read?.prune) for (const e of result) if (isEntity(e)) pruneToShape(model, ct, e, read);
  return result;
}

export async function findOneHooked(ex: Executor, model: Model, lc: Lifecycles, ct: ContentType, params: FindParams, tx?: Executor, shape?: ReadShape): Promise<Entity | null> {
  if (!lc.has(ct.uid, 'findOne')) return (await findEntities(ex, model, ct, { ...params, limit: 1 }))[0] ?? null;
  const { limit: _limit, ...one } = params;
  const p = hookView(one, shape);
  const seen = structuredClone({ select: p.select, populate: p.populate });
  const states = await lc.run('beforeFindOne', ct, { params: p }, undefined, tx);
  const read = readShape(p, seen, shape);
  const result = (await findEntities(ex, model, ct, { ...shaped(p, read), limit: 1 }))[0] ?? null;
  await lc.run('afterFindOne', ct, { params: p, result }, states, tx);
  if (read?.prune && isEntity(result)) pruneToShape(model, ct, result, read);
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
