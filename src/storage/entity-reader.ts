// How rows of one model are selected and turned into flat entities. Built once per (model, fields)
// and reused, so the per-row work is a tight loop over precomputed converters.
import type { ContentType, ScalarAttribute } from '../model/types';
import type { Dialect } from './dialect';
import { fromDb, selectExpr } from './values';
import type { Entity } from '../query/types';

export interface EntityReader {
  /** `a.id AS "id", a.col AS "attr", ...` for the given alias */
  columns(alias: string): string;
  toEntity(row: Record<string, unknown>): Entity;
}

const cache = new WeakMap<ContentType, Map<string, EntityReader>>();

export function scalarAttributes(ct: ContentType): ScalarAttribute[] {
  return Object.values(ct.attributes).filter((a): a is ScalarAttribute => a.kind === 'scalar');
}

/**
 * `tag`: polymorphic items carry their type, `{ id, __component }` in a dynamic zone and `{ __type, id }` in a
 * file's `related` (v4's key order), set here so no row is copied afterwards.
 */
export function entityReader(dialect: Dialect, ct: ContentType, fields?: readonly string[], tag?: '__component' | '__type'): EntityReader {
  const key = `${tag ?? ''}:${fields ? fields.join(',') : '*'}`;
  let perType = cache.get(ct);
  if (!perType) cache.set(ct, (perType = new Map()));
  const hit = perType.get(key);
  if (hit) return hit;
  const wanted = fields ? new Set(fields) : null;
  const attrs = scalarAttributes(ct).filter((a) => !wanted || wanted.has(a.name));
  const names = attrs.map((a) => a.name);
  const types = attrs.map((a) => a.type);
  const reader: EntityReader = {
    columns: (alias) => [`${alias}.id AS ${dialect.quote('id')}`, ...attrs.map((a) => `${selectExpr(dialect, a, alias)} AS ${dialect.quote(a.name)}`)].join(', '),
    toEntity(row) {
      const e: Entity = tag === '__type' ? ({ __type: ct.uid, id: Number(row.id) } as unknown as Entity) : { id: Number(row.id) };
      if (tag === '__component') e.__component = ct.uid;
      for (let i = 0; i < names.length; i++) e[names[i]] = fromDb(types[i], row[names[i]]);
      return e;
    },
  };
  perType.set(key, reader);
  return reader;
}
