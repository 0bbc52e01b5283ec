// Reads: one statement for the page of parent rows, then ONE statement per populated attribute per
// level, whatever the number of rows (no N+1). Results are merged into the parents in JavaScript.
import type { Attribute, ContentType, Model } from '../model/types';
import type { Entity, FindParams, Populate, PopulateNode, Where } from '../query/types';
import type { Executor } from './dialect';
import { compileOrderBy } from './compile-order';
import { compileWhere } from './compile-where';
import { entityReader } from './entity-reader';
import { hopFor, type Hop } from './hops';
import { isMediaMorph, morphTypes } from './media-morph';
import { SqlBuilder } from './sql-builder';

const ROOT = 't0';

function isRelational(attr: Attribute): boolean {
  return attr.kind !== 'scalar';
}

export async function findEntities(db: Executor, model: Model, ct: ContentType, params: FindParams): Promise<Entity[]> {
  const b = new SqlBuilder(db.dialect);
  const reader = entityReader(db.dialect, ct, params.select);
  const where = compileWhere(b, model, ct, ROOT, params.where);
  const order = compileOrderBy(b, model, ct, ROOT, params.orderBy);
  let sql = `SELECT ${reader.columns(ROOT)} FROM ${b.q(ct.collectionName)} ${ROOT}${where ? ` WHERE ${where}` : ''} ORDER BY ${order}`;
  if (params.limit !== undefined && params.limit >= 0) sql += ` LIMIT ${b.param(params.limit)}`;
  else if (params.offset) sql += ` LIMIT -1`;
  if (params.offset) sql += ` OFFSET ${b.param(params.offset)}`;
  const rows = await db.all(sql, b.params);
  const entities = rows.map((r) => reader.toEntity(r));
  if (params.populate && entities.length) await populate(db, model, ct, entities, params.populate);
  return entities;
}

export async function countEntities(db: Executor, model: Model, ct: ContentType, where: Where | undefined): Promise<number> {
  const b = new SqlBuilder(db.dialect);
  const w = compileWhere(b, model, ct, ROOT, where);
  const row = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${b.q(ct.collectionName)} ${ROOT}${w ? ` WHERE ${w}` : ''}`, b.params);
  return Number(row?.n ?? 0);
}

/** `populate` in any accepted form -> attribute name -> node */
export function normalizePopulate(ct: ContentType, populate: Populate | undefined): Map<string, PopulateNode> {
  const out = new Map<string, PopulateNode>();
  if (!populate) return out;
  if (populate === true) {
    for (const attr of Object.values(ct.attributes)) if (isRelational(attr)) out.set(attr.name, {});
    return out;
  }
  if (Array.isArray(populate)) {
    for (const path of populate) {
      const [head, ...rest] = String(path).split('.');
      const attr = ct.attributes[head];
      if (!attr || !isRelational(attr)) continue;
      const node = out.get(head) ?? {};
      if (rest.length) node.populate = [...((node.populate as string[]) ?? []), rest.join('.')];
      out.set(head, node);
    }
    return out;
  }
  for (const [name, value] of Object.entries(populate)) {
    const attr = ct.attributes[name];
    if (!attr || !isRelational(attr) || value === false) continue;
    out.set(name, value === true ? {} : value);
  }
  return out;
}

export async function populate(db: Executor, model: Model, ct: ContentType, parents: Entity[], populate: Populate): Promise<void> {
  for (const [name, node] of normalizePopulate(ct, populate)) {
    const attr = ct.attributes[name];
    if (attr.kind === 'dynamiczone') await populatePolymorphic(db, model, ct, attr, attr.components, '__component', parents, node);
    else if (isMediaMorph(ct, attr)) await populatePolymorphic(db, model, ct, attr, morphTypes(model, () => true).map((t) => t.uid), '__type', parents, node);
    else if (attr.kind === 'relation' && attr.relation.startsWith('morph')) continue; // other morph relations: not readable through REST
    else await populateAttribute(db, model, ct, attr, parents, node);
  }
}

interface LinkedRow {
  parent: number;
  order: number;
  /** the link row (ties in `order`) */
  link: number;
  entity: Entity;
}

async function fetchLinked(db: Executor, model: Model, ct: ContentType, attr: Attribute, parentIds: number[], node: PopulateNode, componentUid?: string, tag?: '__component' | '__type'): Promise<{ hop: Hop; rows: LinkedRow[] }> {
  const b = new SqlBuilder(db.dialect);
  const hop = hopFor(b, model, ct, attr, componentUid);
  const reader = entityReader(db.dialect, hop.target, node.select, tag);
  const link = hop.link((e) => db.dialect.inList(e, b.list(parentIds)));
  const where = compileWhere(b, model, hop.target, hop.alias, node.where);
  const order = node.orderBy ? compileOrderBy(b, model, hop.target, hop.alias, node.orderBy) : `${hop.orderExpr ?? `${hop.alias}.id`}`;
  const cols = [`${hop.parentExpr} AS __parent`, ...hop.extra, reader.columns(hop.alias)].join(', ');
  let sql = `SELECT ${cols} ${hop.from} WHERE ${link}${where ? ` AND (${where})` : ''}`;
  if (node.limit !== undefined || node.offset) {
    // per-parent paging: number the rows within each parent
    const lo = Math.max(0, node.offset ?? 0);
    const hi = node.limit !== undefined && node.limit >= 0 ? lo + node.limit : Number.MAX_SAFE_INTEGER;
    sql = `SELECT * FROM (SELECT ${cols}, ROW_NUMBER() OVER (PARTITION BY ${hop.parentExpr} ORDER BY ${order}) AS __rn ${hop.from} WHERE ${link}${where ? ` AND (${where})` : ''}) p WHERE __rn > ${b.param(lo)} AND __rn <= ${b.param(hi)} ORDER BY __parent, __rn`;
  } else {
    sql += ` ORDER BY ${hop.parentExpr}, ${order}`;
  }
  const raw = await db.all(sql, b.params);
  const rows = raw.map((r) => ({ parent: Number(r.__parent), order: Number(r.__order ?? 0), link: Number(r.__link ?? 0), entity: reader.toEntity(r) }));
  return { hop, rows };
}

async function countLinked(db: Executor, model: Model, ct: ContentType, attr: Attribute, parents: Entity[], node: PopulateNode): Promise<void> {
  const b = new SqlBuilder(db.dialect);
  const hop = hopFor(b, model, ct, attr);
  const link = hop.link((e) => db.dialect.inList(e, b.list(parents.map((p) => p.id))));
  const where = compileWhere(b, model, hop.target, hop.alias, node.where);
  const rows = await db.all<{ __parent: number; n: number }>(
    `SELECT ${hop.parentExpr} AS __parent, COUNT(*) AS n ${hop.from} WHERE ${link}${where ? ` AND (${where})` : ''} GROUP BY ${hop.parentExpr}`,
    b.params,
  );
  const counts = new Map(rows.map((r) => [Number(r.__parent), Number(r.n)]));
  for (const p of parents) p[attr.name] = { count: counts.get(p.id) ?? 0 };
}

function isToMany(attr: Attribute): boolean {
  if (attr.kind === 'relation') return attr.many;
  if (attr.kind === 'media') return attr.multiple;
  if (attr.kind === 'component') return attr.repeatable;
  return true;
}

async function populateAttribute(db: Executor, model: Model, ct: ContentType, attr: Attribute, parents: Entity[], node: PopulateNode): Promise<void> {
  if (node.count) return countLinked(db, model, ct, attr, parents, node);
  const many = isToMany(attr);
  const { hop, rows } = await fetchLinked(db, model, ct, attr, parents.map((p) => p.id), node);
  const byParent = new Map<number, Entity[]>();
  for (const r of rows) {
    const list = byParent.get(r.parent);
    if (list) list.push(r.entity);
    else byParent.set(r.parent, [r.entity]);
  }
  for (const p of parents) {
    const list = byParent.get(p.id) ?? [];
    p[attr.name] = many ? list : (list[0] ?? null);
  }
  const children = rows.map((r) => r.entity);
  if (node.populate && children.length) await populate(db, model, hop.target, children, node.populate);
}

/**
 * A dynamic zone (items tagged `__component`) or a file's `related` (tagged `__type`): one statement per
 * type, the items of all types merged per parent in link order.
 */
async function populatePolymorphic(db: Executor, model: Model, ct: ContentType, attr: Attribute, types: string[], tag: '__component' | '__type', parents: Entity[], node: PopulateNode): Promise<void> {
  const merged = new Map<number, LinkedRow[]>();
  const parentIds = parents.map((p) => p.id);
  for (const uid of types) {
    const on = node.on?.[uid];
    if (node.on && !on) continue;
    const sub: PopulateNode = on === true || on === undefined ? {} : on;
    const { rows } = await fetchLinked(db, model, ct, attr, parentIds, { select: sub.select, where: sub.where }, uid, tag);
    for (const r of rows) {
      const list = merged.get(r.parent);
      if (list) list.push(r);
      else merged.set(r.parent, [r]);
    }
    const nested = sub.populate ?? node.populate;
    if (nested && rows.length) await populate(db, model, model.require(uid), rows.map((r) => r.entity), nested);
  }
  for (const p of parents) {
    const list = merged.get(p.id) ?? [];
    list.sort((a, b) => a.order - b.order || a.link - b.link);
    p[attr.name] = list.map((r) => r.entity);
  }
}
