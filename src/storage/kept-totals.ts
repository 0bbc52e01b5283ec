// A list's total read from the figures the triggers keep (schema/tessera-counts.ts) instead of counting the rows,
// where the list's condition is only what the buckets tell apart: nothing, the publication state, a locale. The
// same statement checks that the table's triggers are still there (one snapshot: no write can slip between the
// check and the figure), and the caller counts the rows when they are not.
import type { ContentType, Model } from '../model/types';
import type { Where } from '../query/types';
import type { Executor } from './dialect';
import { SqlBuilder } from './sql-builder';
import { COMPLETE_MARK, COUNTS_TABLE, forgetCounting, keptCounting, triggerNames, type CountedTable } from './schema/tessera-counts';

/** the buckets a condition selects: `published` 1 or 0, `locale` a code; absent: any */
export interface Bucket {
  published?: 0 | 1;
  locale?: string;
}

/** the terms of a conjunction, flattened; null when `where` holds anything else (`$or`, `$not`, ...) */
function terms(where: Where, out: Array<[string, unknown]>): boolean {
  for (const [key, value] of Object.entries(where)) {
    if (key === '$and') {
      if (!Array.isArray(value) || !value.every((w) => w !== null && typeof w === 'object' && terms(w as Where, out))) return false;
    } else out.push([key, value]);
  }
  return true;
}

/** `value` as an operator object with one operator, or the plain value as `$eq` */
function single(value: unknown): [string, unknown] | null {
  if (value === null || typeof value !== 'object') return ['$eq', value];
  if (Array.isArray(value)) return null;
  const entries = Object.entries(value);
  return entries.length === 1 ? entries[0] : null;
}

/**
 * The buckets `where` selects on `ct`, or null when it is another condition (a total that must be counted).
 * Pure: compiled queries call it once per shape.
 */
export function bucketOf(ct: ContentType, where: Where | undefined): Bucket | null {
  const found: Array<[string, unknown]> = [];
  if (where && !terms(where, found)) return null;
  const bucket: Bucket = {};
  for (const [name, value] of found) {
    const op = single(value);
    if (!op) return null;
    const [operator, operand] = op;
    if (name === 'publishedAt' && ct.draftAndPublish) {
      const published = operator === '$notNull' || operator === '$null' ? (operand === true) === (operator === '$notNull') : undefined;
      if (published === undefined || typeof operand !== 'boolean') return null;
      const p: 0 | 1 = published ? 1 : 0;
      if (bucket.published !== undefined && bucket.published !== p) return null;
      bucket.published = p;
    } else if (name === 'locale' && ct.localized && operator === '$eq' && typeof operand === 'string') {
      if (bucket.locale !== undefined && bucket.locale !== operand) return null;
      bucket.locale = operand;
    } else return null;
  }
  return bucket;
}

/** the two columns that carry a kept total: the figure, and the check that must equal `expected` */
export interface KeptColumns {
  n: string;
  check: string;
  expected: number;
}

/**
 * The figure of `bucket` and, from the same snapshot, the check that the figures are still kept: every trigger
 * present and enabled, and the mark that the figures are complete. Parameters bound in text order (n, then check).
 */
export function keptColumns(b: SqlBuilder, t: CountedTable, bucket: Bucket): KeptColumns {
  const q = b.q.bind(b);
  let where = `${q('table_name')} = ${b.param(t.table)}`;
  if (bucket.published !== undefined) where += ` AND ${q('published')} = ${b.param(bucket.published)}`;
  if (bucket.locale !== undefined) where += ` AND ${q('locale_null')} = 0 AND ${q('locale')} = ${b.param(bucket.locale)}`;
  const n = `SELECT COALESCE(SUM(${q('n')}), 0) FROM ${q(COUNTS_TABLE)} WHERE ${where}`;
  const names = triggerNames(t, b.dialect.name);
  const list = names.map((name) => b.param(name)).join(', ');
  const triggers = b.dialect.name === 'sqlite'
    ? `SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name IN (${list}) AND tbl_name = ${b.param(t.table)}`
    : `SELECT COUNT(*) FROM pg_trigger WHERE tgname IN (${list}) AND tgrelid = to_regclass(${b.param(q(t.table))}) AND tgenabled = 'A'`;
  const complete = `SELECT COUNT(*) FROM ${q(COUNTS_TABLE)} WHERE ${q('table_name')} = ${b.param(t.table)} AND ${q('published')} = ${COMPLETE_MARK}`;
  return { n, check: `(${triggers}) + (${complete})`, expected: names.length + 1 };
}

/** what reads the figures that answer a condition */
export interface KeptFigures {
  table: CountedTable;
  bucket: Bucket;
}

/** the figures of `ct`'s table can answer `where`: what to read them with */
export function keptFigures(model: Model, ct: ContentType, where: Where | undefined): KeptFigures | undefined {
  if (ct.kind !== 'collectionType') return undefined;
  const table = keptCounting(model, ct.collectionName);
  const bucket = table ? bucketOf(ct, where) : null;
  return table && bucket ? { table, bucket } : undefined;
}

/** a row's kept total, or undefined when the check failed: the table's totals are then counted until the next start */
export function keptResult(model: Model, ct: ContentType, row: { n?: unknown; t?: unknown } | undefined, expected: number): number | undefined {
  if (Number(row?.t) === expected) return Number(row?.n ?? 0);
  forgetCounting(model, ct.collectionName);
  return undefined;
}

/**
 * The total of `where` on `ct` from the kept figures, or undefined when it must be counted (another condition, no
 * kept figures, or triggers gone: then counted until the next start re-creates them).
 */
export async function keptTotal(db: Executor, model: Model, ct: ContentType, where: Where | undefined): Promise<number | undefined> {
  const k = keptFigures(model, ct, where);
  if (!k) return undefined;
  const b = new SqlBuilder(db.dialect);
  const c = keptColumns(b, k.table, k.bucket);
  // the figures table gone behind Tessera's back fails the statement: counted instead, until the next start
  const row = await db.get<{ n: unknown; t: unknown }>(`SELECT (${c.n}) AS n, ${c.check} AS t`, b.params).catch(() => undefined);
  return keptResult(model, ct, row, c.expected);
}
