// Reads through the JSON compile target: ONE statement returns the page's entries as JSON texts (v4's
// REST shape, population included) and, when asked, the total in a column; the caller writes the
// envelope. Compiled once per stable query (stable-queries.ts) and prepared once per SQL text, on SQLite
// and PostgreSQL alike (the dialect's JsonSql: json-values.ts, postgres/pg-json.ts). Returns null where the
// JavaScript path must answer: a shape json-entries.ts does not cover, a statement the database refused
// as compiled (SQLite: a value it cannot write as JSON; PostgreSQL: another writer's column type) or a
// number JavaScript writes differently (SQLite). Such a fallback is logged once per statement shape; any
// other error (the database's own, a client's) is thrown as the JavaScript path would throw it.
import pg from 'pg';
import type { ContentType, Model } from '../model/types';
import type { FindParams } from '../query/types';
import type { Database } from './dialect';
import { compileOrderBy } from './compile-order';
import { compileWhere } from './compile-where';
import { countKey, lookupCount } from './count-cache';
import { keptColumns, keptFigures, keptResult, keptTotal, type KeptFigures } from './kept-totals';
import { keptCounting } from './schema/tessera-counts';
import { entryJson, JsonUnsupported, RiskyNumber, type JsonSql } from './json-entries';
import { sqliteJson } from './json-values';
import { postgresJsonFor } from './postgres/pg-json';
import { pageIds } from './page-ids';
import { countSql, ROOT, type Statement } from './read-statements';
import { SqlBuilder } from './sql-builder';
import { compileOnce } from './stable-queries';

interface PagePlan {
  /** the page with the total in column `n` */
  counted: Statement;
  /** the page alone */
  plain: Statement;
  /** the count alone (an empty page) and its key in count-cache.ts */
  count: Statement;
  countKey: string;
  /** the page with the total the triggers keep in `n` and their check in `t` (kept-totals.ts), where they can answer */
  kept?: Statement & { expected: number };
}

interface OnePlan {
  statement: Statement;
  /** where the entry id goes in the parameters */
  idIndex: number;
}

/** after this many failed runs a plan is left to the JavaScript path for good */
const MAX_FAILURES = 3;

/** a compiled plan (null: a shape the JSON target does not cover) and its failed runs so far */
type Cached<T> = { plan: T | null; failures: number };

function compileOrNull<T>(compile: () => T): Cached<T> {
  try {
    return { plan: compile(), failures: 0 };
  } catch (err) {
    if (err instanceof JsonUnsupported) return { plan: null, failures: 0 };
    throw err;
  }
}

/**
 * The page of ids is taken on the entry table first (its filters, sort and limits), so the JSON is
 * written for the page's rows only; the outer query sorts those rows again (the order always ends with
 * the id, so it is the page's order). The total, when asked, is an uncorrelated subquery: run once.
 */
function pageStatement(db: Database, j: JsonSql, model: Model, ct: ContentType, params: FindParams, withCount: boolean | KeptFigures): Statement & { expected?: number } {
  const b = new SqlBuilder(db.dialect);
  const table = b.q(ct.collectionName);
  const entry = entryJson({ b, model, j }, ct, ROOT, { select: params.select, populate: params.populate });
  if (typeof withCount === 'object') {
    const kept = keptColumns(b, withCount.table, withCount.bucket);
    return { ...pagedEntries(b, model, ct, params, entry, table, j, `, (${kept.n}) AS n, ${kept.check} AS t`), expected: kept.expected };
  }
  // only for text matching, the filter that costs per row: a cheap filter matching most rows (the published ones of
  // a plain list) is faster counted and paged apart (measured: the list 2.7 -> 6.9 ms with the CTE); the probe is
  // compiled once per query shape (plans are kept)
  if (withCount && params.where && j.matchesOnce && / LIKE /.test(compileWhere(new SqlBuilder(db.dialect), model, ct, ROOT, params.where))) {
    return countedOnce(b, model, ct, params, entry, table, compileWhere(b, model, ct, ROOT, params.where), j);
  }
  return pagedEntries(b, model, ct, params, entry, table, j, withCount ? `, (${countSql(b, model, ct, params.where, 'c0')}) AS n` : '');
}

/** the page's entries, with the `total` columns (built on `b` before the page's own parameters) */
function pagedEntries(b: SqlBuilder, model: Model, ct: ContentType, params: FindParams, entry: string, table: string, j: JsonSql, total: string): Statement {
  const page = pageIds(b, model, ct, params, { join: j.pageJoin, limit: j.pageLimit });
  const order = compileOrderBy(b, model, ct, ROOT, params.orderBy);
  return { sql: `SELECT ${entry} AS j${total} FROM (${page}) p ${j.pageJoin} ${table} ${ROOT} ON ${ROOT}.id = p.id ORDER BY ${order}`, params: b.params };
}

/**
 * The filtered page and its total from one evaluation of the filter (PostgreSQL, where the total is counted on
 * every request): the matching ids are found once (a materialized CTE), counted, and the page taken among them.
 * Only the dialect's numbered placeholders allow the text order this gives the parameters.
 */
function countedOnce(b: SqlBuilder, model: Model, ct: ContentType, params: FindParams, entry: string, table: string, where: string, j: JsonSql): Statement {
  const pageOrder = compileOrderBy(b, model, ct, ROOT, params.orderBy);
  const page = `SELECT ${ROOT}.id AS id FROM ${table} ${ROOT} WHERE ${ROOT}.id IN (SELECT id FROM m) ORDER BY ${pageOrder}${j.pageLimit(b, params.limit, params.offset)}`;
  const order = compileOrderBy(b, model, ct, ROOT, params.orderBy);
  const matches = `WITH m AS MATERIALIZED (SELECT ${ROOT}.id FROM ${table} ${ROOT} WHERE ${where})`;
  return { sql: `${matches} SELECT ${entry} AS j, (SELECT COUNT(*) FROM m) AS n FROM (${page}) p ${j.pageJoin} ${table} ${ROOT} ON ${ROOT}.id = p.id ORDER BY ${order}`, params: b.params };
}

function pagePlan(db: Database, j: JsonSql, model: Model, ct: ContentType, params: FindParams): Cached<PagePlan> {
  return compileOnce(params, `json-page:${ct.uid}${j.key}`, false, () => compileOrNull(() => {
    const cb = new SqlBuilder(db.dialect);
    const count = { sql: countSql(cb, model, ct, params.where), params: cb.params };
    const figures = keptFigures(model, ct, params.where);
    return {
      counted: pageStatement(db, j, model, ct, params, true),
      plain: pageStatement(db, j, model, ct, params, false),
      count,
      countKey: countKey(count.sql, count.params),
      ...(figures ? { kept: pageStatement(db, j, model, ct, params, figures) as Statement & { expected: number } } : {}),
    };
  }));
}

export interface JsonPage {
  /** one JSON text per entry, in page order */
  entries: string[];
  total?: number;
}

/**
 * SQLite's result codes for a statement it refuses to run as compiled, or a value in it (a BLOB where JSON
 * goes, a JSON text too big): the JavaScript path reads the same rows without writing JSON. Every other
 * code is the database's own trouble (busy, I/O, corruption, a closed connection), which a second read
 * would meet too.
 */
const STATEMENT_CODES = new Set(['SQLITE_ERROR', 'SQLITE_TOOBIG', 'SQLITE_MISMATCH', 'SQLITE_RANGE']);

/**
 * PostgreSQL's classes of the same kind: 42 (syntax, an undefined function or operator, a type mismatch such
 * as a boolean attribute in another writer's integer column), 54 (a program limit: stack depth, too many
 * arguments) and 0A (not supported). Data errors (22: a client's value, which the JavaScript path binds
 * too), connection, resource, lock and cancel errors are the database's own.
 */
const POSTGRES_STATEMENT_CLASSES = /^(42|54|0A)/;

/** an error of the JSON target itself (answered by the JavaScript path), as opposed to one to throw */
function isJsonTargetError(err: unknown): err is Error {
  if (err instanceof RiskyNumber) return true;
  if (!(err instanceof Error)) return false;
  const code = String((err as { code?: unknown }).code);
  if (err.name === 'SqliteError') return STATEMENT_CODES.has(code);
  return err instanceof pg.DatabaseError && POSTGRES_STATEMENT_CLASSES.test(code);
}

/**
 * The dialect's JsonSql. PostgreSQL's depends on the process's time zone, checked once per database: a
 * promise only then (no await on the hot path).
 */
function jsonSqlOf(db: Database): JsonSql | Promise<JsonSql> {
  if (db.dialect.name === 'sqlite') return sqliteJson;
  return postgresJsonFor(db, (zone) => warn(db, new Error(`time zone ${zone}`), `JSON read path: PostgreSQL does not convert the process's time zone ${zone} as Node does (or does not know it): its datetimes are converted by JavaScript`));
}

export type JsonFallbackWarn = (err: Error, message: string) => void;

const warnings = new WeakMap<Database, JsonFallbackWarn>();

/** Where `db`'s JSON read fallbacks are logged (the instance's logger); unset: process warnings. */
export function onJsonFallback(db: Database, warn: JsonFallbackWarn): void {
  warnings.set(db, warn);
}

/** statement shapes already logged, per database; past this many the set starts again */
const MAX_LOGGED = 500;
const logged = new WeakMap<Database, Set<string>>();

/** one warning per statement shape (its SQL text: values are parameters), with the error */
function warnOnce(db: Database, ct: ContentType, sql: string, err: Error): void {
  let seen = logged.get(db);
  if (!seen) logged.set(db, (seen = new Set()));
  if (seen.has(sql)) return;
  if (seen.size >= MAX_LOGGED) seen.clear();
  seen.add(sql);
  const reason = err instanceof RiskyNumber ? 'a number JavaScript writes differently' : err.message;
  const message = `JSON read path: a read of ${ct.uid} was answered by the JavaScript path (${reason}); after ${MAX_FAILURES} such failures in a row its query shape stays there`;
  warn(db, err, message);
}

function warn(db: Database, err: Error, message: string): void {
  const log = warnings.get(db);
  if (log) log(err, message);
  else process.emitWarning(message, { code: 'TESSERA_JSON_FALLBACK' });
}

/** `shape`: the SQL text that names the plan's query shape in the log */
async function run<T, R>(db: Database, ct: ContentType, cached: Cached<T>, shape: (plan: T) => string, exec: (plan: T) => Promise<R>): Promise<R | null> {
  if (!cached.plan || cached.failures >= MAX_FAILURES) return null;
  try {
    const r = await exec(cached.plan);
    cached.failures = 0;
    return r;
  } catch (err) {
    if (!isJsonTargetError(err)) throw err;
    // e.g. a BLOB where JSON was expected: this request is answered by the JavaScript path
    cached.failures++;
    warnOnce(db, ct, shape(cached.plan), err);
    return null;
  }
}

/** A page of entries as JSON texts, with the total when `withCount`; null: use the JavaScript path. */
export async function findEntriesJson(db: Database, model: Model, ct: ContentType, params: FindParams, withCount: boolean): Promise<JsonPage | null> {
  const form = jsonSqlOf(db);
  const j = form instanceof Promise ? await form : form;
  return run(db, ct, pagePlan(db, j, model, ct, params), (plan) => plan.plain.sql, async (plan) => {
    const cache = withCount ? lookupCount(db, plan.countKey) : undefined;
    const counting = cache !== undefined && cache.total === undefined;
    // a total the triggers keep is read with the page instead of counted (unless they turned out gone since)
    const kept = counting && plan.kept && keptCounting(model, ct.collectionName) ? plan.kept : undefined;
    const s = kept ?? (counting ? plan.counted : plan.plain);
    // the figures table gone behind Tessera's back fails the statement: counted instead, until the next start
    let rows = await db.all<{ j: string; n?: number; t?: number }>(s.sql, s.params).catch((err: unknown) => {
      if (!kept) throw err;
      return [{ j: '', n: undefined, t: -1 }] as Array<{ j: string; n?: number; t?: number }>;
    });
    let total: number | undefined;
    if (kept && rows.length) {
      total = keptResult(model, ct, rows[0], kept.expected);
      if (total === undefined) rows = await db.all<{ j: string; n?: number }>(plan.counted.sql, plan.counted.params);
    }
    const entries = rows.map((r) => j.finish(r.j));
    if (!cache) return { entries };
    if (!counting) return { entries, total: cache.total };
    // an empty page has no row to carry the total
    total ??= rows.length ? Number(rows[0].n) : (await keptTotal(db, model, ct, params.where)) ?? Number((await db.get<{ n: number }>(plan.count.sql, plan.count.params))?.n ?? 0);
    cache.store(total);
    return { entries, total };
  });
}

function onePlan(db: Database, j: JsonSql, model: Model, ct: ContentType, params: FindParams): Cached<OnePlan> {
  return compileOnce(params, `json-one:${ct.uid}${j.key}`, false, () => compileOrNull(() => {
    const b = new SqlBuilder(db.dialect);
    const entry = entryJson({ b, model, j }, ct, ROOT, { select: params.select, populate: params.populate });
    const id = b.param(0);
    const idIndex = b.params.length - 1;
    const where = compileWhere(b, model, ct, ROOT, params.where);
    const sql = `SELECT ${entry} AS j FROM ${b.q(ct.collectionName)} ${ROOT} WHERE ${ROOT}.id = ${id}${where ? ` AND (${where})` : ''} LIMIT 1`;
    return { statement: { sql, params: b.params }, idIndex };
  }));
}

/**
 * The entry `id` (within `params.where`) as JSON text: `null` when there is none, `undefined` when the
 * JavaScript path must answer.
 */
export async function findEntryJson(db: Database, model: Model, ct: ContentType, params: FindParams, id: number): Promise<string | null | undefined> {
  const form = jsonSqlOf(db);
  const j = form instanceof Promise ? await form : form;
  const r = await run(db, ct, onePlan(db, j, model, ct, params), (plan) => plan.statement.sql, async ({ statement, idIndex }) => {
    const values = statement.params.slice();
    values[idIndex] = id;
    const row = await db.get<{ j: string }>(statement.sql, values);
    return { json: row ? j.finish(row.j) : null };
  });
  return r ? r.json : undefined;
}
