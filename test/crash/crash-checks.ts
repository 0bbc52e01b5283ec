// What a killed server left in its project, read as the restarted server reads it: the database its
// config/database.js names, opened through Tessera's own openDatabase (on SQLite that connection replays the WAL,
// as the next start would), and public/uploads. Each problem is a line; a round compares them with what the
// fresh copy had before its first write (the baseline), so only what the round's writes did counts.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/project/config';
import { clearProjectCache } from '../../src/project/require-project';
import type { Database } from '../../src/storage/dialect';
import { openDatabase, type DatabaseConfig } from '../../src/storage/open-database';
import { consistencyProblems } from '../helpers/db-consistency';
import { dbRows } from '../helpers/db-rows';
import { fixtureModel } from '../helpers/fixture-model';

/** the project's database, opened as `tessera start` opens it */
export function openProjectDatabase(dir: string): Database {
  try {
    const conf = loadConfig(dir, { env: { ...process.env, NODE_ENV: 'test' } }).get<DatabaseConfig>('database.connection', {});
    return openDatabase(dir, conf);
  } finally {
    clearProjectCache(dir);
  }
}

export interface ProjectCheck {
  /** the database's and the upload folder's problems (integrity, orphans, files rows without their file) */
  problems: string[];
  /** files in public/uploads that no files row names: an upload whose row never committed (v4 leaves them too) */
  unreferencedFiles: string[];
  /** ids of the files rows with their hash */
  fileHashes: Map<number, string>;
  /** PostgreSQL: whether amcheck ran (false: the server lacks the extension) */
  amcheck?: boolean;
}

export async function checkProject(dir: string): Promise<ProjectCheck> {
  const db = openProjectDatabase(dir);
  try {
    // the fuzzers' layout check (v4's link, component and media tables against the Model) on this connection
    const problems = await consistencyProblems({ db, model: fixtureModel() });
    problems.push(...(await toOneProblems(db)));
    const amcheck = db.dialect.name === 'postgres' ? await postgresAmcheck(db, problems) : undefined;
    const files = await dbRows<{ id: number; hash: string; url: string; formats: unknown; provider: string }>(db, 'SELECT id, hash, url, formats, provider FROM files');
    const uploads = path.join(dir, 'public');
    const named = new Set<string>();
    for (const f of files) {
      const formats = (typeof f.formats === 'string' ? JSON.parse(f.formats) : f.formats ?? {}) as Record<string, { url: string }>;
      for (const url of [f.url, ...Object.values(formats).map((v) => v.url)]) {
        named.add(url);
        if (f.provider === 'local' && !fs.existsSync(path.join(uploads, url))) problems.push(`files row ${f.id}: ${url} is missing from public/uploads`);
      }
    }
    const onDisk = fs.readdirSync(path.join(uploads, 'uploads')).filter((name) => !name.startsWith('.'));
    return {
      problems,
      unreferencedFiles: onDisk.filter((name) => !named.has(`/uploads/${name}`)),
      fileHashes: new Map(files.map((f) => [Number(f.id), f.hash])),
      amcheck,
    };
  } finally {
    await db.close();
  }
}

/** a to-one relation holds at most one link per owner row */
async function toOneProblems(db: Database): Promise<string[]> {
  const q = (name: string) => db.dialect.quote(name);
  const tables = await db.introspect();
  const problems: string[] = [];
  for (const owner of fixtureModel().contentTypes.values()) {
    for (const a of Object.values(owner.attributes)) {
      if (a.kind !== 'relation' || !a.owner || a.many || !a.joinTable || !tables.has(a.joinTable.name)) continue;
      const col = q(a.joinTable.joinColumn);
      const [row] = await dbRows<{ n: number | string }>(db, `SELECT COUNT(*) AS n FROM (SELECT ${col} FROM ${q(a.joinTable.name)} GROUP BY ${col} HAVING COUNT(*) > 1) t`);
      if (Number(row.n)) problems.push(`${owner.uid}.${a.name}: ${row.n} rows with more than one link of a to-one relation`);
    }
  }
  return problems;
}

/**
 * PostgreSQL's own checks, with the amcheck extension where the server has it: every B-tree index against its
 * table (bt_index_check with heapallindexed) and every table's heap (verify_heapam). Returns whether it ran.
 */
async function postgresAmcheck(db: Database, problems: string[]): Promise<boolean> {
  try {
    await db.exec('CREATE EXTENSION IF NOT EXISTS amcheck');
  } catch {
    return false;
  }
  const indexes = await dbRows<{ name: string }>(db, `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_am am ON am.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace WHERE am.amname = 'btree' AND n.nspname = current_schema()`);
  for (const { name } of indexes) {
    try {
      await dbRows(db, 'SELECT bt_index_check(index => ?::regclass, heapallindexed => true) AS ok', db.dialect.quote(name));
    } catch (err) {
      problems.push(`amcheck: index ${name}: ${(err as Error).message}`);
    }
  }
  const tables = await dbRows<{ name: string }>(db, `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname = current_schema()`);
  for (const { name } of tables) {
    const corrupt = await dbRows<{ msg: string }>(db, 'SELECT msg FROM verify_heapam(relation => ?::regclass)', db.dialect.quote(name));
    for (const c of corrupt.slice(0, 3)) problems.push(`amcheck: table ${name}: ${c.msg}`);
  }
  return true;
}
