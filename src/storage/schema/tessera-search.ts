// Substring search without a scan (issue 22, part 5): `$contains`, `$containsi` and `_q` are `LIKE '%v%'`, which
// reads every row. Tessera keeps a trigram index beside large collection types and uses it to find the few rows
// that can match; the LIKE v4 compiles still decides on each of them, so the answer is the scan's, byte for byte.
// The index is never needed for a correct answer:
// - SQLite: an FTS5 table `tessera_<table>_search` (trigram tokenizer, external content: it stores no text, only
//   which columns of which rows hold which trigrams) kept by triggers on the table, so every writer keeps it
//   right, real Strapi included. A condition reads it only while those triggers exist: real Strapi rebuilding the
//   table (its schema sync on SQLite copies, drops and renames it) drops them, and from then on the same statement
//   reads the table as before (`candidates()`), until the next start rebuilds the index.
// - PostgreSQL: pg_trgm GIN indexes on exactly the expressions the compiled LIKE reads (`CAST(col AS TEXT)` and
//   `lower(CAST(col AS TEXT))`), which the planner uses by itself; no query changes. Without the extension (or
//   the right to create it): a warning, and the scan as before.
import type { ContentType, Model, ScalarAttribute } from '../../model/types';
import { createCoreStore, persistTable } from '../../auth/core-store';
import type { Database, Executor } from '../dialect';
import { TESSERA_INDEX_PREFIX } from './tessera-indexes';

/** config/database.js `settings.substringIndex` and `settings.substringIndexMinRows` (docs: "Large tables") */
export interface SubstringIndexConfig {
  /** auto: collection types with at least `minRows` entries at start; on: every one; off: none (and removed) */
  mode: 'auto' | 'on' | 'off';
  minRows: number;
}

export const DEFAULT_SUBSTRING_INDEX: SubstringIndexConfig = { mode: 'auto', minRows: 10_000 };

/** `settings` of config/database.js -> the configuration; anything unknown is the default */
export function substringIndexConfig(settings: unknown): SubstringIndexConfig {
  const s = (settings && typeof settings === 'object' ? settings : {}) as Record<string, unknown>;
  const v = s.substringIndex;
  const mode = v === true || v === 'on' ? 'on' : v === false || v === 'off' ? 'off' : 'auto';
  const n = Number(s.substringIndexMinRows);
  return { mode, minRows: Number.isFinite(n) && n >= 0 ? n : DEFAULT_SUBSTRING_INDEX.minRows };
}

/** the attribute types whose LIKE the index serves: the text types `_q` searches */
const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'uid', 'email', 'enumeration']);
/** FTS5 refuses these as column names */
const FTS_RESERVED = new Set(['rank', 'rowid']);
/** a long value's first trigrams already leave few rows: more would only lengthen the query */
const MAX_TRIGRAMS = 16;

/** the indexed columns of a collection type: its readable text attributes */
function textColumns(ct: ContentType): string[] {
  return Object.values(ct.attributes)
    .filter((a): a is ScalarAttribute => a.kind === 'scalar' && TEXT_TYPES.has(a.type) && !a.private)
    .map((a) => a.column)
    .filter((c) => !FTS_RESERVED.has(c.toLowerCase()));
}

/** What a compiled condition needs to read an FTS table (SQLite). */
export interface SearchTable {
  readonly table: string;
  readonly columns: ReadonlySet<string>;
  /**
   * `(SELECT ...)`: the ids of the rows whose `column` holds every trigram of the FTS query bound at `matchParam`;
   * every id of the table while the triggers are missing (the index may be stale then)
   */
  candidates(column: string, matchParam: string): string;
}

/** per Model (one per instance, hence one database): the FTS tables ensureSubstringIndexes found or made */
const searchTables = new WeakMap<Model, Map<string, SearchTable>>();

export function searchTableOf(model: Model, table: string): SearchTable | undefined {
  return searchTables.get(model)?.get(table);
}

/**
 * The FTS5 query finding every row whose text contains `value` (folded as the trigram tokenizer folds case, which
 * covers SQLite's ASCII folding of LIKE): all its trigrams (detail=column keeps no positions: the LIKE checks the
 * order). Undefined when no trigram query can serve it: under three characters, or a NUL (FTS5 reads its query as
 * a C string).
 */
export function trigramQuery(value: string): string | undefined {
  if (value.includes('\0')) return undefined;
  const chars = [...value];
  if (chars.length < 3) return undefined;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length && grams.size < MAX_TRIGRAMS; i++) grams.add(chars.slice(i, i + 3).join(''));
  return [...grams].map((g) => `"${g.replace(/"/g, '""')}"`).join(' AND ');
}

// ---- SQLite ---------------------------------------------------------------------------------------

interface FtsNames {
  fts: string;
  /** the FTS table and its shadow tables (columnsize=0: no _docsize; external content: no _content) */
  tables: string[];
  triggers: { insert: string; delete: string; update: string };
}

function ftsNames(table: string): FtsNames {
  const fts = `${TESSERA_INDEX_PREFIX}${table}_search`;
  return {
    fts,
    tables: [fts, `${fts}_data`, `${fts}_idx`, `${fts}_config`],
    triggers: { insert: `${fts}_ai`, delete: `${fts}_ad`, update: `${fts}_au` },
  };
}

/** the statements that make the index (in sqlite_schema as written here: what tells an existing one is ours and current) */
function ftsDdl(q: (s: string) => string, table: string, columns: string[]): { fts: string; triggers: string[] } {
  const n = ftsNames(table);
  const cols = columns.map(q).join(', ');
  const values = (row: 'new' | 'old') => columns.map((c) => `${row}.${q(c)}`).join(', ');
  const add = `INSERT INTO ${q(n.fts)}(rowid, ${cols}) VALUES (new.${q('id')}, ${values('new')});`;
  const remove = `INSERT INTO ${q(n.fts)}(${q(n.fts)}, rowid, ${cols}) VALUES ('delete', old.${q('id')}, ${values('old')});`;
  return {
    fts: `CREATE VIRTUAL TABLE ${q(n.fts)} USING fts5(${cols}, content=${q(table)}, content_rowid=${q('id')}, tokenize='trigram', detail=column, columnsize=0)`,
    triggers: [
      `CREATE TRIGGER ${q(n.triggers.insert)} AFTER INSERT ON ${q(table)} BEGIN ${add} END`,
      `CREATE TRIGGER ${q(n.triggers.delete)} AFTER DELETE ON ${q(table)} BEGIN ${remove} END`,
      `CREATE TRIGGER ${q(n.triggers.update)} AFTER UPDATE OF ${q('id')}, ${cols} ON ${q(table)} BEGIN ${remove} ${add} END`,
    ],
  };
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

function sqliteSearchTable(q: (s: string) => string, table: string, columns: string[]): SearchTable {
  const n = ftsNames(table);
  const triggers = Object.values(n.triggers);
  // while all three triggers are there the index is current; else every id (the LIKE then scans as before). A
  // seek far past the last id reads nothing (a constant WHERE term would not stop SQLite from reading the table).
  const from = `(SELECT CASE WHEN count(*) = ${triggers.length} THEN 9223372036854775807 ELSE -9223372036854775808 END FROM sqlite_schema`
    + ` WHERE type = 'trigger' AND tbl_name = ${sqlString(table)} AND name IN (${triggers.map(sqlString).join(', ')}))`;
  return {
    table,
    columns: new Set(columns),
    candidates: (column, p) => `(SELECT rowid FROM ${q(n.fts)} WHERE ${q(n.fts)}.${q(column)} MATCH ${p} UNION ALL SELECT ${q('id')} FROM ${q(table)} WHERE ${q('id')} >= ${from})`,
  };
}

async function rowCount(db: Executor, table: string): Promise<number> {
  const row = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${db.dialect.quote(table)}`);
  return Number(row?.n ?? 0);
}

interface Wanted {
  table: string;
  columns: string[];
}

/** the collection types that get (or keep) an index, with their indexed columns present in the live table */
async function wanted(db: Database, model: Model, config: SubstringIndexConfig, has: (table: string) => Promise<boolean>): Promise<Wanted[]> {
  if (config.mode === 'off') return [];
  const live = await db.introspect();
  const out: Wanted[] = [];
  for (const ct of model.contentTypes.values()) {
    if (ct.kind !== 'collectionType') continue;
    const info = live.get(ct.collectionName);
    const columns = textColumns(ct).filter((c) => info?.columns.has(c));
    if (!info || !columns.length) continue;
    if (config.mode === 'auto' && !(await has(ct.collectionName)) && (await rowCount(db, ct.collectionName)) < config.minRows) continue;
    out.push({ table: ct.collectionName, columns });
  }
  return out;
}

/** Tessera's entries of sqlite_schema: name -> the statement that made it */
async function tesseraSchema(exec: Executor): Promise<Map<string, string | null>> {
  const rows = await exec.all<{ name: string; sql: string | null }>(`SELECT name, sql FROM sqlite_schema WHERE name LIKE 'tessera\\_%' ESCAPE '\\'`);
  return new Map(rows.map((r) => [r.name, r.sql]));
}

async function ensureSqlite(db: Database, model: Model, config: SubstringIndexConfig, log: SearchLog): Promise<string[]> {
  const q = db.dialect.quote;
  const schema = await tesseraSchema(db);
  const ours = [...schema.keys()].filter((name) => /_search$/.test(name) && /^CREATE VIRTUAL TABLE/i.test(schema.get(name) ?? ''));
  const want = await wanted(db, model, config, async (table) => schema.has(ftsNames(table).fts));
  const tables = new Map<string, SearchTable>();
  const made: string[] = [];
  const store = createCoreStore(db);
  for (const { table, columns } of want) {
    const n = ftsNames(table);
    const ddl = ftsDdl(q, table, columns);
    const current = (live: Map<string, string | null>) => live.get(n.fts) === ddl.fts && Object.values(n.triggers).every((t, i) => live.get(t) === ddl.triggers[i]);
    try {
      // made, or remade (the triggers gone with a table real Strapi rebuilt, other columns), and filled in one
      // transaction: no writer sees the triggers before the index holds every row. Looked at again inside it: a
      // process starting beside this one may have made it meanwhile.
      if (!current(schema) && await db.transaction(async (tx) => {
        if (current(await tesseraSchema(tx))) return false;
        for (const t of Object.values(n.triggers)) await tx.run(`DROP TRIGGER IF EXISTS ${q(t)}`);
        await tx.run(`DROP TABLE IF EXISTS ${q(n.fts)}`);
        await tx.run(ddl.fts);
        await tx.run(`INSERT INTO ${q(n.fts)}(${q(n.fts)}) VALUES ('rebuild')`);
        for (const t of ddl.triggers) await tx.run(t);
        return true;
      })) made.push(n.fts);
      // real Strapi's schema sync drops tables it does not know unless listed there: the triggers would then fail every write
      for (const t of n.tables) await persistTable(store, t);
    } catch (err) {
      log.warn(`substring index ${n.fts} on ${table} could not be made (substring filters read the table): ${(err as Error).message}`);
      continue;
    }
    tables.set(table, sqliteSearchTable(q, table, columns));
  }
  // off, or a type gone from the model (or without text attributes now): removed, so that writes stop paying for it
  const kept = new Set(want.map((w) => ftsNames(w.table).fts));
  for (const fts of ours.filter((name) => !kept.has(name))) {
    const triggers = Object.values(ftsNames(fts.slice(TESSERA_INDEX_PREFIX.length, -'_search'.length)).triggers);
    try {
      await db.transaction(async (tx) => {
        for (const t of triggers) await tx.run(`DROP TRIGGER IF EXISTS ${q(t)}`);
        await tx.run(`DROP TABLE IF EXISTS ${q(fts)}`);
      });
    } catch (err) {
      log.warn(`substring index ${fts} could not be removed: ${(err as Error).message}`);
    }
  }
  searchTables.set(model, tables);
  return made;
}

// ---- PostgreSQL -------------------------------------------------------------------------------------

/** PostgreSQL's identifier length: a longer name would be cut, and the two of a column could meet */
const MAX_NAME = 63;

/** per column, the GIN index of what `$contains` reads (`…_trgm`) and of what `$containsi` and `_q` read (`…_trgmi`) */
function pgIndexes(q: (s: string) => string, table: string, column: string): Array<{ name: string; expr: string }> {
  const text = `CAST(${q(column)} AS TEXT)`;
  return [
    { name: `${TESSERA_INDEX_PREFIX}${table}_${column}_trgm`, expr: text },
    { name: `${TESSERA_INDEX_PREFIX}${table}_${column}_trgmi`, expr: `lower(${text})` },
  ];
}

async function ensurePostgres(db: Database, model: Model, config: SubstringIndexConfig, log: SearchLog): Promise<string[]> {
  const q = db.dialect.quote;
  const existing = new Set((await db.all<{ name: string }>(
    `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'tessera\\_%\\_trgm%'`,
  )).map((r) => r.name));
  if (config.mode === 'off') {
    for (const name of existing) await db.exec(`DROP INDEX CONCURRENTLY IF EXISTS ${q(name)}`);
    return [];
  }
  const want = await wanted(db, model, config, async (table) => [...existing].some((n) => n.startsWith(`${TESSERA_INDEX_PREFIX}${table}_`) && n.endsWith('_trgmi')));
  if (!want.length) return [];
  try {
    await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  } catch (err) {
    log.warn(`substring filters read every row: PostgreSQL's pg_trgm extension could not be created (${(err as Error).message})`);
    return [];
  }
  const made: string[] = [];
  for (const { table, columns } of want) {
    for (const column of columns) {
      for (const { name, expr } of pgIndexes(q, table, column)) {
        if (existing.has(name)) continue;
        if (name.length > MAX_NAME) {
          log.warn(`substring index ${name} not made: longer than PostgreSQL's ${MAX_NAME} characters`);
          continue;
        }
        try {
          // built without blocking the table's writers (other nodes serving while this one starts)
          await db.exec(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${q(name)} ON ${q(table)} USING gin (${expr} gin_trgm_ops)`);
          made.push(name);
        } catch (err) {
          // a concurrent build that failed leaves an invalid index behind: removed, so the next start tries again
          await db.exec(`DROP INDEX CONCURRENTLY IF EXISTS ${q(name)}`).catch(() => undefined);
          log.warn(`substring index ${name} on ${table} could not be made (substring filters read the table): ${(err as Error).message}`);
        }
      }
    }
  }
  return made;
}

// ---- start-up ---------------------------------------------------------------------------------------

export interface SearchLog {
  warn(msg: string): void;
}

/**
 * After schema sync: makes the missing substring indexes (and remakes SQLite's whose triggers are gone), removes
 * them all when configured off, and tells the compiler which SQLite tables have a current one. Returns the names made.
 */
export async function ensureSubstringIndexes(db: Database, model: Model, log: SearchLog, config: SubstringIndexConfig = DEFAULT_SUBSTRING_INDEX): Promise<string[]> {
  return db.dialect.name === 'sqlite' ? ensureSqlite(db, model, config, log) : ensurePostgres(db, model, config, log);
}
