// One dialect interface: everything dialect-specific in SQL text lives behind it, so PostgreSQL is
// a second implementation and never a rewrite. All values travel as parameters.
import type { DataChanges } from './data-changes';

/** a bound value; a list only as `listValue` makes it (PostgreSQL binds an array), a boolean only on PostgreSQL */
export type SqlValue = string | number | bigint | boolean | null | Buffer | readonly (number | string)[];

export interface Dialect extends ListParam {
  readonly name: 'sqlite' | 'postgres';
  /** `"name"`, with embedded quotes doubled */
  quote(identifier: string): string;
  /** placeholder for the n-th parameter (1-based): `?` or `$n` */
  placeholder(n: number): string;
  /** a case-insensitive LIKE of `expr` against parameter text */
  likeInsensitive(expr: string, param: string, negate: boolean): string;
  /** v4's case rule for $contains/$startsWith/$endsWith: LIKE on SQLite (ASCII case-insensitive), LIKE on pg (sensitive) */
  likeDefault(expr: string, param: string, negate: boolean): string;
  /** a parameter compared as an exact number whatever the column's type (PostgreSQL casts it to the column's) */
  numericParam(param: string): string;
  /** `lower()` of a column of any type (PostgreSQL has lower() for text only: others are cast, as v4 casts them) */
  lower(expr: string): string;
  /** a row count bound for LIMIT / OFFSET (read-statements.ts rowCount: SQLite needs `+?`) */
  rowCount(param: string): string;
  /** what stands for "no limit" when only an offset is given (SQLite `LIMIT -1`; PostgreSQL needs none) */
  readonly noLimit: string;
  /**
   * written before a column to keep the planner off its index (SQLite's unary `+`, hops.ts: without statistics
   * SQLite picks the wrong index); empty where the planner has statistics (PostgreSQL)
   */
  readonly skipIndex: string;
  /** an expression reading a biginteger column exactly, as text */
  bigintAsText(expr: string): string;
  /** ORDER BY item with the dialect's NULL placement as v4 has it there (SQLite: first ascending; PostgreSQL: last) */
  orderItem(expr: string, direction: 'asc' | 'desc'): string;
  /** the value stored for a datetime/timestamp (v4 on SQLite stores epoch milliseconds) */
  datetimeToDb(d: Date): SqlValue;
  /** the value stored for a boolean */
  booleanToDb(b: boolean): SqlValue;
}

export interface RunResult {
  changes: number;
  lastInsertId: number;
}

/** A connection or a transaction on one. Async so PostgreSQL fits the same shape. */
export interface Executor {
  readonly dialect: Dialect;
  all<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  /** INSERT returning the new id */
  insert(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /**
   * Inside a transaction: waits until no other transaction holds any of `keys`, then holds them until this one
   * ends. Read-then-write steps (a uniqueness count before the insert, MAX + 1 orders) take the key of what
   * they read, so concurrent writers take turns (PostgreSQL: transaction advisory locks). SQLite runs one
   * writer at a time: nothing to do.
   */
  lock(keys: readonly string[]): Promise<void>;
  /**
   * A transaction's executor: `cb(committed)` once it ended. Absent on SQLite, where a no-op transaction queued
   * behind the open one tells the same (lifecycles.ts whenTransactionEnds).
   */
  onEnd?(cb: (committed: boolean) => void): void;
}

export interface Database extends Executor {
  /** one transaction; everything inside sees its own writes; a throw rolls back */
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /**
   * `fn` while no other process holding the same key runs (several nodes starting on one database: one syncs the
   * schema, the others wait and find it done). Absent where one process owns the database.
   */
  exclusive?<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** raw DDL script (schema sync) */
  exec(sql: string): Promise<void>;
  /** table -> columns, read from the live database */
  introspect(): Promise<Map<string, TableInfo>>;
  close(): Promise<void>;
  /** statements run since start (benchmarks: statements per request) */
  readonly statementCount: number;
  /**
   * A number that changes whenever committed data may have changed, by this process or another one
   * (storage/count-cache.ts). Absent where that cannot be told.
   */
  dataVersion?(): number;
  /** the tables this instance's commits wrote, commit by commit (storage/data-changes.ts) */
  readonly changes?: DataChanges;
  /**
   * A value that changes whenever a commit this instance did not make (another process or node) may have
   * changed data; with `changes`, what tells a cached answer is still the answer. Absent: cannot be told.
   * SQLite: it changes with the other connections' commits only. PostgreSQL: with every commit on the server,
   * this instance's own included (so there every commit drops every kept answer; docs/configuration.md).
   */
  changeToken?(): number | string | Promise<number | string>;
}

export interface TableInfo {
  name: string;
  columns: Map<string, { name: string; type: string; notNull: boolean }>;
  indexes: Set<string>;
}

/** Helpers every dialect shares. */
export interface ListParam {
  /**
   * The values of a list parameter as rows (`<alias>.value`), for a correlated subquery per value. SQLite only:
   * PostgreSQL would need the values' type for `unnest`, and compares through `inList` instead.
   */
  listRows?(placeholder: string, alias: string): string;
  /** `expr IN (<list>)` with the whole list bound as ONE parameter (stable SQL text, cacheable) */
  inList(expr: string, placeholder: string): string;
  /** how the list parameter is bound */
  listValue(values: readonly (number | string)[]): SqlValue;
}
