// The statements of the JavaScript read path (read-entities.ts runs them): the page, the count, and one
// batched statement per populated attribute. Each is compiled without the parent ids, which are bound
// per run into `slot` (one list parameter), so a compiled statement serves every page of its shape.
import type { Attribute, ContentType, Model } from '../model/types';
import type { FindParams, PopulateNode, Where } from '../query/types';
import type { Dialect, SqlValue } from './dialect';
import { compileOrderBy } from './compile-order';
import { compileWhere } from './compile-where';
import { countKey } from './count-cache';
import { entityReader, type EntityReader } from './entity-reader';
import { hopFor, type Hop } from './hops';
import { SqlBuilder } from './sql-builder';

export const ROOT = 't0';

export interface Statement {
  sql: string;
  params: SqlValue[];
}

export interface PageStatement extends Statement {
  reader: EntityReader;
}

export interface CountStatement extends Statement {
  /** its key in count-cache.ts */
  key: string;
}

/** a statement over the rows linked to a set of parents, whose ids go into `params[slot]` */
export interface LinkedStatement extends Statement {
  slot: number;
  hop: Hop;
  reader: EntityReader;
}

/** the parameters of `s` with `ids` in its slot */
export function bindParents(dialect: Dialect, s: LinkedStatement | (Statement & { slot: number }), ids: readonly number[]): SqlValue[] {
  const values = s.params.slice();
  values[s.slot] = dialect.listValue(ids);
  return values;
}

/**
 * A row count for LIMIT / OFFSET: a parameter behind a unary plus. A bare LIMIT parameter costs a whole
 * new prepare on every run: SQLite's planner reads its value, so binding it (as every run does) expires
 * the statement (measured: 480 µs per run of the populate=* statement, 15 µs for a plain page). `+?`
 * keeps the planner from reading it; one prepared statement serves every page size and page.
 */
export function rowCount(b: SqlBuilder, n: number): string {
  return b.dialect.rowCount(b.param(n));
}

/** ` LIMIT n OFFSET m` as v4 pages: no limit but an offset is the dialect's `noLimit` */
export function limitClause(b: SqlBuilder, limit: number | undefined, offset: number | undefined): string {
  let sql = '';
  if (limit !== undefined && limit >= 0) sql += ` LIMIT ${rowCount(b, limit)}`;
  else if (offset) sql += b.dialect.noLimit;
  if (offset) sql += ` OFFSET ${rowCount(b, offset)}`;
  return sql;
}

export function compilePage(dialect: Dialect, model: Model, ct: ContentType, params: FindParams): PageStatement {
  const b = new SqlBuilder(dialect);
  const reader = entityReader(dialect, ct, params.select);
  const where = compileWhere(b, model, ct, ROOT, params.where);
  const order = compileOrderBy(b, model, ct, ROOT, params.orderBy);
  const sql = `SELECT ${reader.columns(ROOT)} FROM ${b.q(ct.collectionName)} ${ROOT}${where ? ` WHERE ${where}` : ''} ORDER BY ${order}${limitClause(b, params.limit, params.offset)}`;
  return { sql, params: b.params, reader };
}

/** `SELECT COUNT(*) AS n FROM <table> t0 [WHERE ...]` with its parameters */
export function countSql(b: SqlBuilder, model: Model, ct: ContentType, where: Where | undefined, alias = ROOT): string {
  const w = compileWhere(b, model, ct, alias, where);
  return `SELECT COUNT(*) AS n FROM ${b.q(ct.collectionName)} ${alias}${w ? ` WHERE ${w}` : ''}`;
}

export function compileCount(dialect: Dialect, model: Model, ct: ContentType, where: Where | undefined): CountStatement {
  const b = new SqlBuilder(dialect);
  const sql = countSql(b, model, ct, where);
  return { sql, params: b.params, key: countKey(sql, b.params) };
}

/** `<link to the parents> [AND (<filters>)]`, with the slot of the parents' ids */
function linkCondition(b: SqlBuilder, model: Model, hop: Hop, node: PopulateNode): { sql: string; slot: number } {
  let slot = -1;
  const link = hop.link((e) => {
    const p = b.list([]);
    slot = b.params.length - 1;
    return b.dialect.inList(e, p);
  }, true);
  const where = compileWhere(b, model, hop.target, hop.alias, node.where);
  return { sql: `${link}${where ? ` AND (${where})` : ''}`, slot };
}

/**
 * The rows `attr` links to the parents, with `__parent` (and `__order`, `__link` for polymorphic
 * items), ordered per parent; per-parent paging numbers the rows within each parent.
 */
export function compileLinked(dialect: Dialect, model: Model, ct: ContentType, attr: Attribute, node: PopulateNode, componentUid?: string, tag?: '__component' | '__type'): LinkedStatement {
  const b = new SqlBuilder(dialect);
  const hop = hopFor(b, model, ct, attr, componentUid);
  const reader = entityReader(dialect, hop.target, node.select, tag);
  const cond = linkCondition(b, model, hop, node);
  const order = node.orderBy ? compileOrderBy(b, model, hop.target, hop.alias, node.orderBy) : `${hop.orderExpr ?? `${hop.alias}.id`}`;
  const cols = [`${hop.parentExpr} AS __parent`, ...hop.extra, reader.columns(hop.alias)].join(', ');
  let sql: string;
  if (node.limit !== undefined || node.offset) {
    const lo = Math.max(0, node.offset ?? 0);
    const hi = node.limit !== undefined && node.limit >= 0 ? lo + node.limit : Number.MAX_SAFE_INTEGER;
    sql = `SELECT * FROM (SELECT ${cols}, ROW_NUMBER() OVER (PARTITION BY ${hop.parentExpr} ORDER BY ${order}) AS __rn ${hop.from} WHERE ${cond.sql}) p WHERE __rn > ${b.param(lo)} AND __rn <= ${b.param(hi)} ORDER BY __parent, __rn`;
  } else {
    sql = `SELECT ${cols} ${hop.from} WHERE ${cond.sql} ORDER BY ${hop.parentExpr}, ${order}`;
  }
  return { sql, params: b.params, slot: cond.slot, hop, reader };
}

/** `count` of a populated attribute: linked rows per parent */
export function compileLinkedCount(dialect: Dialect, model: Model, ct: ContentType, attr: Attribute, node: PopulateNode): Statement & { slot: number } {
  const b = new SqlBuilder(dialect);
  const hop = hopFor(b, model, ct, attr);
  const cond = linkCondition(b, model, hop, node);
  return { sql: `SELECT ${hop.parentExpr} AS __parent, COUNT(*) AS n ${hop.from} WHERE ${cond.sql} GROUP BY ${hop.parentExpr}`, params: b.params, slot: cond.slot };
}
