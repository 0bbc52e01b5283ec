// The JSON compile target: SQL expressions that make the database write an entry in v4's REST shape, its
// populated relations, media, components and dynamic zones included, through correlated subqueries. It
// follows read-entities.ts (the JavaScript path, the reference) step for step: the same hops, filters,
// sorts, per-parent limits and order ties, so both give the same response (test/integration/read-path/
// compares them on every read shape). Shapes it does not cover throw JsonUnsupported and are answered by
// the JavaScript path. One structure for both dialects: what differs (how an object, an array, a value is
// written) is the dialect's JsonSql: SQLite's in json-values.ts, PostgreSQL's in postgres/pg-json.ts.
import type { Attribute, ContentType, Model, ScalarAttribute } from '../model/types';
import type { PopulateNode } from '../query/types';
import { compileOrderBy } from './compile-order';
import { compileWhere } from './compile-where';
import { selectedAttributes } from './entity-reader';
import { hopFor, type Hop } from './hops';
import { isMediaMorph } from './media-morph';
import { normalizePopulate } from './read-entities';
import { rowCount } from './read-statements';
import type { SqlBuilder } from './sql-builder';

export class JsonUnsupported extends Error {}

/** a page holding a number JavaScript would write differently: answered by the JavaScript path */
export class RiskyNumber extends Error {}

/** a SQL string literal (keys and uids come from the model; quotes doubled all the same) */
export function lit(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** (key, JSON value expression) */
export type JsonPair = readonly [key: string, value: string];

/**
 * How one dialect writes JSON in SQL. Every expression it returns is a JSON value in the dialect's own
 * representation (SQLite: a value with the JSON subtype; PostgreSQL: JSON text, never NULL).
 */
export interface JsonSql {
  /** `{ key: value, ... }`, keys in the order given */
  object(pairs: readonly JsonPair[]): string;
  /** a string (keys and uids of the model) */
  string(s: string): string;
  /** an integer expression that is never NULL (ids, counts) */
  integer(expr: string): string;
  /** a scalar subquery selecting one JSON value; no row: null */
  one(subquery: string): string;
  /** an aggregate of `value` ordered by `order`: an array, or null when empty and `nullWhenEmpty` */
  array(value: string, order: string, nullWhenEmpty: boolean): string;
  /** a JSON value read back from a subquery's column */
  passed(column: string): string;
  /** `[]` */
  readonly emptyArray: string;
  /** the value of a scalar attribute of the row `alias` of `table`, exactly as values.ts fromDb converts it */
  value(attr: ScalarAttribute, alias: string, table: string): string;
  /** a filtered page's total counted from the page's own matches (read-json.ts countedOnce): numbered placeholders */
  readonly matchesOnce: boolean;
  /** how the page of ids joins the entry table (SQLite: CROSS JOIN keeps the page first) */
  readonly pageJoin: string;
  /** ` LIMIT n OFFSET m` of the page of ids */
  pageLimit(b: SqlBuilder, limit: number | undefined, offset: number | undefined): string;
  /** an entry's text as the database wrote it -> as sent; throws RiskyNumber where the JavaScript path must answer */
  finish(text: string): string;
  /** what else the compiled SQL depends on, in compiled-statement keys (PostgreSQL: the time zone) */
  readonly key: string;
}

export interface JsonCompiler {
  b: SqlBuilder;
  model: Model;
  j: JsonSql;
}

/** the scalars (in the order `select` names them), then the populated attributes, in the JS path's key order */
function pairs(c: JsonCompiler, ct: ContentType, alias: string, node: PopulateNode): JsonPair[] {
  const out: JsonPair[] = selectedAttributes(ct, node.select).map((a) => [a.name, c.j.value(a, alias, ct.collectionName)]);
  if (node.populate) {
    for (const [name, sub] of normalizePopulate(ct, node.populate)) {
      const value = populated(c, ct, alias, ct.attributes[name], sub);
      if (value !== null) out.push([name, value]);
    }
  }
  return out;
}

/** an entry: `{ id, attributes: {...} }` */
export function entryJson(c: JsonCompiler, ct: ContentType, alias: string, node: PopulateNode): string {
  return c.j.object([['id', c.j.integer(`${alias}.id`)], ['attributes', c.j.object(pairs(c, ct, alias, node))]]);
}

/** a component or a dynamic-zone item: flat, `{ id[, __component], ...fields }` */
function flatJson(c: JsonCompiler, ct: ContentType, alias: string, node: PopulateNode, tagged: boolean): string {
  const id: JsonPair = ['id', c.j.integer(`${alias}.id`)];
  const head: JsonPair[] = tagged ? [id, ['__component', c.j.string(ct.uid)]] : [id];
  return c.j.object([...head, ...pairs(c, ct, alias, node)]);
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
  const wrap = (v: string) => (attr.kind === 'component' ? v : c.j.object([['data', v]]));
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
  return c.j.one(`SELECT ${json} ${hop.from} ${where} ORDER BY ${order}${limit}`);
}

function toMany(c: JsonCompiler, hop: Hop, parent: string, node: PopulateNode, item: (alias: string) => string, nullWhenEmpty: boolean): string {
  const page = paging(node);
  if (!page) {
    const json = item(hop.alias);
    const order = orderOf(c, hop, node);
    return `(SELECT ${c.j.array(json, order, nullWhenEmpty)} ${hop.from} ${linkWhere(c, hop, parent, node)})`;
  }
  const json = item(hop.alias);
  const order = orderOf(c, hop, node);
  const inner = `SELECT ${json} AS j, ROW_NUMBER() OVER (ORDER BY ${order}) AS rn ${hop.from} ${linkWhere(c, hop, parent, node)}`;
  return `(SELECT ${c.j.array(c.j.passed('x.j'), 'x.rn', nullWhenEmpty)} FROM (${inner}) x WHERE x.rn > ${c.b.param(page.lo)} AND x.rn <= ${c.b.param(page.hi)})`;
}

/** `count`: the number of linked rows passing the node's filters */
function counted(c: JsonCompiler, ct: ContentType, parent: string, attr: Attribute, node: PopulateNode): string {
  const hop = hopFor(c.b, c.model, ct, attr);
  const n = `(SELECT COUNT(*) ${hop.from} ${linkWhere(c, hop, parent, node)})`;
  const count = c.j.object([['count', c.j.integer(n)]]);
  return attr.kind === 'component' ? count : c.j.object([['attributes', count]]);
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
  if (!branches.length) return c.j.emptyArray;
  return `(SELECT ${c.j.array(c.j.passed('u.j'), 'u.o, u.k', false)} FROM (${branches.join(' UNION ALL ')}) u)`;
}
