// The benchmark on PostgreSQL (`--postgres URL`): the SQLite dataset loaded once into a template database of
// the server (v4's tables made by Tessera's schema sync, then every row copied: test/helpers/sqlite-to-postgres.ts),
// and one copy of it per server (CREATE DATABASE ... TEMPLATE), dropped at the end, so writes of one server
// never reach another's data. Every database this run makes starts with `--pg-prefix`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTessera } from '../../src/core/tessera';
import { copySqliteToPostgres } from '../../test/helpers/sqlite-to-postgres';
import { makeProjectCopy } from './fixture';

const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** the URL of database `name` on the server of `adminUrl` */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url, application_name: 'tessera-bench' });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * config/database.js of a project copy in v4's postgres form, pointed at `url`. The pool as real Strapi's
 * (~/strapi4-pg: 10 connections), so neither server has more connections than the other.
 */
export function pointProjectAt(projectDir: string, url: string): void {
  const config = { connection: { client: 'postgres', connection: { connectionString: url }, pool: { min: 0, max: 10 } } };
  fs.writeFileSync(path.join(projectDir, 'config/database.js'), `// the benchmark's copy on PostgreSQL (bench/lib/postgres.ts)\nmodule.exports = ${JSON.stringify(config, null, 2)};\n`);
}

/**
 * The template database holding the rows of the SQLite dataset `file`, made when missing: its name follows the
 * file's (dataset size, seed, generator version), so a cached template is the same data.
 */
export async function ensurePostgresDataset(adminUrl: string, prefix: string, file: string, log: (m: string) => void): Promise<string> {
  const name = `${prefix}_${path.basename(file, '.db').replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
  return withClient(adminUrl, async (admin) => {
    // one builder at a time across runs
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) return name;
    const t0 = performance.now();
    const building = `${name}_w`;
    await admin.query(`DROP DATABASE IF EXISTS ${quote(building)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${quote(building)}`);
    try {
      await createTables(databaseUrl(adminUrl, building), file);
      await withClient(databaseUrl(adminUrl, building), async (c) => {
        await copySqliteToPostgres(file, c);
        await c.query('VACUUM ANALYZE'); // planner statistics, as a server that has run a while has them
      });
      // complete: only now does it take the name a later run looks for
      await admin.query(`ALTER DATABASE ${quote(building)} RENAME TO ${quote(name)}`);
    } catch (err) {
      await admin.query(`DROP DATABASE IF EXISTS ${quote(building)} WITH (FORCE)`).catch(() => undefined);
      throw err;
    }
    log(`  loaded ${path.basename(file)} into PostgreSQL database ${name} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return name;
  });
}

/** v4's tables for the fixture app, as Tessera's schema sync makes them (Tessera started once on a scratch copy) */
async function createTables(url: string, file: string): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-pg-'));
  try {
    const project = makeProjectCopy(path.join(scratch, 'project'), file);
    pointProjectAt(project, url);
    const app = await createTessera({ dir: project, silent: true, env: { ...process.env, NODE_ENV: 'production' } });
    await app.close();
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

export interface Clones {
  /** a new copy of the template for one server: its URL */
  clone(label: string): Promise<string>;
  /** drops every copy made */
  dropAll(): Promise<void>;
}

export function clonesOf(adminUrl: string, prefix: string, template: string, runId: string): Clones {
  const made: string[] = [];
  return {
    async clone(label) {
      const name = `${prefix}_${runId}_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
      await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(template)}`));
      made.push(name);
      return databaseUrl(adminUrl, name);
    },
    async dropAll() {
      await withClient(adminUrl, async (c) => {
        for (const name of made.splice(0)) await c.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
      });
    },
  };
}
