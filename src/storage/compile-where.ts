// A v4 `where` tree -> one parameterised SQL condition that selects exactly the rows v4 selects.
//
// v4 LEFT JOINs every relation (component, media) named in a where tree, once per mention, and keeps an
// entry when ANY combination of its joined rows makes the whole condition TRUE; an entry without related
// rows joins a single all-NULL row. We keep that meaning without the joins (which multiply rows and need
// DISTINCT): negations are pushed down to the leaves (De Morgan holds in SQL's three-valued logic), after
// which "some combination" distributes over AND/OR, so each relation becomes
//   id IN (entries with a related row satisfying its sub-condition)
//   [ OR id NOT IN (entries with any related row) ]   -- only when the sub-condition is TRUE on the all-NULL row
// That is why `$not` over a relation still requires a related row (v4: NULL is not "not equal"), and
// `filters[author][name][$null]=true` also matches entries without an author, as in v4.
import type { Attribute, ContentType, Model, ScalarAttribute } from '../model/types';
import { OPERATOR_SET, type Where } from '../query/types';
import type { Dialect, SqlValue } from './dialect';
import { hopFor, type Hop } from './hops';
import { searchTableOf, trigramQuery } from './schema/tessera-search';
import { SqlBuilder } from './sql-builder';
import { toDb } from './values';

export class WhereError extends Error {}

/** SQL's three truth values; `T` for a part that compiled to no condition at all. */
type Truth = 'T' | 'F' | 'U';
/** a compiled part and its truth on an all-NULL row (a relation without related rows) */
interface Part {
  sql: string;
  nullTruth: Truth;
}

const NONE: Part = { sql: '', nullTruth: 'T' };

export const ID_ATTR: ScalarAttribute = {
  kind: 'scalar', name: 'id', type: 'integer', column: 'id', unique: true,
  private: false, required: false, writable: false, localized: true, raw: { type: 'integer' },
};

/**
 * An object literal (or one without a prototype): a where node or an operator map. Anything else project code
 * passes (a Date, a Number or String object, a class instance) is a value, as in v4 (lodash isPlainObject).
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** v4's BooleanField.toDB: the usual spellings, then JavaScript truthiness ('' is false, 'no' is true). */
export function v4Boolean(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 't' || v === '1' || v === 1) return true;
  if (v === 'false' || v === 'f' || v === '0' || v === 0) return false;
  return Boolean(v);
}

const not = (t: Truth): Truth => (t === 'T' ? 'F' : t === 'F' ? 'T' : 'U');
const and = (a: Truth, b: Truth): Truth => (a === 'F' || b === 'F' ? 'F' : a === 'T' && b === 'T' ? 'T' : 'U');
const or = (a: Truth, b: Truth): Truth => (a === 'T' || b === 'T' ? 'T' : a === 'F' && b === 'F' ? 'F' : 'U');

/** AND (or OR) of parts; empty parts are dropped, as knex drops empty groups. */
function join(parts: Part[], op: 'AND' | 'OR'): Part {
  let first: Part | undefined;
  let sql = '';
  let truth: Truth = 'T';
  let n = 0;
  for (const p of parts) {
    if (!p.sql) continue;
    if (n === 0) {
      first = p;
      truth = p.nullTruth;
      sql = `(${p.sql})`;
    } else {
      truth = op === 'AND' ? and(truth, p.nullTruth) : or(truth, p.nullTruth);
      sql += ` ${op} (${p.sql})`;
    }
    n++;
  }
  if (n === 0) return NONE;
  return n === 1 ? first! : { sql, nullTruth: truth };
}

/** a leaf condition on one column, negated when the path to it had an odd number of negations */
function leaf(sql: string, nullTruth: Truth, neg: boolean): Part {
  return neg ? { sql: `NOT (${sql})`, nullTruth: not(nullTruth) } : { sql, nullTruth };
}

function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value)) return Object.values(value); // qs turns long arrays into objects with numeric keys
  return value === undefined || value === null ? [] : [value];
}

export function compileWhere(b: SqlBuilder, model: Model, ct: ContentType, alias: string, where: Where | undefined): string {
  if (!where || (typeof where !== 'object')) return '';
  return node({ b, model }, ct, alias, where, false).sql;
}

interface Ctx {
  b: SqlBuilder;
  model: Model;
}

/** an entity-level where (object: AND of its keys; array: AND of its items) */
function node(c: Ctx, ct: ContentType, alias: string, where: unknown, neg: boolean): Part {
  if (Array.isArray(where)) return join(where.map((w) => node(c, ct, alias, w, neg)), neg ? 'OR' : 'AND');
  if (!isPlainObject(where)) throw new WhereError('Where must be an array or an object');
  const parts: Part[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value !== undefined) parts.push(keyPart(c, ct, alias, key, value, neg));
  }
  return join(parts, neg ? 'OR' : 'AND');
}

function keyPart(c: Ctx, ct: ContentType, alias: string, key: string, value: unknown, neg: boolean): Part {
  if (key === '$and' || key === '$or') {
    const conj = (key === '$and') !== neg ? 'AND' : 'OR';
    return join(listOf(value).map((w) => node(c, ct, alias, w, neg)), conj);
  }
  if (key === '$not') return node(c, ct, alias, value, !neg);
  if (key.startsWith('$')) throw new WhereError(`Only $and, $or and $not can be used as root level operators. Found ${key}.`);
  const attr = key === 'id' ? ID_ATTR : ct.attributes[key] ?? columnAttribute(ct, key);
  if (!attr) throw new WhereError(`Invalid key ${key}`);
  if (attr.kind === 'scalar') return scalarPart(c.b, attr, `${alias}.${c.b.q(attr.column)}`, value, neg, { model: c.model, table: ct.collectionName, alias, column: attr.column });
  return relationPart(c, ct, alias, attr, value, neg);
}

/**
 * v4's query engine takes a key naming no attribute as a column of the table (strapi-plugin-navigation's
 * `{ published_at: { $notNull: true } }`): the scalar attribute stored in that column
 */
function columnAttribute(ct: ContentType, column: string): Attribute | undefined {
  for (const attr of Object.values(ct.attributes)) if (attr.kind === 'scalar' && attr.column === column) return attr;
  return undefined;
}

/** v4's relation where forms: `3`, `[1, 2]`, `{ $in: [..] }`, `{ $null: true }` apply to the target's id */
function isIdCondition(value: unknown): boolean {
  if (!isPlainObject(value)) return true;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => OPERATOR_SET.has(k));
}

function relationWhere(value: unknown): Where {
  if (isIdCondition(value)) return { id: value };
  const rest: Where = {};
  const idOps: Where = {};
  for (const [k, v] of Object.entries(value as Where)) {
    if (!k.startsWith('$') || k === '$and' || k === '$or' || (k === '$not' && !isIdCondition(v))) rest[k] = v;
    else idOps[k] = v;
  }
  if (Object.keys(idOps).length === 0) return rest;
  return Object.keys(rest).length === 0 ? { id: idOps } : { $and: [{ id: idOps }, rest] };
}

/** `{ id: null | { $null } | { $notNull } }`: whether the entry has related rows at all; else undefined */
function wantsMissing(sub: Where): boolean | undefined {
  const keys = Object.keys(sub);
  if (keys.length !== 1 || keys[0] !== 'id') return undefined;
  const v = sub.id;
  if (v === null) return true;
  if (!isPlainObject(v)) return undefined;
  const ops = Object.keys(v);
  if (ops.length !== 1) return undefined;
  if (ops[0] === '$null') return Boolean(v.$null);
  if (ops[0] === '$notNull') return !v.$notNull;
  return undefined;
}

function relationPart(c: Ctx, ct: ContentType, alias: string, attr: Attribute, value: unknown, neg: boolean): Part {
  if (attr.kind === 'dynamiczone' || (attr.kind === 'relation' && attr.relation.startsWith('morph'))) {
    throw new WhereError(`Invalid key ${attr.name}`);
  }
  const sub = relationWhere(value);
  const missing = wantsMissing(sub);
  if (missing !== undefined) {
    const none = missing !== neg;
    return { sql: `${alias}.id ${none ? 'NOT IN' : 'IN'} ${withRelated(hopFor(c.b, c.model, ct, attr))}`, nullTruth: none ? 'T' : 'F' };
  }
  const hop = hopFor(c.b, c.model, ct, attr);
  // no `<parent id> IS NOT NULL` here: the IN is never negated, so a NULL parent id changes nothing, and the
  // condition would make SQLite walk the link table's whole (parent, target) index instead of reading the
  // matching targets' links through their own index (1M articles: 241 ms -> 25 ms for a page; issue 22)
  const link = hop.link(anyParent); // parameters in text order: the link's, then the condition's
  const inner = node(c, hop.target, hop.alias, sub, neg);
  const conditions = [link, inner.sql && `(${inner.sql})`].filter(Boolean).join(' AND ');
  const some = `${alias}.id IN (SELECT ${hop.parentExpr} ${hop.from}${conditions ? ` WHERE ${conditions}` : ''})`;
  if (inner.nullTruth !== 'T') return { sql: some, nullTruth: inner.nullTruth };
  // the sub-condition holds on the all-NULL row v4 joins for an entry without related rows
  return { sql: `${some} OR ${alias}.id NOT IN ${withRelated(hopFor(c.b, c.model, ct, attr))}`, nullTruth: 'T' };
}

/**
 * A where tree that is a conjunction of ONE relation filter kept in a link table and conditions on the entry's
 * publication state and locale only: a "category page" (`filters[categories][slug][$eq]=x` under `live`). Its
 * page can walk the link table's (target, entry) index in entry-id order when the filter names exactly one
 * target: page-ids.ts builds that plan beside the usual one and the statement picks (issue 22: the usual
 * `id IN (...)` reads every match, 40k links of one category among 1M articles, to return 25).
 */
export interface RelationWalk {
  link: string;
  /** the link's column of the entry's id, and of the target's */
  parentColumn: string;
  targetColumn: string;
  /** `SELECT <target>.id FROM <target> WHERE <the filter>`: binds its parameters on `b` when called */
  targets(b: SqlBuilder): string;
  /** the other conditions, on the entry aliased `alias` ('' when none): binds on `b` when called */
  rest(b: SqlBuilder, alias: string): string;
}

/** the entry attributes a walked page may also filter on: checked row by row on the walked entries */
const WALK_REST = new Set(['publishedAt', 'locale']);

/** the `key: value` pairs an AND of `where` consists of; undefined when it has an `$or` or a `$not` */
function conjuncts(where: unknown, out: Array<[string, unknown]> = []): Array<[string, unknown]> | undefined {
  if (Array.isArray(where)) {
    for (const w of where) if (!conjuncts(w, out)) return undefined;
    return out;
  }
  if (!isPlainObject(where)) return undefined;
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    if (key === '$and') {
      if (!conjuncts(listOf(value), out)) return undefined;
    } else if (key.startsWith('$')) return undefined;
    else out.push([key, value]);
  }
  return out;
}

export function relationWalk(dialect: Dialect, model: Model, ct: ContentType, where: Where | undefined): RelationWalk | undefined {
  const pairs = where ? conjuncts(where) : undefined;
  if (!pairs) return undefined;
  let relation: { attr: Attribute & { kind: 'relation' }; sub: Where } | undefined;
  const rest: Where[] = [];
  for (const [key, value] of pairs) {
    const attr = ct.attributes[key];
    if (attr?.kind === 'relation') {
      if (relation || !attr.joinTable || attr.joinColumn || attr.relation.startsWith('morph')) return undefined;
      const sub = relationWhere(value);
      if (wantsMissing(sub) !== undefined) return undefined;
      relation = { attr, sub };
    } else if (attr?.kind === 'scalar' && WALK_REST.has(attr.name)) rest.push({ [key]: value });
    else return undefined;
  }
  if (!relation) return undefined;
  const { attr, sub } = relation;
  const jt = attr.joinTable!;
  const targets = (b: SqlBuilder) => {
    const hop = hopFor(b, model, ct, attr);
    const inner = node({ b, model }, hop.target, hop.alias, sub, false);
    return `SELECT ${hop.alias}.id FROM ${b.q(hop.target.collectionName)} ${hop.alias}${inner.sql ? ` WHERE ${inner.sql}` : ''}`;
  };
  // a sub-condition TRUE on v4's all-NULL row also keeps entries without related rows: not a walk of links
  if (node({ b: new SqlBuilder(dialect), model }, model.require(attr.target), 't', sub, false).nullTruth === 'T') return undefined;
  return {
    link: jt.name, parentColumn: jt.joinColumn, targetColumn: jt.inverseJoinColumn, targets,
    rest: (b, alias) => (rest.length ? node({ b, model }, ct, alias, rest, false).sql : ''),
  };
}

const notNull = (parentExpr: string) => `${parentExpr} IS NOT NULL`;
const anyParent = () => '';

/**
 * `(SELECT <parent id> FROM <link> JOIN <target> ...)`: the entries with a related row. Not correlated with
 * the outer row, so SQLite builds it once per statement and, for a selective condition, reads the entry
 * table by id instead of probing every entry (measured: 100k entries, 0.4 ms instead of 60 ms).
 */
function withRelated(hop: Hop): string {
  return `(SELECT ${hop.parentExpr} ${hop.from} WHERE ${hop.link(notNull)})`;
}

/** the row a scalar condition reads: its table's substring index (storage/schema/tessera-search.ts) serves LIKE */
interface Site {
  model: Model;
  table: string;
  alias: string;
  column: string;
}

function scalarPart(b: SqlBuilder, attr: ScalarAttribute, col: string, value: unknown, neg: boolean, site?: Site): Part {
  if (value === null) return leaf(`${col} IS NULL`, 'T', neg);
  if (Array.isArray(value)) return opPart(b, attr, col, '$in', value, neg, site);
  if (!isPlainObject(value)) return opPart(b, attr, col, '$eq', value, neg, site);
  const parts: Part[] = [];
  for (const [op, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (op === '$not') parts.push(scalarPart(b, attr, col, v, !neg, site));
    else if (op === '$and' || op === '$or') {
      const conj = (op === '$and') !== neg ? 'AND' : 'OR';
      parts.push(join(listOf(v).map((x) => scalarPart(b, attr, col, x, neg, site)), conj));
    } else if (OPERATOR_SET.has(op)) parts.push(opPart(b, attr, col, op, v, neg, site));
    else throw new WhereError(`Undefined attribute level operator ${op}`);
  }
  return join(parts, neg ? 'OR' : 'AND');
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * A decimal number with optional sign, exponent and surrounding white space. Written so that each character
 * has one place to go (`\d+(\.\d*)?`, not `\d+\.?\d*`, which splits a run of digits every possible way
 * before failing: 8,000 digits and an `x` took 1.6 s), so it runs in linear time.
 */
export const NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * A number compared with a 32-bit integer column (`integer` attributes, ids on PostgreSQL) that the column type
 * cannot hold (a fraction, past 32 bits): compared as a number, as SQLite compares it, rather than refused by
 * PostgreSQL's cast of the parameter to the column's type.
 */
function beyondInt32(attr: ScalarAttribute, n: number): boolean {
  return (attr === ID_ATTR || attr.type === 'integer') && !(Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX);
}

/** a value bound for a comparison with the attribute's column */
function bind(b: SqlBuilder, attr: ScalarAttribute, value: unknown): string {
  if (value === null || value === undefined) return b.param(null);
  if (attr === ID_ATTR) {
    // v4 binds ids as given: SQLite's column affinity makes '12' equal 12, and 'abc' equal nothing
    if (typeof value === 'number' || typeof value === 'bigint') return numberParam(b, attr, Number(value), value);
    const s = String(value);
    return NUMERIC.test(s) ? numberParam(b, attr, Number(s), Number(s)) : b.param(s);
  }
  if ((attr.type === 'integer' || attr.type === 'float' || attr.type === 'decimal') && (typeof value === 'number' || (typeof value === 'string' && NUMERIC.test(value)))) {
    const n = Number(value);
    if (beyondInt32(attr, n)) return b.dialect.numericParam(b.param(n));
  }
  // a biginteger given as a number that is no integer text ('5.0', '1e3'): compared as a number (PostgreSQL would
  // refuse it as a bigint)
  if (attr.type === 'biginteger' && typeof value === 'string' && NUMERIC.test(value) && !/^\s*[+-]?\d+\s*$/.test(value)) {
    return b.dialect.numericParam(b.param(value.trim()));
  }
  if (attr.type === 'boolean') return b.param(b.dialect.booleanToDb(v4Boolean(value)));
  if (attr.type === 'biginteger' && !(typeof value === 'bigint' || /^\s*[+-]?\d+\s*$/.test(String(value)))) {
    return b.param(typeof value === 'number' ? value : String(value));
  }
  try {
    return b.param(toDb(b.dialect, attr.type, value) as SqlValue);
  } catch (e) {
    throw new WhereError(`Invalid value for ${attr.name}: ${(e as Error).message}`);
  }
}

/**
 * `col LIKE pattern`. Where the column has a substring index and the LIKE's truth counts only when TRUE (`indexed`:
 * no NOT above it, so FALSE for NULL where the LIKE gives NULL changes no answer: Kleene's AND and OR keep a TRUE
 * that an unknown gave), the index's candidates first: a look-up instead of a scan, the LIKE still deciding.
 */
function likePart(b: SqlBuilder, col: string, value: unknown, pattern: (s: string) => string, insensitive: boolean, indexed?: Site): string {
  const text = String(value);
  const search = indexed && b.dialect.name === 'sqlite' ? searchTableOf(indexed.model, indexed.table) : undefined;
  const match = search?.columns.has(indexed!.column) ? trigramQuery(text) : undefined;
  const candidates = match === undefined ? '' : `${indexed!.alias}.id IN ${search!.candidates(indexed!.column, b.param(match))} AND `;
  const p = b.param(pattern(escapeLike(text)));
  return candidates + (insensitive ? b.dialect.likeInsensitive(col, p, false) : b.dialect.likeDefault(col, p, false));
}

function numberParam(b: SqlBuilder, attr: ScalarAttribute, n: number, bound: number | bigint): string {
  return beyondInt32(attr, n) ? b.dialect.numericParam(b.param(bound)) : b.param(bound);
}

const ARRAY_OPERATORS = new Set(['$in', '$notIn', '$between']);

/** `negated`: whether a NOT stands above the condition in the statement (`neg`, or the NOT of a negated list) */
function opPart(b: SqlBuilder, attr: ScalarAttribute, col: string, op: string, value: unknown, neg: boolean, site?: Site, negated = neg): Part {
  if (Array.isArray(value) && !ARRAY_OPERATORS.has(op)) {
    // v4: a list given to a single-value operator means "any of them"; an empty list, no condition
    const any = join(value.map((x) => opPart(b, attr, col, op, x, false, site, neg)), 'OR');
    return any.sql && neg ? { sql: `NOT (${any.sql})`, nullTruth: not(any.nullTruth) } : any;
  }
  const [sql, nullTruth] = opSql(b, attr, col, op, value, negated ? undefined : site, negated ? site : undefined);
  return leaf(sql, nullTruth, neg);
}

/**
 * An id compared with a word ('abc'): SQLite compares the integer with the text (never equal; every integer sorts
 * before any text); PostgreSQL would refuse the cast, so there the id is compared as its text, which keeps both
 * (in the C collation digits sort before letters).
 */
function idAsWord(b: SqlBuilder, attr: ScalarAttribute, col: string, value: unknown): string {
  return attr === ID_ATTR && b.dialect.name !== 'sqlite' && typeof value === 'string' && !NUMERIC.test(value) ? `CAST(${col} AS TEXT)` : col;
}

/** `plain`: the row's site where the condition stands without NOT above it; `underNot`: where one NOT stands above */
function opSql(b: SqlBuilder, attr: ScalarAttribute, column: string, op: string, value: unknown, plain?: Site, underNot?: Site): [string, Truth] {
  const col = op === '$in' || op === '$notIn' || op === '$between' ? column : idAsWord(b, attr, column, value);
  switch (op) {
    case '$eq':
      return value === null ? [`${col} IS NULL`, 'T'] : [`${col} = ${bind(b, attr, value)}`, 'U'];
    case '$ne':
      return value === null ? [`${col} IS NOT NULL`, 'F'] : [`${col} <> ${bind(b, attr, value)}`, 'U'];
    case '$eqi':
      return value === null ? [`${col} IS NULL`, 'T'] : [`${b.dialect.lower(col)} = lower(${b.param(String(value))})`, 'U'];
    case '$nei':
      return value === null ? [`${col} IS NOT NULL`, 'F'] : [`NOT (${b.dialect.lower(col)} = lower(${b.param(String(value))}))`, 'U'];
    case '$lt': return [`${col} < ${bind(b, attr, value)}`, 'U'];
    case '$lte': return [`${col} <= ${bind(b, attr, value)}`, 'U'];
    case '$gt': return [`${col} > ${bind(b, attr, value)}`, 'U'];
    case '$gte': return [`${col} >= ${bind(b, attr, value)}`, 'U'];
    case '$in':
    case '$notIn': {
      let items = listOf(value === null ? [null] : value);
      // a word is no id: it equals none (SQLite compares it and finds none; PostgreSQL would refuse the cast)
      if (col !== idAsWord(b, attr, col, 'x')) items = items.filter((x) => typeof x !== 'string' || NUMERIC.test(x));
      if (items.length === 0) return op === '$in' ? ['1 = 0', 'F'] : ['1 = 1', 'T'];
      const list = items.map((x) => bind(b, attr, x)).join(', ');
      return [`${col} ${op === '$in' ? 'IN' : 'NOT IN'} (${list})`, 'U'];
    }
    case '$between': {
      const pair = listOf(value);
      if (pair.length !== 2) throw new WhereError(`$between needs two values for ${attr.name}`);
      return [`${col} BETWEEN ${bind(b, attr, pair[0])} AND ${bind(b, attr, pair[1])}`, 'U'];
    }
    case '$null':
      return value ? [`${col} IS NULL`, 'T'] : [`${col} IS NOT NULL`, 'F'];
    case '$notNull':
      return value ? [`${col} IS NOT NULL`, 'F'] : [`${col} IS NULL`, 'T'];
    // the index may serve a LIKE with no NOT above it: $contains without one, $notContains under one
    case '$contains': return [likePart(b, col, value, (s) => `%${s}%`, false, plain), 'U'];
    case '$notContains': return [`NOT (${likePart(b, col, value, (s) => `%${s}%`, false, underNot)})`, 'U'];
    case '$containsi': return [likePart(b, col, value, (s) => `%${s}%`, true, plain), 'U'];
    case '$notContainsi': return [`NOT (${likePart(b, col, value, (s) => `%${s}%`, true, underNot)})`, 'U'];
    case '$startsWith': return [likePart(b, col, value, (s) => `${s}%`, false, plain), 'U'];
    case '$startsWithi': return [likePart(b, col, value, (s) => `${s}%`, true, plain), 'U'];
    case '$endsWith': return [likePart(b, col, value, (s) => `%${s}`, false, plain), 'U'];
    case '$endsWithi': return [likePart(b, col, value, (s) => `%${s}`, true, plain), 'U'];
    default:
      throw new WhereError(`Undefined attribute level operator ${op}`);
  }
}
