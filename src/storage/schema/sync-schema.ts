// Bring a live database up to the model without ever losing anything: create missing tables (with
// their indexes and foreign keys), add missing columns and indexes. Never drops a table, column or
// index, never rewrites data. A column whose type differs is a warning; extra tables and columns are
// left alone (listed in `warnings`, not logged).
//
// strapi_database_schema: v4 (4.26.2) at start compares the stored hash with the hash of the schema
// it derives; equal -> it does nothing; different or absent -> it introspects the live database and
// applies the diff (strictSyncSchema, forceMigration default true: it also DROPS tables/columns/indexes
// its model lacks). So after we change the schema we store exactly what v4 would store for this model
// (same JSON, same hash) when the live tables now match it; if a column type stays different we delete
// the row instead, so v4 re-inspects the live database rather than trusting a row that is not true.
// When we change nothing, the row is left as it is. strapi_migrations only logs the project's own
// database/migrations files: we create the table and insert nothing (v4 runs those files itself).
import type { Database, Executor, TableInfo } from '../dialect';
import type { Model } from '../../model/types';
import type { SchemaDdl } from './ddl';
import { modelSchema } from './schema-from-model';
import { postgresDdl } from './pg-ddl';
import { sqliteDdl } from './sqlite-ddl';
import type { TableDef } from './table-def';
import { v4SchemaHash, type V4Schema } from './v4-schema';
import { ensureTesseraCounts } from './tessera-counts';
import { ensureTesseraIndexes, TESSERA_INDEX_PREFIX } from './tessera-indexes';
import { ensureSubstringIndexes, type SubstringIndexConfig } from './tessera-search';

export interface SyncLog {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface SyncResult {
  /** tables created */
  created: string[];
  /** `table.column` added */
  addedColumns: string[];
  /** `table.index` added */
  addedIndexes: string[];
  warnings: string[];
}

export interface SyncOptions {
  /** write the v4 strapi_database_schema row after a change (default true) */
  persistV4Schema?: boolean;
  /** which collection types get a substring index (config/database.js `settings`; tessera-search.ts) */
  substringIndex?: SubstringIndexConfig;
}

const SCHEMA_TABLE = 'strapi_database_schema';

export function ddlFor(dialect: Database['dialect']): SchemaDdl {
  switch (dialect.name) {
    case 'sqlite': return sqliteDdl;
    case 'postgres': return postgresDdl;
  }
}

interface Plan {
  statements: string[];
  created: string[];
  addedColumns: string[];
  /** indexes on tables that already exist: each on its own, a failure (duplicates) is a warning */
  indexes: { table: string; name: string; sql: string }[];
  warnings: string[];
  typeMismatches: number;
}

function plan(tables: TableDef[], live: Map<string, TableInfo>, ddl: SchemaDdl, q: Database['dialect']['quote'], log: SyncLog): Plan {
  const p: Plan = { statements: [], created: [], addedColumns: [], indexes: [], warnings: [], typeMismatches: 0 };
  const wanted = new Set(tables.map((t) => t.name));
  const foreignKeys: string[] = [];
  for (const t of tables) {
    const info = live.get(t.name);
    if (!info) {
      p.statements.push(...ddl.createTable(q, t));
      if (ddl.foreignKeys) foreignKeys.push(...ddl.foreignKeys(q, t));
      p.created.push(t.name);
      continue;
    }
    for (const c of t.columns) {
      const have = info.columns.get(c.name);
      if (!have) {
        const sql = ddl.addColumn(q, t, c);
        if (sql) {
          p.statements.push(sql);
          p.addedColumns.push(`${t.name}.${c.name}`);
        } else {
          const msg = `column ${t.name}.${c.name} is missing and cannot be added in place (${ddl.columnType(c)}${c.nullable ? '' : ' not null'})`;
          log.warn(msg);
          p.warnings.push(msg);
          p.typeMismatches++;
        }
      } else if (!ddl.sameType(have.type, c)) {
        const msg = `column ${t.name}.${c.name} is ${have.type || '(no type)'} in the database, the model wants ${ddl.columnType(c)}: kept as it is`;
        log.warn(msg);
        p.warnings.push(msg);
        p.typeMismatches++;
      }
    }
    const wantedColumns = new Set(t.columns.map((c) => c.name));
    for (const name of info.columns.keys()) {
      if (!wantedColumns.has(name)) p.warnings.push(`column ${t.name}.${name} is not in the model: kept`);
    }
    for (const idx of t.indexes) {
      if (!info.indexes.has(idx.name)) p.indexes.push({ table: t.name, name: idx.name, sql: ddl.createIndex(q, t.name, idx) });
    }
  }
  for (const name of live.keys()) {
    if (!wanted.has(name) && !name.startsWith(TESSERA_INDEX_PREFIX)) p.warnings.push(`table ${name} is not in the model: kept`);
  }
  p.statements.push(...foreignKeys);
  return p;
}

async function writeV4Schema(tx: Executor, schema: V4Schema): Promise<void> {
  const q = tx.dialect.quote;
  const ph = (n: number) => tx.dialect.placeholder(n);
  await tx.run(`DELETE FROM ${q(SCHEMA_TABLE)}`);
  await tx.run(
    `INSERT INTO ${q(SCHEMA_TABLE)} (${q('schema')}, ${q('time')}, ${q('hash')}) VALUES (${ph(1)}, ${ph(2)}, ${ph(3)})`,
    [JSON.stringify(schema), tx.dialect.datetimeToDb(new Date()), v4SchemaHash(schema)],
  );
}

export async function syncSchema(db: Database, model: Model, log: SyncLog, opts: SyncOptions = {}): Promise<SyncResult> {
  return db.exclusive ? db.exclusive('tessera:schema-sync', () => syncNow(db, model, log, opts)) : syncNow(db, model, log, opts);
}

async function syncNow(db: Database, model: Model, log: SyncLog, opts: SyncOptions): Promise<SyncResult> {
  const ddl = ddlFor(db.dialect);
  const q = db.dialect.quote;
  const { v4, tables } = modelSchema(model);
  const p = plan(tables, await db.introspect(), ddl, q, log);

  if (p.statements.length > 0) {
    await db.transaction(async (tx) => {
      for (const sql of p.statements) await tx.run(sql);
    });
  }
  const addedIndexes: string[] = [];
  let failedIndexes = 0;
  for (const idx of p.indexes) {
    try {
      await db.run(idx.sql);
      addedIndexes.push(`${idx.table}.${idx.name}`);
    } catch (err) {
      failedIndexes++;
      const msg = `index ${idx.name} on ${idx.table} could not be created: ${(err as Error).message}`;
      log.warn(msg);
      p.warnings.push(msg);
    }
  }

  const changed = p.created.length + p.addedColumns.length + addedIndexes.length > 0;
  if (changed && opts.persistV4Schema !== false) {
    const trustworthy = p.typeMismatches === 0 && failedIndexes === 0;
    await db.transaction(async (tx) => {
      if (trustworthy) await writeV4Schema(tx, v4);
      else await tx.run(`DELETE FROM ${q(SCHEMA_TABLE)}`);
    });
  }

  if (p.created.length) log.info(`schema: created ${p.created.length} tables (${p.created.join(', ')})`);
  if (p.addedColumns.length) log.info(`schema: added columns ${p.addedColumns.join(', ')}`);
  if (addedIndexes.length) log.info(`schema: added indexes ${addedIndexes.join(', ')}`);
  // Tessera's own indexes (not v4's, not in its schema record): re-created whenever missing
  const own = await ensureTesseraIndexes(db, model, log.warn);
  if (own.length) log.info(`schema: added Tessera's indexes ${own.join(', ')}`);
  const counted = await ensureTesseraCounts(db, model, log.warn);
  if (counted.length) log.info(`schema: totals kept by triggers for ${counted.join(', ')}`);
  const searched = await ensureSubstringIndexes(db, model, log, opts.substringIndex);
  if (searched.length) log.info(`schema: substring indexes made ${searched.join(', ')}`);
  return { created: p.created, addedColumns: p.addedColumns, addedIndexes, warnings: p.warnings };
}
