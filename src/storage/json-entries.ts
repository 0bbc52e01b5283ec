// The JSON compile target: SQL expressions that make SQLite write an entry in v4's REST shape, its
// populated relations, media, components and dynamic zones included, through correlated subqueries
// (`json_object` / `json_group_array`). It follows read-entities.ts (the JavaScript path, the reference)
// step for step: the same hops, filters, sorts, per-parent limits and order ties, so both give the same
// response (test/integration/read-path/ compares them on every read shape). Shapes it does not cover
// throw JsonUnsupported and are answered by the JavaScript path.
import type { Attribute, ContentType, Model } from '../model/types';
import type { PopulateNode } from '../query/types';
import { compileOrderBy } from './compile-order';
import { compileWhere } from './compile-where';
import { selectedAttributes } from './entity-reader';
import { hopFor, type Hop } from './hops';
import { jsonValueExpr } from './json-values';
import { isMediaMorph } from './media-morph';
import { normalizePopulate } from './read-entities';
import { rowCount } from './read-statements';
import type { SqlBuilder } from './sql-builder';

export class JsonUnsupported extends Error {}

/** a SQL string literal (keys and uids come from the model; quotes doubled all the same) */
export function lit(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

export interface JsonCompiler {
  b: SqlBuilder;
  model: Model;
}

/** `'key', <value>, ...` of the scalars (in the order `select` names them), then of the populated attributes, in the JS path's key order */
function pairs(c: JsonCompiler, ct: ContentType, alias: string, node: PopulateNode): string[] {
  const out = selectedAttributes(ct, node.select).map((a) => `${lit(a.name)}, ${jsonValueExpr(c.b.dialect, a, alias)}`);
  if (node.populate) {
    for (const [name, sub] of normalizePopulate(ct, node.populate)) {
      const value = populated(c, ct, alias, ct.attributes[name], sub);
      if (value !== null) out.push(`${lit(name)}, ${value}`);
    }
  }
  return out;
}

/** an entry: `{ id, attributes: {...} }` */
export function entryJson(c: JsonCompiler, ct: ContentType, alias: string, node: PopulateNode): string {
  return `json_object('id', ${alias}.id, 'attributes', json_object(${pairs(c, ct, alias, node).join(', ')}))`;
}

/** a component or a dynamic-zone item: flat, `{ id[, __component], ...fields }` */
function flatJson(c: JsonCompiler, ct: ContentType, alias: string, node: PopulateNode, tagged: boolean): string {
  const head = tagged ? [`'id', ${alias}.id`, `'__component', ${lit(ct.uid)}`] : [`'id', ${alias}.id`];
  return `json_object(${[...head, ...pairs(c, ct, alias, node)].join(', ')})`;
}

function isToMany(attr: Attribute): boolean {
  if (attr.kind === 'relation') return attr.many;
  if (attr.kind === 'media') return attr.multiple;
  if (attr.kind === 'component') return attr.repeatable;
  return true;
}

/** the value written for one populated attribute, or null when the JS path leaves it out */
function populated(c: JsonCompiler, ct: ContentType, alias: string, attr: Attribute, node: PopulateNode): string | null {
  if (attr.kind === 'dynamiczone') return dynamicZone(c, ct, alias, attr, node);
  if (isMediaMorph(ct, attr)) throw new JsonUnsupported(`${ct.uid}.${attr.name}: a file's related entries`);
  if (attr.kind === 'relation' && attr.relation.startsWith('morph')) return null;
  const wrap = (v: string) => (attr.kind === 'component' ? v : `json_object('data', ${v})`);
  if (node.count) return wrap(counted(c, ct, alias, attr, node));
  const hop = hopFor(c.b, c.model, ct, attr);
  const item = (a: string) => (attr.kind === 'component' ? flatJson(c, hop.target, a, node, false) : entryJson(c, hop.target, a, node));
  if (!isToMany(attr)) return wrap(toOne(c, hop, alias, node, item));
  // v4 answers `data: null` for a multiple media field without files (transform.ts)
  return wrap(toMany(c, hop, alias, node, item, attr.kind === 'media'));
}

/** `WHERE <link to the parent> [AND (<filters>)]`, parameters in text order */
function linkWhere(c: JsonCompiler, hop: Hop, parent: string, node: PopulateNode): string {
  const on = hop.on(`${parent}.id`);
  const where = compileWhere(c.b, c.model, hop.target, hop.alias, node.where);
  return `WHERE ${on}${where ? ` AND (${where})` : ''}`;
}

function orderOf(c: JsonCompiler, hop: Hop, node: PopulateNode): string {
  return node.orderBy ? compileOrderBy(c.b, c.model, hop.target, hop.alias, node.orderBy) : (hop.orderExpr ?? `${hop.alias}.id`);
}

/** per-parent paging as read-entities.ts does it: rows numbered within the parent, (lo, hi] kept */
function paging(node: PopulateNode): { lo: number; hi: number } | null {
  if (node.limit === undefined && !node.offset) return null;
  const lo = Math.max(0, node.offset ?? 0);
  const hi = node.limit !== undefined && node.limit >= 0 ? lo + node.limit : Number.MAX_SAFE_INTEGER;
  return { lo, hi };
}

function toOne(c: JsonCompiler, hop: Hop, parent: string, node: PopulateNode, item: (alias: string) => string): string {
  const json = item(hop.alias);
  const where = linkWhere(c, hop, parent, node);
  const order = orderOf(c, hop, node);
  const page = paging(node);
  const limit = page ? ` LIMIT ${page.hi > page.lo ? 1 : 0} OFFSET ${rowCount(c.b, page.lo)}` : ' LIMIT 1';
  // json(): through ORDER BY ... LIMIT the JSON subtype may be lost (read-path-json.md, pitfall 2)
  return `json((SELECT ${json} ${hop.from} ${where} ORDER BY ${order}${limit}))`;
}

function toMany(c: JsonCompiler, hop: Hop, parent: string, node: PopulateNode, item: (alias: string) => string, nullWhenEmpty: boolean): string {
  const page = paging(node);
  const agg = (value: string, order: string) => (nullWhenEmpty ? `CASE WHEN COUNT(*) THEN json_group_array(${value} ORDER BY ${order}) END` : `json_group_array(${value} ORDER BY ${order})`);
  if (!page) {
    const json = item(hop.alias);
    const order = orderOf(c, hop, node);
    return `(SELECT ${agg(json, order)} ${hop.from} ${linkWhere(c, hop, parent, node)})`;
  }
  const json = item(hop.alias);
  const order = orderOf(c, hop, node);
  const inner = `SELECT ${json} AS j, ROW_NUMBER() OVER (ORDER BY ${order}) AS rn ${hop.from} ${linkWhere(c, hop, parent, node)}`;
  return `(SELECT ${agg('json(x.j)', 'x.rn')} FROM (${inner}) x WHERE x.rn > ${c.b.param(page.lo)} AND x.rn <= ${c.b.param(page.hi)})`;
}

/** `count`: the number of linked rows passing the node's filters */
function counted(c: JsonCompiler, ct: ContentType, parent: string, attr: Attribute, node: PopulateNode): string {
  const hop = hopFor(c.b, c.model, ct, attr);
  const n = `(SELECT COUNT(*) ${hop.from} ${linkWhere(c, hop, parent, node)})`;
  return attr.kind === 'component' ? `json_object('count', ${n})` : `json_object('attributes', json_object('count', ${n}))`;
}

/**
 * A dynamic zone: one branch per component type (its own fields, filters and population), merged in link
 * order; the JS path sorts by (order, link id) with a missing order taken as 0.
 */
function dynamicZone(c: JsonCompiler, ct: ContentType, parent: string, attr: Attribute & { kind: 'dynamiczone' }, node: PopulateNode): string {
  const branches: string[] = [];
  for (const uid of attr.components) {
    const on = node.on?.[uid];
    if (node.on && !on) continue;
    const sub: PopulateNode = on === true || on === undefined ? {} : on;
    const hop = hopFor(c.b, c.model, ct, attr, uid);
    const json = flatJson(c, hop.target, hop.alias, { select: sub.select, populate: sub.populate ?? node.populate }, true);
    const l = hop.linkAlias;
    const where = linkWhere(c, hop, parent, { where: sub.where });
    branches.push(`SELECT ${json} AS j, COALESCE(${l}.${c.b.q('order')}, 0) AS o, ${l}.id AS k ${hop.from} ${where}`);
  }
  if (!branches.length) return `json_array()`;
  return `(SELECT json_group_array(json(u.j) ORDER BY u.o, u.k) FROM (${branches.join(' UNION ALL ')}) u)`;
}
