// Reads: one statement for the page of parent rows, then ONE statement per populated attribute per
// level, whatever the number of rows (no N+1). Results are merged into the parents in JavaScript.
// The statements come from read-statements.ts, compiled once per stable query (stable-queries.ts).
import type { Attribute, ContentType, Model } from '../model/types';
import type { Entity, FindParams, Populate, PopulateNode, Where } from '../query/types';
import type { Executor } from './dialect';
import { lookupCount } from './count-cache';
import { keptTotal } from './kept-totals';
import { isMediaMorph, morphTypes } from './media-morph';
import { bindParents, compileCount, compileLinked, compileLinkedCount, compilePage } from './read-statements';
import { compileWalkedPage } from './page-ids';
import { compileOnce, isStable } from './stable-queries';

function isRelational(attr: Attribute): boolean {
  return attr.kind !== 'scalar';
}

export async function findEntities(db: Executor, model: Model, ct: ContentType, params: FindParams): Promise<Entity[]> {
  const page = compileOnce(params, `page:${ct.uid}:${db.dialect.name}`, false, () => compileWalkedPage(db.dialect, model, ct, params) ?? compilePage(db.dialect, model, ct, params));
  const rows = await db.all(page.sql, page.params);
  const entities = rows.map((r) => page.reader.toEntity(r));
  if (params.populate && entities.length) await populateIn(db, model, ct, entities, params.populate, isStable(params) || isStable(params.populate));
  return entities;
}

/**
 * The number of rows `where` selects; kept while the data is unchanged (count-cache.ts), read from the figures the
 * triggers keep where `where` is only a publication state or a locale (kept-totals.ts).
 */
export async function countEntities(db: Executor, model: Model, ct: ContentType, where: Where | undefined): Promise<number> {
  const s = compileOnce(where, `count:${ct.uid}:${db.dialect.name}`, false, () => compileCount(db.dialect, model, ct, where));
  const cached = lookupCount(db, s.key);
  if (cached.total !== undefined) return cached.total;
  const n = (await keptTotal(db, model, ct, where)) ?? Number((await db.get<{ n: number }>(s.sql, s.params))?.n ?? 0);
  cached.store(n);
  return n;
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
  // v4's query engine at any level (strapi.query({ populate: 'a' })): the entity service splits strings first
  if (typeof populate !== 'object') throw new Error('Populate must be an object');
  for (const [name, value] of Object.entries(populate)) {
    const attr = ct.attributes[name];
    if (!attr || !isRelational(attr) || value === false) continue;
    out.set(name, value === true ? {} : value);
  }
  return out;
}

export function populate(db: Executor, model: Model, ct: ContentType, parents: Entity[], populate: Populate): Promise<void> {
  return populateIn(db, model, ct, parents, populate, false);
}

/** `inside`: the populate tree belongs to a stable query, so its nodes' statements are kept with them */
async function populateIn(db: Executor, model: Model, ct: ContentType, parents: Entity[], populate: Populate, inside: boolean): Promise<void> {
  for (const [name, node] of normalizePopulate(ct, populate)) {
    const attr = ct.attributes[name];
    if (attr.kind === 'dynamiczone') await populatePolymorphic(db, model, ct, attr, attr.components, '__component', parents, node, inside);
    else if (isMediaMorph(ct, attr)) await populatePolymorphic(db, model, ct, attr, morphTypes(model, () => true).map((t) => t.uid), '__type', parents, node, inside);
    else if (attr.kind === 'relation' && attr.relation.startsWith('morph')) continue; // other morph relations: not readable through REST
    else await populateAttribute(db, model, ct, attr, parents, node, inside);
  }
}

interface LinkedRow {
  parent: number;
  order: number;
  /** the link row (ties in `order`) */
  link: number;
  entity: Entity;
}

/** `owner`: what the compiled statement is kept with (the node, or a dynamic zone's `on` entry) */
async function fetchLinked(db: Executor, model: Model, ct: ContentType, attr: Attribute, parentIds: number[], node: PopulateNode, inside: boolean, owner: object = node, componentUid?: string, tag?: '__component' | '__type'): Promise<{ target: ContentType; rows: LinkedRow[] }> {
  const key = `linked:${ct.uid}.${attr.name}:${componentUid ?? ''}:${tag ?? ''}:${db.dialect.name}`;
  const s = compileOnce(owner, key, inside, () => compileLinked(db.dialect, model, ct, attr, node, componentUid, tag));
  const raw = await db.all(s.sql, bindParents(db.dialect, s, parentIds));
  const rows = raw.map((r) => ({ parent: Number(r.__parent), order: Number(r.__order ?? 0), link: Number(r.__link ?? 0), entity: s.reader.toEntity(r) }));
  return { target: s.hop.target, rows };
}

async function countLinked(db: Executor, model: Model, ct: ContentType, attr: Attribute, parents: Entity[], node: PopulateNode, inside: boolean): Promise<void> {
  const s = compileOnce(node, `count:${ct.uid}.${attr.name}:${db.dialect.name}`, inside, () => compileLinkedCount(db.dialect, model, ct, attr, node));
  const rows = await db.all<{ __parent: number; n: number }>(s.sql, bindParents(db.dialect, s, parents.map((p) => p.id)));
  const counts = new Map(rows.map((r) => [Number(r.__parent), Number(r.n)]));
  for (const p of parents) p[attr.name] = { count: counts.get(p.id) ?? 0 };
}

function isToMany(attr: Attribute): boolean {
  if (attr.kind === 'relation') return attr.many;
  if (attr.kind === 'media') return attr.multiple;
  if (attr.kind === 'component') return attr.repeatable;
  return true;
}

async function populateAttribute(db: Executor, model: Model, ct: ContentType, attr: Attribute, parents: Entity[], node: PopulateNode, inside: boolean): Promise<void> {
  if (node.count) return countLinked(db, model, ct, attr, parents, node, inside);
  const many = isToMany(attr);
  const { target, rows } = await fetchLinked(db, model, ct, attr, parents.map((p) => p.id), node, inside);
  const byParent = new Map<number, Entity[]>();
  for (const r of rows) {
    const list = byParent.get(r.parent);
    if (list) list.push(r.entity);
    else byParent.set(r.parent, [r.entity]);
  }
  for (const p of parents) {
    const list = byParent.get(p.id);
    // v4's query engine: a multiple media field without files reads null (its morph populate maps no rows to null)
    p[attr.name] = many ? (list ?? (attr.kind === 'media' ? null : [])) : (list?.[0] ?? null);
  }
  const children = rows.map((r) => r.entity);
  if (node.populate && children.length) await populateIn(db, model, target, children, node.populate, inside);
}

/**
 * A dynamic zone (items tagged `__component`) or a file's `related` (tagged `__type`): one statement per
 * type, the items of all types merged per parent in link order.
 */
async function populatePolymorphic(db: Executor, model: Model, ct: ContentType, attr: Attribute, types: string[], tag: '__component' | '__type', parents: Entity[], node: PopulateNode, inside: boolean): Promise<void> {
  const merged = new Map<number, LinkedRow[]>();
  const parentIds = parents.map((p) => p.id);
  for (const uid of types) {
    const on = node.on?.[uid];
    if (node.on && !on) continue;
    const sub: PopulateNode = on === true || on === undefined ? {} : on;
    const { rows } = await fetchLinked(db, model, ct, attr, parentIds, { select: sub.select, where: sub.where }, inside, typeof on === 'object' ? on : node, uid, tag);
    for (const r of rows) {
      const list = merged.get(r.parent);
      if (list) list.push(r);
      else merged.set(r.parent, [r]);
    }
    const nested = sub.populate ?? node.populate;
    if (nested && rows.length) await populateIn(db, model, model.require(uid), rows.map((r) => r.entity), nested, inside);
  }
  for (const p of parents) {
    const list = merged.get(p.id) ?? [];
    list.sort((a, b) => a.order - b.order || a.link - b.link);
    p[attr.name] = list.map((r) => r.entity);
  }
}
