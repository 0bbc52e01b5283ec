// What a test reads back from the database an app really runs on (its `app.db`, or secondConnection's), on
// either dialect: SQL written with `?` placeholders, values in one encoding whatever the dialect, so a test
// states its expectation once. That encoding is SQLite's storage (v4's on SQLite): datetimes as epoch
// milliseconds, booleans as 0/1; the pg driver's Dates and true/false are turned into it. Other differences
// (jsonb text spacing, numeric as a string) are left visible: a test compares those through JSON.parse or
// Number where it reads them.
import type { Executor, SqlValue } from '../../src/storage/dialect';
import { sqlFor, storedMs } from './test-database';

export type Row = Record<string, unknown>;

/** one column value as SQLite stores it */
export function storedValue(v: unknown): unknown {
  if (v instanceof Date) return storedMs(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return String(v);
  return v;
}

export function storedRow<T = Row>(row: Row): T {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, storedValue(v)])) as T;
}

/** the rows of `sql` (`?` placeholders) through `db`: committed state when `db` is a Database outside a transaction */
export async function dbRows<T = Row>(db: Executor, sql: string, ...params: SqlValue[]): Promise<T[]> {
  return (await db.all<Row>(sqlFor(db, sql), params)).map((r) => storedRow<T>(r));
}

/** COUNT(*) of `table` (optionally `WHERE where`, with `?` placeholders) */
export async function dbCount(db: Executor, table: string, where?: string, ...params: SqlValue[]): Promise<number> {
  const [row] = await dbRows<{ n: number | string }>(db, `SELECT COUNT(*) AS n FROM ${db.dialect.quote(table)}${where ? ` WHERE ${where}` : ''}`, ...params);
  return Number(row.n);
}
