// The page of a list: its entries' ids, in its order, as a subquery `SELECT <id> AS id ...` that the caller joins
// to the entry table (read-json.ts for REST; compileWalkedPage for the JavaScript path, read-entities.ts). Usually the filtered,
// sorted, limited entry table; a page of one target's entries (a category page) walks the link index instead.
import type { ContentType, Model } from '../model/types';
import type { FindParams } from '../query/types';
import { compileOrderBy, idOnlyOrder } from './compile-order';
import { compileWhere, relationWalk, type RelationWalk } from './compile-where';
import type { Dialect } from './dialect';
import { entityReader } from './entity-reader';
import { ROOT, rowCount, type PageStatement } from './read-statements';
import { SqlBuilder } from './sql-builder';

/** the caller's forms: how the page joins a table (SQLite: CROSS JOIN keeps the page first), its LIMIT clause */
export interface PageForm {
  join: string;
  limit(b: SqlBuilder, limit: number | undefined, offset: number | undefined): string;
}

/** a category page's walk (relationWalk), where the page has a size and is in id order */
function walkOf(dialect: Dialect, model: Model, ct: ContentType, params: FindParams): { walk: RelationWalk; direction: 'asc' | 'desc'; limit: number } | undefined {
  const direction = idOnlyOrder(params.orderBy);
  // a page of a known size only: the plan is chosen through its LIMIT
  if (!direction || params.limit === undefined || params.limit < 0) return undefined;
  const walk = relationWalk(dialect, model, ct, params.where);
  return walk && { walk, direction, limit: params.limit };
}

/** the page's ids, in its order: `SELECT <id> AS id ...` */
export function pageIds(b: SqlBuilder, model: Model, ct: ContentType, params: FindParams, form: PageForm): string {
  const walk = walkOf(b.dialect, model, ct, params);
  if (walk) return walkedOrListed(b, model, ct, params, form.join, walk.walk, walk.direction, walk.limit);
  const table = b.q(ct.collectionName);
  const where = compileWhere(b, model, ct, ROOT, params.where);
  const pageOrder = compileOrderBy(b, model, ct, ROOT, params.orderBy);
  return `SELECT ${ROOT}.id AS id FROM ${table} ${ROOT}${where ? ` WHERE ${where}` : ''} ORDER BY ${pageOrder}${form.limit(b, params.limit, params.offset)}`;
}

/** the JavaScript path's page statement for a category page (undefined: read-statements.ts compilePage's) */
export function compileWalkedPage(dialect: Dialect, model: Model, ct: ContentType, params: FindParams): PageStatement | undefined {
  const walk = walkOf(dialect, model, ct, params);
  if (!walk) return undefined;
  const b = new SqlBuilder(dialect);
  const reader = entityReader(dialect, ct, params.select);
  const join = dialect.name === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  const page = walkedOrListed(b, model, ct, params, join, walk.walk, walk.direction, walk.limit);
  const order = compileOrderBy(b, model, ct, ROOT, params.orderBy);
  const table = b.q(ct.collectionName);
  return { sql: `SELECT ${reader.columns(ROOT)} FROM (${page}) p ${join} ${table} ${ROOT} ON ${ROOT}.id = p.id ORDER BY ${order}`, params: b.params, reader };
}

/**
 * A category page (compile-where.ts relationWalk) in one statement with two plans, each behind a LIMIT that is
 * the page size or 0 depending on the number of targets the filter names; both databases compute a LIMIT before
 * reading a row and read nothing for 0 (a condition in WHERE would not stop SQLite from building the IN list).
 * Exactly one target: the page walks its links on the (target, entry) index in entry-id order and stops at the
 * page's end (tessera-indexes.ts `inv_own`; 100k articles, 3,590 in the category: 0.56 -> 0.03 ms, and the
 * usual plan grows with the category). None or several: the usual plan. Without the index the walk sorts the
 * target's links, as much as the usual plan reads anyway.
 */
function walkedOrListed(b: SqlBuilder, model: Model, ct: ContentType, params: FindParams, join: string, walk: RelationWalk, direction: 'asc' | 'desc', limit: number): string {
  const table = b.q(ct.collectionName);
  const oneTarget = () => `(SELECT COUNT(*) FROM (${walk.targets(b)} LIMIT 2) k) = 1`;
  const pageOf = (when: 'one' | 'other') => {
    const guard = oneTarget();
    return ` LIMIT CASE WHEN ${guard} THEN ${when === 'one' ? rowCount(b, limit) : '0'} ELSE ${when === 'one' ? '0' : rowCount(b, limit)} END`
      + (params.offset ? ` OFFSET ${rowCount(b, params.offset)}` : '');
  };
  const l = b.alias();
  const parent = `${l}.${b.q(walk.parentColumn)}`;
  const target = walk.targets(b);
  const rest = walk.rest(b, ROOT);
  const walked = `SELECT DISTINCT ${parent} AS id FROM ${b.q(walk.link)} ${l} ${join} ${table} ${ROOT} ON ${ROOT}.id = ${parent} `
    + `WHERE ${l}.${b.q(walk.targetColumn)} = (${target} LIMIT 1)${rest ? ` AND (${rest})` : ''} ORDER BY ${parent} ${direction.toUpperCase()}${pageOf('one')}`;
  const where = compileWhere(b, model, ct, ROOT, params.where);
  const pageOrder = compileOrderBy(b, model, ct, ROOT, params.orderBy);
  const listed = `SELECT ${ROOT}.id AS id FROM ${table} ${ROOT} WHERE ${where} ORDER BY ${pageOrder}${pageOf('other')}`;
  return `SELECT id FROM (${walked}) w UNION ALL SELECT id FROM (${listed}) v`;
}
