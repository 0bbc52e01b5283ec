// better-sqlite3 behind the Database interface. Two connections: the writer runs transactions one at a
// time (a queue), the reader serves plain reads from the last committed state (WAL), so a read never
// observes a transaction that is still open on the writer.
import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { ServiceUnavailableError } from '../../errors';
import type { Database, Executor, RunResult, SqlValue, TableInfo } from '../dialect';
import { sqliteDialect } from './sqlite-dialect';
import { JSON_VALUE_FUNCTION, jsonValueText } from '../json-values';
import { currentHookTransaction, insideTransactionError } from '../lifecycles';
import { ALL_TABLES, DataChanges, PendingWrites } from '../data-changes';

type Conn = BetterSqlite3.Database;
type Stmt = BetterSqlite3.Statement;

/** how long a statement waits for another process's lock (SQLite's busy timeout; the write lock: below) */
const BUSY_TIMEOUT_MS = 5000;

function open(file: string, readonly: boolean): Conn {
  const db = new BetterSqlite3(file, { readonly: false, fileMustExist: readonly });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL'); // an acknowledged write survives a power cut
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // the exact fallback of the JSON compile target (json-values.ts)
  db.function(JSON_VALUE_FUNCTION, { deterministic: true }, (type, value) => jsonValueText(String(type), value));
  return db;
}

/**
 * Prepared statements by SQL text, least recently used out first. Bounded by count and by the total
 * length of their SQL: a prepared statement takes ~16 bytes per byte of SQL (a populate=* statement of
 * the JSON read path: 16 kB of SQL, 255 kB prepared), and dynamic SQL must not grow memory forever.
 */
class StatementCache {
  private readonly cache = new Map<string, Stmt>();
  private chars = 0;
  constructor(private readonly conn: Conn, private readonly maxCount = 2000, private readonly maxChars = 4_000_000) {}
  get(sql: string): Stmt {
    let s = this.cache.get(sql);
    if (s) {
      // most recently used last (a Map keeps insertion order)
      this.cache.delete(sql);
      this.cache.set(sql, s);
      return s;
    }
    s = this.conn.prepare(sql);
    this.cache.set(sql, s);
    this.chars += sql.length;
    for (const [old] of this.cache) {
      if (this.cache.size <= this.maxCount && this.chars <= this.maxChars) break;
      this.cache.delete(old);
      this.chars -= old.length;
    }
    return s;
  }
}

function bind(params: readonly SqlValue[] | undefined): unknown[] {
  return (params ?? []) as unknown[];
}

/**
 * What the writer connection's statements wrote: noted until the transaction's COMMIT, or recorded at once for a
 * statement outside any transaction (it committed on its own: the in-memory database, whose one connection also
 * serves plain reads, and project code's raw statements there).
 */
class WriterRecord {
  readonly pending = new PendingWrites();
  constructor(private readonly conn: Conn, private readonly changes: DataChanges) {}
  wrote(sql: string): void {
    this.pending.note(sql);
    if (!this.conn.inTransaction) this.pending.commitTo(this.changes);
  }
}

class SqliteExecutor implements Executor {
  readonly dialect = sqliteDialect;
  /** `writes`: the writer's, which records the tables its statements write (data-changes.ts) */
  constructor(private readonly stmts: StatementCache, private readonly counter: { n: number }, private readonly writes?: WriterRecord) {}
  async all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    this.counter.n++;
    const rows = this.stmts.get(sql).all(...bind(params)) as T[];
    this.writes?.wrote(sql);
    return rows;
  }
  async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    this.counter.n++;
    const row = this.stmts.get(sql).get(...bind(params)) as T | undefined;
    this.writes?.wrote(sql);
    return row;
  }
  async run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
    this.counter.n++;
    const r = this.stmts.get(sql).run(...bind(params));
    this.writes?.wrote(sql);
    return { changes: r.changes, lastInsertId: Number(r.lastInsertRowid) };
  }
  async insert(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return (await this.run(sql, params)).lastInsertId;
  }
  /** one writer at a time already */
  async lock(): Promise<void> {}
}

export class SqliteDatabase implements Database {
  readonly dialect = sqliteDialect;
  private readonly writer: Conn;
  private readonly reader: Conn;
  private readonly writeExec: SqliteExecutor;
  private readonly readExec: SqliteExecutor;
  private readonly counter = { n: 0 };
  /** tail of the transaction queue */
  private queue: Promise<unknown> = Promise.resolve();
  /** commits by this instance: `data_version` does not see the commits of its own connection */
  private commits = 0;
  private readonly versionStmt: Stmt;
  /** the writer's `data_version`: changes with the commits of every other connection, never with its own */
  private readonly othersStmt: Stmt;
  private readonly beginStmt: Stmt;
  /** the writer's busy timeout off, and back on: see beginImmediate */
  private readonly noWait: Stmt;
  private readonly wait: Stmt;
  /** the tables this instance's commits wrote (the response cache's validity) */
  readonly changes = new DataChanges();
  private readonly writes: WriterRecord;

  constructor(readonly filename: string) {
    if (filename !== ':memory:') fs.mkdirSync(path.dirname(filename), { recursive: true });
    this.writer = open(filename, false);
    this.reader = filename === ':memory:' ? this.writer : open(filename, true);
    this.writes = new WriterRecord(this.writer, this.changes);
    this.writeExec = new SqliteExecutor(new StatementCache(this.writer), this.counter, this.writes);
    this.readExec = this.reader === this.writer ? this.writeExec : new SqliteExecutor(new StatementCache(this.reader), this.counter);
    this.versionStmt = this.reader.prepare('PRAGMA data_version').pluck();
    this.othersStmt = this.writer.prepare('PRAGMA data_version').pluck();
    this.beginStmt = this.writer.prepare('BEGIN IMMEDIATE');
    this.noWait = this.writer.prepare('PRAGMA busy_timeout = 0');
    this.wait = this.writer.prepare(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }

  /**
   * Changes when another connection commits (another process: Strapi's admin, another worker), never with this
   * instance's own commits, which `changes` records table by table. Our reader connection never writes.
   */
  changeToken(): number {
    return this.othersStmt.get() as number;
  }

  /** changes after every commit seen by the reader: another connection's (WAL) or this instance's */
  dataVersion(): number {
    this.counter.n++;
    return (this.versionStmt.get() as number) + this.commits;
  }

  get statementCount(): number {
    return this.counter.n;
  }

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.readExec.all<T>(sql, params);
  }
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.readExec.get<T>(sql, params);
  }
  /** a single write outside an explicit transaction still waits its turn behind open transactions */
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
    return this.transaction((tx) => tx.run(sql, params));
  }
  insert(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.transaction((tx) => tx.insert(sql, params));
  }
  async lock(): Promise<void> {}

  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    // a second transaction from code running inside an open one (`strapi.db.transaction`, or a lifecycle hook
    // of a write) would wait for it forever: fail instead
    if (currentHookTransaction()) return Promise.reject(insideTransactionError());
    const turn = this.queue.then(async () => {
      await this.beginImmediate();
      this.writes.pending.discard();
      try {
        const result = await fn(this.writeExec);
        this.writer.exec('COMMIT');
        this.commits++;
        // in the same tick as the commit: no reader can see the new rows before the change is recorded
        this.writes.pending.commitTo(this.changes);
        return result;
      } catch (err) {
        if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
        this.writes.pending.discard();
        throw err;
      }
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * BEGIN IMMEDIATE, waiting for another process's write lock (real Strapi beside Tessera, another worker) without
   * blocking: SQLite's busy handler sleeps in the calling thread, which would stop every request of this process,
   * reads included, for as long as the other holds the lock (up to the busy timeout). So the attempt itself does
   * not wait, and the wait between attempts is a timer; after BUSY_TIMEOUT_MS the write is refused with a 503.
   */
  private async beginImmediate(): Promise<void> {
    if (this.tryBegin()) return;
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    for (let pause = 1; ; pause = Math.min(pause * 2, 25)) {
      await new Promise((resolve) => setTimeout(resolve, pause));
      if (this.tryBegin(Date.now() >= deadline)) return;
    }
  }

  /** one attempt at the write lock: false when another connection holds it (503 instead when `last`) */
  private tryBegin(last = false): boolean {
    this.noWait.run();
    try {
      this.beginStmt.run();
      return true;
    } catch (err) {
      if (!String((err as { code?: string }).code).startsWith('SQLITE_BUSY')) throw err;
      if (last) throw new ServiceUnavailableError('The database is busy: another process holds its write lock. Try again shortly');
      return false;
    } finally {
      this.wait.run();
    }
  }

  async exec(sql: string): Promise<void> {
    await this.queue;
    try {
      this.writer.exec(sql);
    } finally {
      // DDL (schema sync): every answer may differ, even when the script failed half-way
      this.commits++;
      this.changes.committed([ALL_TABLES]);
    }
  }

  async introspect(): Promise<Map<string, TableInfo>> {
    const out = new Map<string, TableInfo>();
    const tables = this.writer.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[];
    for (const { name } of tables) {
      const cols = this.writer.prepare(`SELECT name, type, "notnull" AS nn FROM pragma_table_info(?)`).all(name) as { name: string; type: string; nn: number }[];
      const idx = this.writer.prepare(`SELECT name FROM pragma_index_list(?)`).all(name) as { name: string }[];
      out.set(name, {
        name,
        columns: new Map(cols.map((c) => [c.name, { name: c.name, type: c.type.toLowerCase(), notNull: c.nn === 1 }])),
        indexes: new Set(idx.map((i) => i.name)),
      });
    }
    return out;
  }

  async close(): Promise<void> {
    await this.queue;
    if (this.reader !== this.writer) this.reader.close();
    this.writer.close();
  }
}
