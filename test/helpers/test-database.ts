// The database a test runs on. In the `sqlite` vitest project that is the SQLite file the test names; in the
// `postgres` project (TESSERA_TEST_DB=postgres) it is a database of its own on the server postgres-global.ts
// found, holding the same rows:
// - openTestDatabase(file): a storage-level test's Database;
// - usePostgres(dir): a project copy about to start, its config/database.js pointed at a new database
//   (test/helpers/postgres-setup.ts calls it for every createTessera, cli-process.ts for every `tessera` child).
// A database with rows starts as a copy of a template: the SQLite rows copied once per distinct (SQLite content,
// project files) per run into tables Tessera created for that project (sqlite-to-postgres.ts), then cloned per
// test with CREATE DATABASE ... TEMPLATE. Every database a test process creates is dropped when its test file
// ends (postgres-setup.ts), or earlier by whoever closes it; postgres-global.ts drops the run's templates and
// anything a crashed process left.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { createTessera } from '../../src/core/tessera';
import { loadConfig } from '../../src/project/config';
import { clearProjectCache } from '../../src/project/require-project';
import type { Database, Executor } from '../../src/storage/dialect';
import { PostgresDatabase } from '../../src/storage/postgres/pg-database';
import { SqliteDatabase } from '../../src/storage/sqlite/sqlite-database';
import { FIXTURE_APP } from './fixture-model';
import { copySqliteToPostgres } from './sqlite-to-postgres';

/** true in the `postgres` vitest project */
export const onPostgres = process.env.TESSERA_TEST_DB === 'postgres';

const SQLITE_CLIENTS = new Set(['sqlite', 'better-sqlite3', 'sqlite3']);
const REPO = path.resolve(__dirname, '../..');
/** what the rewritten config/database.js starts with */
const POSTGRES_CONFIG_MARK = '// test copy on PostgreSQL';

const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** the server's admin URL (set by postgres-global.ts for the whole run) */
export function adminUrl(): string {
  const url = process.env.TESSERA_TEST_PG_URL;
  if (!url) throw new Error('TESSERA_TEST_PG_URL is not set: the postgres project\'s global setup (test/helpers/postgres-global.ts) sets it');
  return url;
}

/** the URL of database `name` on the test server */
export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/** every database of this run starts with it: `<prefix>_<run>_` (postgres-global.ts drops them all at the end) */
export function runPrefix(): string {
  return `${process.env.TESSERA_TEST_PG_PREFIX || 'tt'}_${process.env.TESSERA_TEST_PG_RUN || 'r'}_`;
}

let admin: Promise<pg.Client> | undefined;
/** one admin connection per test process, to the server's maintenance database */
function adminClient(): Promise<pg.Client> {
  admin ??= (async () => {
    const c = new pg.Client({ connectionString: adminUrl(), application_name: 'tessera-test-admin' });
    c.on('error', () => undefined);
    await c.connect();
    return c;
  })();
  return admin;
}

async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  return (await adminClient()).query(sql, params);
}

let counter = 0;
const created = new Set<string>();
/** project folder -> the database usePostgres made for it */
const projectDatabases = new Map<string, string>();

/**
 * How an empty database is created: with the C.UTF-8 locale whatever the server's default, as the goldens were
 * recorded (docs/postgres-case-rules.md: binary sort, Unicode lower()); plain where the server lacks that locale.
 */
let emptyDatabase = ` TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'`;
async function createEmpty(run: (sql: string) => Promise<unknown>, name: string): Promise<void> {
  try {
    await run(`CREATE DATABASE ${quote(name)}${emptyDatabase}`);
  } catch (err) {
    if (!emptyDatabase) throw err;
    emptyDatabase = '';
    await run(`CREATE DATABASE ${quote(name)}`);
  }
}

/** A new, empty database (or a copy of `template`); dropped at the latest when the test file ends. */
export async function createTestDatabase(template?: string): Promise<string> {
  const name = `${runPrefix()}${process.pid}_${++counter}`;
  for (let attempt = 0; ; attempt++) {
    try {
      if (template) await adminQuery(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(template)}`);
      else await createEmpty(adminQuery, name);
      break;
    } catch (err) {
      // 55006: another session is connected to the template (a clone running beside ours): wait and retry
      if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  created.add(name);
  return name;
}

/** a database another process made for the project in `dir` (cli-process.ts): dropped with this file's */
export function adoptProjectDatabase(dir: string, name: string): void {
  created.add(name);
  projectDatabases.set(path.resolve(dir), name);
}

export async function dropTestDatabase(name: string): Promise<void> {
  created.delete(name);
  await adminQuery(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
}

/** the database usePostgres made for the project in `dir` (stopped and removed: fixture-app.ts), if any */
export async function dropProjectDatabase(dir: string): Promise<void> {
  const name = projectDatabases.get(path.resolve(dir));
  projectDatabases.delete(path.resolve(dir));
  if (name) await dropTestDatabase(name);
}

/** the end of a test file: every database it created goes, and the admin connection */
export async function dropTestDatabases(): Promise<void> {
  try {
    for (const name of [...created]) await dropTestDatabase(name);
  } finally {
    projectDatabases.clear();
    await endAdminConnection();
  }
}

export async function endAdminConnection(): Promise<void> {
  const c = admin;
  admin = undefined;
  if (c) await (await c.catch(() => undefined))?.end().catch(() => undefined);
}

export interface TestDatabaseOptions {
  /** the project whose tables hold the file's rows on PostgreSQL (default: the fixture app, whose model these tests use) */
  project?: string;
  /**
   * on PostgreSQL, instead of the file's rows: an empty database on which these SQL scripts (e.g. pg_dumps of
   * what real Strapi made there: test/fixtures/strapi4-pg/schema.sql, data.sql) ran first, in order
   */
  postgresScript?: string | string[];
}

/**
 * The Database a storage-level test runs on: the SQLite `file` itself, or (postgres project) a new database
 * holding its rows, in the tables Tessera creates for the project. A missing or empty file gives an empty
 * database. close() also drops the PostgreSQL database.
 */
export async function openTestDatabase(file: string, opts: TestDatabaseOptions = {}): Promise<Database> {
  if (!onPostgres) return new SqliteDatabase(file);
  const rows = !opts.postgresScript && hasTables(file);
  const name = await createTestDatabase(rows ? await templateFor(file, opts.project ?? FIXTURE_APP) : undefined);
  for (const script of [opts.postgresScript ?? []].flat()) await runScript(name, fs.readFileSync(script, 'utf8'));
  const db = new PostgresDatabase({ connectionString: databaseUrl(name), pool: { min: 0, max: 4 } });
  const close = db.close.bind(db);
  db.close = async () => {
    try {
      await close();
    } finally {
      await dropTestDatabase(name);
    }
  };
  return db;
}

/** `sql` on database `name`, through a connection of its own (a script's session settings stay with it) */
async function runScript(name: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(name), application_name: 'tessera-test-script' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** a test's raw SQL written with `?` placeholders, in `db`'s dialect ($1, $2, ... on PostgreSQL) */
export function sqlFor(db: Executor, sql: string): string {
  let n = 0;
  return db.dialect.name === 'sqlite' ? sql : sql.replace(/\?/g, () => db.dialect.placeholder(++n));
}

/** a datetime column as read raw: epoch milliseconds on SQLite, a Date from pg; as epoch milliseconds */
export function storedMs(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.getTime() : Number(value);
}

/**
 * Another connection to the same data as `db` (openTestDatabase's, on `file`): what another process, or Strapi
 * beside Tessera, would write through. Its close() leaves the database.
 */
export function secondConnection(db: Database, file: string): Database {
  return db instanceof PostgresDatabase ? new PostgresDatabase({ ...db.config, pool: { min: 0, max: 1 } }) : new SqliteDatabase(file);
}

/** the SQLite file a project's config names, or undefined when it is not on SQLite (already prepared, broken) */
function sqliteFileOf(dir: string, env: NodeJS.ProcessEnv): { file?: string; config: Record<string, unknown> } | undefined {
  let config: Record<string, unknown>;
  try {
    config = loadConfig(dir, { env }).get<Record<string, unknown>>('database', {});
  } catch {
    return undefined; // createTessera reports it as it would on SQLite
  } finally {
    clearProjectCache(dir);
  }
  const conn = (config.connection ?? {}) as { client?: string; connection?: { filename?: string } };
  if (!SQLITE_CLIENTS.has(conn.client ?? 'sqlite')) return undefined;
  const filename = String(conn.connection?.filename ?? '.tmp/data.db');
  return { file: filename === ':memory:' ? undefined : path.resolve(dir, filename), config };
}

/**
 * The project in `dir` on PostgreSQL: a new database (with the rows of its SQLite database, when it has one),
 * and config/database.js in v4's postgres form pointing at it. Returns the database's name; undefined when the
 * project is not on SQLite (already prepared: a restart on the same folder keeps its database).
 */
export async function usePostgres(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  // only copies are rewritten: a folder of the repository (a broken fixture a test starts as it is) stays as it is
  if (!path.relative(REPO, path.resolve(dir)).startsWith('..')) return undefined;
  const found = sqliteFileOf(dir, env);
  if (!found) return undefined;
  const name = await createTestDatabase(found.file && hasTables(found.file) ? await templateFor(found.file, dir, env) : undefined);
  writePostgresConfig(dir, databaseUrl(name), found.config);
  projectDatabases.set(path.resolve(dir), name);
  return name;
}

/**
 * config/database.js in v4's postgres form, keeping the other keys the project's had; the env folders'
 * database files, which would override it, get the same.
 */
function writePostgresConfig(dir: string, connectionString: string, previous: Record<string, unknown>): void {
  const { client: _c, connection: _conn, useNullAsDefault: _u, pool: _p, ...connectionRest } = (previous.connection ?? {}) as Record<string, unknown>;
  const config = {
    ...previous,
    connection: { ...connectionRest, client: 'postgres', connection: { connectionString }, pool: { min: 0, max: 4 } },
  };
  const text = `${POSTGRES_CONFIG_MARK} (test/helpers/test-database.ts)\nmodule.exports = ${JSON.stringify(config, null, 2)};\n`;
  const configDir = path.join(dir, 'config');
  const envDirs = fs.existsSync(path.join(configDir, 'env')) ? fs.readdirSync(path.join(configDir, 'env')).map((e) => path.join(configDir, 'env', e)) : [];
  for (const d of [configDir, ...envDirs]) {
    const js = path.join(d, 'database.js');
    if (d !== configDir && !fs.existsSync(js) && !fs.existsSync(path.join(d, 'database.json'))) continue;
    fs.rmSync(path.join(d, 'database.json'), { force: true });
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(js, text);
  }
}

function hasTables(file: string): boolean {
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) return false;
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get() as { n: number }).n > 0;
  } finally {
    db.close();
  }
}

const templates = new Map<string, Promise<string>>();

/** the run's template database for the rows of `file` in `project`'s tables: made once (across processes) */
function templateFor(file: string, project: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const name = `${runPrefix()}t_${templateKey(file, project)}`;
  let t = templates.get(name);
  if (!t) {
    t = buildTemplate(name, file, project, env);
    templates.set(name, t);
    t.catch(() => templates.delete(name));
  }
  return t;
}

/** a hash of the SQLite content and of the project files that decide its tables (package.json, plugins, src/) */
function templateKey(file: string, project: string): string {
  const hash = crypto.createHash('sha256');
  for (const f of [file, `${file}-wal`]) if (fs.existsSync(f)) hash.update(fs.readFileSync(f));
  const parts = ['package.json', 'src', 'config/plugins.js', 'config/plugins.json', 'config/plugins.ts'];
  const envDir = path.join(project, 'config/env');
  if (fs.existsSync(envDir)) for (const e of fs.readdirSync(envDir).sort()) parts.push(`config/env/${e}/plugins.js`, `config/env/${e}/plugins.json`);
  for (const part of parts) {
    for (const f of filesUnder(path.join(project, part))) {
      hash.update(path.relative(project, f));
      hash.update(fs.readFileSync(f));
    }
  }
  return hash.digest('hex').slice(0, 20);
}

function filesUnder(p: string): string[] {
  if (!fs.existsSync(p)) return [];
  if (!fs.statSync(p).isDirectory()) return [p];
  return fs.readdirSync(p).sort().filter((e) => e !== 'node_modules').flatMap((e) => filesUnder(path.join(p, e)));
}

/**
 * Under an advisory lock (vitest runs files in parallel processes): unless another process made it, a new
 * database gets v4's tables from Tessera started once on a scratch copy of the project (so its bootstrap
 * writes nothing into the test's folder), then the SQLite rows, and keeps the tables the SQLite file has; it
 * takes its final name only when complete.
 */
async function buildTemplate(name: string, file: string, project: string, env: NodeJS.ProcessEnv): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl(), application_name: 'tessera-test-template' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return name;
    const building = `${name}_w`;
    await client.query(`DROP DATABASE IF EXISTS ${quote(building)} WITH (FORCE)`);
    await createEmpty((sql) => client.query(sql), building);
    await createTables(project, databaseUrl(building), env);
    const target = new pg.Client({ connectionString: databaseUrl(building), application_name: 'tessera-test-template' });
    await target.connect();
    try {
      const copied = await copySqliteToPostgres(file, target);
      // the tables the SQLite database has, no more: a storage test sees what the file holds (Tessera's start
      // creates the others again, as it would on the file)
      for (const t of copied.postgresOnlyTables) await target.query(`DROP TABLE IF EXISTS ${quote(t)} CASCADE`);
    } finally {
      await target.end();
    }
    await client.query(`ALTER DATABASE ${quote(building)} RENAME TO ${quote(name)}`);
    return name;
  } finally {
    await client.end().catch(() => undefined); // ends the session: the lock goes with it
  }
}

/** whether Tessera's schema sync ran on the database at `url` (it writes v4's schema record last) */
async function schemaSynced(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ n: string }>(`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'strapi_database_schema'`);
    return Number(r.rows[0].n) > 0 && Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM strapi_database_schema')).rows[0].n) > 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Tessera started once on a scratch copy of `project` pointed at `url`: its schema sync makes v4's tables */
async function createTables(projectDir: string, url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const project = path.resolve(projectDir);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-pg-template-'));
  try {
    const skip = new Set(['.tmp', 'node_modules', path.join('public', 'uploads')].map((p) => path.join(project, p)));
    fs.cpSync(project, scratch, { recursive: true, filter: (src) => !skip.has(src) });
    fs.mkdirSync(path.join(scratch, '.tmp'), { recursive: true });
    // a project's plugins resolve from its node_modules (test/integration/plugins: a link)
    if (fs.existsSync(path.join(project, 'node_modules'))) fs.symlinkSync(fs.realpathSync(path.join(project, 'node_modules')), path.join(scratch, 'node_modules'), 'dir');
    const previous = sqliteFileOf(scratch, env)?.config ?? {};
    writePostgresConfig(scratch, url, previous);
    try {
      const app = await createTessera({ dir: scratch, silent: true, env: { ...env, NODE_ENV: env.NODE_ENV ?? 'test' } });
      await app.close();
    } catch (err) {
      // a project's bootstrap may need its rows (a seed linking to existing entries) and fail on this empty
      // database: by then the schema sync has made the tables, which is all this start is for
      if (!(await schemaSynced(url))) throw err;
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
