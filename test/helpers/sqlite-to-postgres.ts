// The rows of a v4 SQLite database (as real Strapi 4.26.2 or Tessera wrote it) into a PostgreSQL database that
// already has v4's tables (Tessera's schema sync made them): every table both have is emptied and refilled with
// the columns both have, each value converted by its PostgreSQL column's type, and every id sequence set past
// the largest id. One transaction. Written for the test suite's templates (test-database.ts); nothing here is
// test-specific, so it can become a `tessera` command.
import BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { localTimestamp } from '../../src/storage/postgres/pg-dialect';
import { COUNTS_TABLE } from '../../src/storage/schema/tessera-counts';

export interface CopyOptions {
  /** PostgreSQL schema holding the tables (default: the connection's current schema) */
  schema?: string;
  /**
   * tables left as PostgreSQL has them. Default: `strapi_database_schema`, the row describing the live tables,
   * which the schema sync wrote for the PostgreSQL database itself.
   */
  keep?: string[];
}

export interface CopyReport {
  /** table -> rows copied */
  rows: Record<string, number>;
  /** SQLite tables PostgreSQL does not have (not copied) */
  missingTables: string[];
  /** PostgreSQL tables the SQLite database does not have (left empty) */
  postgresOnlyTables: string[];
}

interface PgColumn { name: string; type: string; identity: boolean; serial: boolean }

type SqliteValue = string | number | bigint | Buffer | null;

const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** at most this many parameters per INSERT (PostgreSQL's limit is 65535) */
const MAX_PARAMS = 30_000;

export async function copySqliteToPostgres(sqliteFile: string, client: pg.ClientBase, opts: CopyOptions = {}): Promise<CopyReport> {
  const schema = opts.schema ?? (await client.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
  // Tessera's row figures are kept by its triggers as the rows are copied (storage/schema/tessera-counts.ts)
  const keep = new Set(opts.keep ?? ['strapi_database_schema', COUNTS_TABLE]);
  const pgTables = await columnsOf(client, schema);
  // exact integers (bigint columns, epoch milliseconds) whatever their size
  const lite = new BetterSqlite3(sqliteFile, { readonly: true, fileMustExist: true });
  lite.defaultSafeIntegers(true);
  const report: CopyReport = { rows: {}, missingTables: [], postgresOnlyTables: [] };
  try {
    const liteTables = (lite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[]).map((t) => t.name);
    report.missingTables = liteTables.filter((t) => !pgTables.has(t) && !keep.has(t)).sort();
    report.postgresOnlyTables = [...pgTables.keys()].filter((t) => !liteTables.includes(t) && !keep.has(t)).sort();
    const tables = insertOrder(await foreignKeys(client, schema), [...pgTables.keys()].filter((t) => !keep.has(t)));
    await client.query('BEGIN');
    try {
      if (tables.length) await client.query(`TRUNCATE ${tables.map((t) => `${quote(schema)}.${quote(t)}`).join(', ')} RESTART IDENTITY CASCADE`);
      for (const table of tables) {
        if (!liteTables.includes(table)) continue;
        const pgCols = pgTables.get(table)!;
        const liteCols = new Set((lite.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name));
        const cols = pgCols.filter((c) => liteCols.has(c.name));
        if (!cols.length) continue;
        report.rows[table] = await copyTable(lite, client, schema, table, cols);
      }
      for (const [table, cols] of pgTables) {
        for (const c of cols.filter((col) => col.serial || col.identity)) {
          // the next id is past every copied one (is_called false: nextval returns exactly this value)
          await client.query(
            `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT MAX(${quote(c.name)}) FROM ${quote(schema)}.${quote(table)}), 0) + 1, false)`,
            [`${quote(schema)}.${quote(table)}`, c.name],
          );
        }
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  } finally {
    lite.close();
  }
  return report;
}

async function copyTable(lite: BetterSqlite3.Database, client: pg.ClientBase, schema: string, table: string, cols: PgColumn[]): Promise<number> {
  const perInsert = Math.max(1, Math.min(1000, Math.floor(MAX_PARAMS / cols.length)));
  const head = `INSERT INTO ${quote(schema)}.${quote(table)} (${cols.map((c) => quote(c.name)).join(', ')})${cols.some((c) => c.identity) ? ' OVERRIDING SYSTEM VALUE' : ''} VALUES `;
  let batch: unknown[][] = [];
  let count = 0;
  const flush = async () => {
    if (!batch.length) return;
    const params: unknown[] = [];
    const rows = batch.map((row) => `(${row.map((v) => `$${params.push(v)}`).join(', ')})`);
    await client.query(head + rows.join(', '), params);
    count += batch.length;
    batch = [];
  };
  const select = lite.prepare(`SELECT ${cols.map((c) => quote(c.name)).join(', ')} FROM ${quote(table)} ORDER BY rowid`).raw(true);
  for (const row of select.iterate() as Iterable<SqliteValue[]>) {
    batch.push(row.map((v, i) => toPostgres(v, cols[i].type, `${table}.${cols[i].name}`)));
    if (batch.length >= perInsert) await flush();
  }
  await flush();
  return count;
}

/**
 * An SQLite value as the PostgreSQL column of `type` (information_schema's data_type) takes it, by v4's storage
 * rules on each database: epoch milliseconds -> timestamp (local wall time, as the dialect writes: pg-dialect.ts
 * localTimestamp), 0/1 -> boolean, JSON text -> json(b), integers exact (as text).
 */
export function toPostgres(v: SqliteValue, type: string, where = ''): unknown {
  if (v === null) return null;
  switch (type) {
    case 'boolean':
      if (typeof v === 'bigint' || typeof v === 'number') return Number(v) !== 0;
      if (typeof v === 'string') return ['1', 'true', 't'].includes(v.toLowerCase());
      break;
    case 'timestamp without time zone':
    case 'timestamp with time zone': {
      const d = asDate(v);
      if (!d) throw new Error(`${where}: ${String(v)} is not a datetime`);
      return type === 'timestamp with time zone' ? d.toISOString() : localTimestamp(d);
    }
    case 'date':
      if (typeof v === 'bigint' || typeof v === 'number') return new Date(Number(v)).toISOString().slice(0, 10);
      return v;
    case 'json':
    case 'jsonb':
      if (typeof v === 'string') return isJson(v) ? v : JSON.stringify(v);
      return String(v);
    case 'bytea':
      return typeof v === 'string' ? Buffer.from(v) : v;
    default:
      break;
  }
  if (Buffer.isBuffer(v)) return type === 'bytea' ? v : v.toString('utf8');
  // numbers (exact: safe integers are bigints) and text: PostgreSQL parses the text for its column type
  return typeof v === 'string' ? v : String(v);
}

function asDate(v: SqliteValue): Date | undefined {
  let d: Date | undefined;
  if (typeof v === 'bigint' || typeof v === 'number') d = new Date(Number(v));
  else if (typeof v === 'string') d = new Date(/^-?\d+$/.test(v) ? Number(v) : v);
  return d && !Number.isNaN(d.getTime()) ? d : undefined;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

async function columnsOf(client: pg.ClientBase, schema: string): Promise<Map<string, PgColumn[]>> {
  const r = await client.query<{ table_name: string; column_name: string; data_type: string; column_default: string | null; is_identity: string }>(
    `SELECT c.table_name, c.column_name, c.data_type, c.column_default, c.is_identity
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = $1
      ORDER BY c.table_name, c.ordinal_position`,
    [schema],
  );
  const out = new Map<string, PgColumn[]>();
  for (const c of r.rows) {
    if (!out.has(c.table_name)) out.set(c.table_name, []);
    out.get(c.table_name)!.push({
      name: c.column_name, type: c.data_type, identity: c.is_identity === 'YES', serial: /^nextval\(/.test(c.column_default ?? ''),
    });
  }
  return out;
}

/** child table -> the tables its foreign keys point to (itself left out) */
async function foreignKeys(client: pg.ClientBase, schema: string): Promise<Map<string, Set<string>>> {
  const r = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = $1`,
    [schema],
  );
  const out = new Map<string, Set<string>>();
  for (const { child, parent } of r.rows) {
    if (child === parent) continue;
    if (!out.has(child)) out.set(child, new Set());
    out.get(child)!.add(parent);
  }
  return out;
}

/** the tables, each after those its foreign keys point to (rows are inserted with their constraints checked) */
function insertOrder(deps: Map<string, Set<string>>, tables: string[]): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (t: string) => {
    if (state.get(t)) return; // done, or a cycle: its place is as good as any
    state.set(t, 'visiting');
    for (const parent of deps.get(t) ?? []) if (tables.includes(parent)) visit(parent);
    state.set(t, 'done');
    order.push(t);
  };
  for (const t of [...tables].sort()) visit(t);
  return order;
}
