// Test helper: the shape of a SQLite file as SQLite itself reports it (pragmas), for comparisons with the files
// real v4 wrote: Tessera's own tables and indexes (`tessera_*`, storage/schema/tessera-indexes.ts, tessera-counts.ts) are left out.
import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TESSERA_INDEX_PREFIX } from '../../../src/storage/schema/tessera-indexes';

export interface Shape {
  tables: Map<string, {
    columns: { name: string; type: string; notnull: number; pk: number }[];
    indexes: Map<string, { unique: boolean; columns: string[] }>;
    /** distinct foreign keys (v4 on SQLite declares each constraint twice: its table rebuild re-adds them) */
    foreignKeys: string[];
  }>;
}

export function shapeOf(file: string): Shape {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const tables = new Map<string, Shape['tables'] extends Map<string, infer V> ? V : never>();
    const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '${TESSERA_INDEX_PREFIX}%' ORDER BY name`).all() as { name: string }[];
    for (const { name } of names) {
      const columns = db.prepare('SELECT name, lower(type) AS type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid').all(name) as Shape['tables'] extends Map<string, infer V> ? V extends { columns: infer C } ? C : never : never;
      const indexes = new Map<string, { unique: boolean; columns: string[] }>();
      for (const idx of db.prepare('SELECT name, "unique" AS u FROM pragma_index_list(?)').all(name) as { name: string; u: number }[]) {
        if (idx.name.startsWith('sqlite_autoindex') || idx.name.startsWith(TESSERA_INDEX_PREFIX)) continue;
        const cols = (db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(idx.name) as { name: string }[]).map((r) => r.name);
        indexes.set(idx.name, { unique: idx.u === 1, columns: cols });
      }
      const fks = db.prepare('SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?)').all(name) as { from: string; table: string; to: string; on_delete: string }[];
      const foreignKeys = [...new Set(fks.map((f) => `${f.from} -> ${f.table}(${f.to}) ON DELETE ${f.on_delete}`))].sort();
      tables.set(name, { columns, indexes, foreignKeys });
    }
    return { tables };
  } finally {
    db.close();
  }
}

export function rowCounts(file: string): Record<string, number> {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const out: Record<string, number> = {};
    const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[];
    for (const { name } of names) out[name] = (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
    return out;
  } finally {
    db.close();
  }
}

export function masterSql(file: string): string[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return (db.prepare(`SELECT type || ' ' || name || ': ' || coalesce(sql, '') AS s FROM sqlite_master WHERE name NOT LIKE '${TESSERA_INDEX_PREFIX}%' ORDER BY type, name`).all() as { s: string }[]).map((r) => r.s);
  } finally {
    db.close();
  }
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-schema-'));
}

/** a writable copy of a (read-only) database file */
export function copyDb(src: string, dir: string, name = 'data.db'): string {
  const dest = path.join(dir, name);
  fs.copyFileSync(src, dest);
  return dest;
}
