// How rows of one model are selected and turned into flat entities. Built once per (model, field set) and
// reused, so the per-row work is a tight loop over precomputed converters.
//
// Kept per field SET: requests naming the same fields in another order share one reader (and one SQL text,
// the columns in the model's order), and each gets its entities' keys in its own order, as v4 answers
// (its rows carry the columns in select order). At most ENTITY_READERS_PER_TYPE sets are kept per model,
// the least recently used out first: a client sending endless field sets only costs rebuilding them.
import type { ContentType, ScalarAttribute } from '../model/types';
import type { Dialect } from './dialect';
import { fromDb, selectExpr } from './values';
import type { Entity } from '../query/types';

export interface EntityReader {
  /** `a.id AS "id", a.col AS "attr", ...` for the given alias */
  columns(alias: string): string;
  toEntity(row: Record<string, unknown>): Entity;
}

/** field sets kept per model (and tag) */
export const ENTITY_READERS_PER_TYPE = 64;

/** one field set: its SQL columns and the converters by attribute name */
interface FieldSet {
  columns(alias: string): string;
  /** the reader answering in the model's order */
  inModelOrder: EntityReader;
  names: string[];
}

const cache = new WeakMap<ContentType, Map<string, FieldSet>>();

export function scalarAttributes(ct: ContentType): ScalarAttribute[] {
  return Object.values(ct.attributes).filter((a): a is ScalarAttribute => a.kind === 'scalar');
}

/** the scalar attributes `fields` names, in its order, each once (all of them, in the model's order, without it) */
export function selectedAttributes(ct: ContentType, fields: readonly string[] | undefined): ScalarAttribute[] {
  if (!fields) return scalarAttributes(ct);
  const out: ScalarAttribute[] = [];
  for (const name of fields) {
    const attr = ct.attributes[name];
    if (attr?.kind === 'scalar' && !out.includes(attr)) out.push(attr);
  }
  return out;
}

/** the number of field sets kept for `ct` (tests: the cap holds) */
export function entityReaderCount(ct: ContentType): number {
  return cache.get(ct)?.size ?? 0;
}

type Tag = '__component' | '__type';

function converter(ct: ContentType, attrs: ScalarAttribute[], tag: Tag | undefined): (row: Record<string, unknown>) => Entity {
  const names = attrs.map((a) => a.name);
  const types = attrs.map((a) => a.type);
  return (row) => {
    const e: Entity = tag === '__type' ? ({ __type: ct.uid, id: Number(row.id) } as unknown as Entity) : { id: Number(row.id) };
    if (tag === '__component') e.__component = ct.uid;
    for (let i = 0; i < names.length; i++) e[names[i]] = fromDb(types[i], row[names[i]]);
    return e;
  };
}

function fieldSet(dialect: Dialect, ct: ContentType, wanted: ScalarAttribute[] | null, tag: Tag | undefined): FieldSet {
  const set = wanted ? new Set(wanted) : null;
  const attrs = scalarAttributes(ct).filter((a) => !set || set.has(a));
  const columns = (alias: string) => [`${alias}.id AS ${dialect.quote('id')}`, ...attrs.map((a) => `${selectExpr(dialect, a, alias)} AS ${dialect.quote(a.name)}`)].join(', ');
  return { columns, inModelOrder: { columns, toEntity: converter(ct, attrs, tag) }, names: attrs.map((a) => a.name) };
}

/**
 * `tag`: polymorphic items carry their type, `{ id, __component }` in a dynamic zone and `{ __type, id }` in a
 * file's `related` (v4's key order), set here so no row is copied afterwards.
 */
export function entityReader(dialect: Dialect, ct: ContentType, fields?: readonly string[], tag?: Tag): EntityReader {
  const wanted = fields ? selectedAttributes(ct, fields) : null;
  const key = `${dialect.name}:${tag ?? ''}:${wanted ? wanted.map((a) => a.name).sort().join(',') : '*'}`;
  let perType = cache.get(ct);
  if (!perType) cache.set(ct, (perType = new Map()));
  let set = perType.get(key);
  if (set) {
    // most recently used last (a Map keeps insertion order)
    perType.delete(key);
    perType.set(key, set);
  } else {
    set = fieldSet(dialect, ct, wanted, tag);
    perType.set(key, set);
    if (perType.size > ENTITY_READERS_PER_TYPE) perType.delete(perType.keys().next().value!);
  }
  if (!wanted || wanted.every((a, i) => a.name === set.names[i])) return set.inModelOrder;
  return { columns: set.columns, toEntity: converter(ct, wanted, tag) };
}
