// pg (node-postgres) behind the Database interface: a pool of connections; each transaction holds one of
// them from BEGIN to COMMIT, plain reads take any. Unlike SQLite's single writer, transactions run side by
// side: the write paths that were race-free only because SQLite serialises writers take row locks or rely
// on constraints (docs/architecture.md, "PostgreSQL").
import pg from 'pg';
import { ValidationError } from '../../errors';
import type { Database, Executor, RunResult, SqlValue, TableInfo } from '../dialect';
import { currentHookTransaction, insideTransactionError } from '../lifecycles';
import { postgresDialect } from './pg-dialect';
import { ALL_TABLES, DataChanges, PendingWrites, writtenTable } from '../data-changes';

/** v4's config/database.js `connection` for client postgres (knex's keys) */
export interface PostgresConfig {
  connectionString?: string;
  host?: string;
  port?: number | string;
  database?: string;
  user?: string;
  password?: string;
  /** search path: v4's `connection.schema` */
  schema?: string;
  ssl?: boolean | Record<string, unknown>;
  pool?: { min?: number; max?: number; acquireTimeoutMillis?: number; idleTimeoutMillis?: number };
  /** application_name shown in pg_stat_activity */
  applicationName?: string;
}

// Values as v4 reads them through knex/pg, with two exceptions chosen for exactness: int8 (COUNT(*), bigint
// columns not read as text) is a number while it is exact, its digits past 2^53; json/jsonb and date are
// left as the server's text, which values.ts fromDb turns into v4's value (pg would parse a date into a local
// midnight Date and a jsonb string "12" into 12).
const TYPE_OIDS = { int8: 20, json: 114, jsonb: 3802, date: 1082 } as const;
const asText = (v: string) => v;
function int8(v: string): number | string {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}
export const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case TYPE_OIDS.int8: return int8;
      case TYPE_OIDS.json: case TYPE_OIDS.jsonb: case TYPE_OIDS.date: return asText;
      default: return pg.types.getTypeParser(oid, format);
    }
  },
} as pg.CustomTypesConfig;

/**
 * `?` placeholders (knex's convention, which the write paths use as SQLite takes them) numbered `$1, $2, ...`
 * in text order, skipping quoted identifiers and string literals. A text that already numbers its
 * placeholders (the SQL compilers bind through dialect.placeholder) is left as it is.
 */
export function numberPlaceholders(sql: string): string {
  if (!sql.includes('?') || /\$\d/.test(sql)) return sql;
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else out += ch === '?' ? `$${++n}` : ch;
  }
  return out;
}

/** one SQL text as sent: numbered placeholders and, when worth it, a statement name */
interface Prepared {
  text: string;
  name: string | undefined;
}

/**
 * Statements by SQL text: each connection prepares a named statement once and reuses it (pg keeps the names a
 * connection prepared). Bounded: past MAX_NAMED texts, new ones are numbered each time and run unnamed, so
 * dynamic SQL never grows every connection's statement memory without end.
 */
const MAX_NAMED = 2000;
/** statements worth preparing (DDL and session commands run once) */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
class Statements {
  private readonly known = new Map<string, Prepared>();
  get(sql: string): Prepared {
    const hit = this.known.get(sql);
    if (hit) return hit;
    const p = { text: numberPlaceholders(sql), name: PREPARABLE.test(sql) ? `t${this.known.size + 1}` : undefined };
    if (this.known.size < MAX_NAMED) this.known.set(sql, p);
    else p.name = undefined;
    return p;
  }
}

type Queryable = pg.Pool | pg.PoolClient;

/**
 * PostgreSQL's refusals of a value a client sent (class 22, data exception: a text where a number goes, a
 * decimal past numeric(10,2), an impossible date) are the client's 400, not v4's 500 on PostgreSQL. SQLite
 * stores or compares such values as they are.
 */
function translated(err: unknown): unknown {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && code.startsWith('22')) return new ValidationError(`Invalid value: ${(err as Error).message}`, {});
  return err;
}

class PostgresExecutor implements Executor {
  readonly dialect = postgresDialect;
  /** a transaction's: callbacks for its end (Executor.onEnd) */
  readonly ended?: Array<(committed: boolean) => void>;
  /** a transaction's: the tables its statements wrote (data-changes.ts) */
  readonly pending?: PendingWrites;
  /**
   * `changes`: where a write outside a transaction (it commits on its own) is recorded; a transaction's executor
   * notes its writes in `pending` instead, recorded at COMMIT
   */
  constructor(private readonly conn: Queryable, private readonly statements: Statements, private readonly counter: { n: number }, private readonly changes: DataChanges, inTransaction = false) {
    if (inTransaction) {
      this.ended = [];
      this.pending = new PendingWrites();
    }
  }
  onEnd(cb: (committed: boolean) => void): void {
    if (this.ended) this.ended.push(cb);
    else cb(true); // a statement outside a transaction has committed already
  }

  /** a transaction's last statement: its statements go one after the other (code may start several at once) */
  private tail: Promise<unknown> | undefined;

  async query(sql: string, params?: readonly SqlValue[]): Promise<pg.QueryResult> {
    this.counter.n++;
    const { text, name } = this.statements.get(sql);
    const send = () => this.conn.query({ text, values: params as unknown[] | undefined, name });
    try {
      if (!this.ended) {
        const r = await send();
        const written = writtenTable(sql);
        if (written !== null) this.changes.committed([written]);
        return r;
      }
      this.pending!.note(sql);
      // one connection runs one statement at a time; pg would queue them too, but warns that it will stop doing so
      const run = this.tail ? this.tail.then(send, send) : send();
      this.tail = run;
      return await run;
    } catch (err) {
      throw translated(err);
    }
  }
  async all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }
  async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return (await this.query(sql, params)).rows[0] as T | undefined;
  }
  async run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
    const r = await this.query(sql, params);
    return { changes: r.rowCount ?? 0, lastInsertId: 0 };
  }
  /** transaction advisory locks, in one order (no two transactions wait for each other) */
  async lock(keys: readonly string[]): Promise<void> {
    if (!keys.length) return;
    if (keys.length === 1) {
      await this.query('SELECT pg_advisory_xact_lock(hashtext($1))', [keys[0]]);
      return;
    }
    // one statement, the keys in one order (the subquery's) so two transactions never wait for each other
    await this.query('SELECT pg_advisory_xact_lock(hashtext(k)) FROM (SELECT DISTINCT k FROM unnest($1::text[]) AS u(k) ORDER BY k) s', [[...keys]]);
  }
  /** the INSERT with `RETURNING id` (v4's tables all have an `id` serial) */
  async insert(sql: string, params?: readonly SqlValue[]): Promise<number> {
    const r = await this.query(/\breturning\b/i.test(sql) ? sql : `${sql} RETURNING id`, params);
    return Number(r.rows[0]?.id);
  }
}

function poolConfig(c: PostgresConfig): pg.PoolConfig {
  const cfg: pg.PoolConfig = {
    max: c.pool?.max ?? 10,
    min: c.pool?.min ?? 0,
    idleTimeoutMillis: c.pool?.idleTimeoutMillis ?? 30_000,
    connectionTimeoutMillis: c.pool?.acquireTimeoutMillis ?? 60_000,
    application_name: c.applicationName ?? 'tessera',
    types,
    // no JIT: the JSON read statements' cost estimates (every entry's subqueries) pass jit_above_cost at a few
    // ms of real work, and compiling them takes seconds on every run (storage/postgres/pg-json.ts)
    options: [process.env.PGOPTIONS, '-c jit=off'].filter(Boolean).join(' '),
  };
  if (c.connectionString) cfg.connectionString = c.connectionString;
  if (c.host !== undefined) cfg.host = c.host;
  if (c.port !== undefined) cfg.port = Number(c.port);
  if (c.database !== undefined) cfg.database = c.database;
  if (c.user !== undefined) cfg.user = c.user;
  if (c.password !== undefined) cfg.password = c.password;
  if (c.ssl !== undefined && c.ssl !== false) cfg.ssl = c.ssl === true ? {} : (c.ssl as pg.PoolConfig['ssl']);
  return cfg;
}

export class PostgresDatabase implements Database {
  readonly dialect = postgresDialect;
  private readonly pool: pg.Pool;
  private readonly statements = new Statements();
  private readonly counter = { n: 0 };
  private readonly reads: PostgresExecutor;
  readonly schema: string;
  /** the tables this instance's commits wrote (the response cache's validity; other writers: changeToken) */
  readonly changes = new DataChanges();

  constructor(readonly config: PostgresConfig) {
    this.schema = config.schema ?? 'public';
    this.pool = new pg.Pool(poolConfig(config));
    // an idle connection the server ended (restart, idle timeout) must not take the process down
    this.pool.on('error', () => undefined);
    if (config.schema) {
      const path = postgresDialect.quote(config.schema);
      this.pool.on('connect', (client) => void client.query(`SET search_path TO ${path}`).catch(() => undefined));
    }
    this.reads = new PostgresExecutor(this.pool, this.statements, this.counter, this.changes);
  }

  /**
   * The server's transaction snapshot as text (xmin:xmax:in-progress ids): every commit anywhere on the server
   * (another node, real Strapi's admin, this process) changes it, since it either ends an in-progress id or
   * moves xmax; reads change nothing. One round trip; `txid_current_snapshot` exists on every supported version.
   */
  async changeToken(): Promise<string> {
    this.counter.n++;
    const r = await this.pool.query<{ s: string }>('SELECT txid_current_snapshot()::text AS s');
    return r.rows[0].s;
  }

  get statementCount(): number {
    return this.counter.n;
  }

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.reads.all<T>(sql, params);
  }
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.reads.get<T>(sql, params);
  }
  /**
   * A single statement commits on its own (autocommit). Not beside an open transaction of the running code: it
   * could wait for a row that transaction holds, i.e. for itself (as on SQLite, it fails at once).
   */
  async run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
    if (currentHookTransaction()) throw insideTransactionError();
    return this.reads.run(sql, params);
  }
  async insert(sql: string, params?: readonly SqlValue[]): Promise<number> {
    if (currentHookTransaction()) throw insideTransactionError();
    return this.reads.insert(sql, params);
  }
  /** outside a transaction a lock would end with its statement: callers lock inside transactions */
  async lock(): Promise<void> {}

  async transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    // SQLite's rule kept: a second transaction from code inside an open one would not see its writes, and
    // under a full pool it would wait for a connection the outer one holds
    if (currentHookTransaction()) throw insideTransactionError();
    const client = await this.pool.connect();
    const tx = new PostgresExecutor(client, this.statements, this.counter, this.changes, true);
    let broken = false;
    let committed = false;
    try {
      await client.query('BEGIN');
      try {
        const result = await fn(tx);
        await client.query('COMMIT');
        committed = true;
        tx.pending!.commitTo(this.changes);
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        throw translated(err);
      }
    } finally {
      client.release(broken);
      for (const cb of tx.ended!.splice(0)) {
        try {
          cb(committed);
        } catch {
          // callbacks report their own trouble; one must not keep the others from running
        }
      }
    }
  }

  /**
   * `fn` while holding the session advisory lock `key`: one node at a time (schema sync when several start
   * together: the others wait, then find the tables made).
   */
  async exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    // a connection of its own, outside the pool: `fn` may need every pooled one (a pool of one included)
    const client = new pg.Client(poolConfig(this.config));
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
      return await fn(); // the lock ends with the session
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async exec(sql: string): Promise<void> {
    this.counter.n++;
    try {
      await this.pool.query(sql);
    } finally {
      this.changes.committed([ALL_TABLES]);
    }
  }

  async introspect(): Promise<Map<string, TableInfo>> {
    const out = new Map<string, TableInfo>();
    const cols = await this.pool.query<{ table_name: string; column_name: string; type: string; is_nullable: string }>(
      `SELECT c.table_name, c.column_name, c.is_nullable,
              CASE WHEN c.data_type = 'character varying' THEN 'varchar(' || coalesce(c.character_maximum_length::text, '') || ')'
                   WHEN c.data_type = 'numeric' AND c.numeric_precision IS NOT NULL THEN 'numeric(' || c.numeric_precision || ',' || c.numeric_scale || ')'
                   ELSE c.data_type END AS type
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema = $1
        ORDER BY c.table_name, c.ordinal_position`,
      [this.schema],
    );
    for (const c of cols.rows) {
      let t = out.get(c.table_name);
      if (!t) out.set(c.table_name, (t = { name: c.table_name, columns: new Map(), indexes: new Set() }));
      t.columns.set(c.column_name, { name: c.column_name, type: c.type.toLowerCase(), notNull: c.is_nullable === 'NO' });
    }
    // indexes and the constraints PostgreSQL backs with one (unique, primary key) under their names, and foreign
    // keys: all are names the schema sync asks about
    const idx = await this.pool.query<{ table_name: string; name: string }>(
      `SELECT tablename AS table_name, indexname AS name FROM pg_indexes WHERE schemaname = $1
       UNION SELECT rel.relname, con.conname FROM pg_constraint con
         JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = rel.relnamespace
        WHERE ns.nspname = $1`,
      [this.schema],
    );
    for (const i of idx.rows) out.get(i.table_name)?.indexes.add(i.name);
    return out;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
