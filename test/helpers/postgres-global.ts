// vitest globalSetup of the `postgres` project: the PostgreSQL server its tests run on.
// - TESSERA_TEST_PG_URL (an admin URL: a role that may CREATE DATABASE, e.g. postgres://postgres@127.0.0.1:54329/postgres)
//   or else DATABASE_URL: that server;
// - neither, but we are root and PostgreSQL's server binaries are installed (/usr/lib/postgresql/*/bin): a
//   throwaway server of our own (.ci/pg-throwaway.sh) on a free port, stopped at the end;
// - otherwise the run fails with a message saying how to get one: the PostgreSQL half is never skipped silently.
// The server must answer `SELECT 1` before any test starts. Every test process reads TESSERA_TEST_PG_URL (the
// admin URL) and TESSERA_TEST_PG_RUN (this run's id, in every database name: test-database.ts); at the end the
// run's databases still there (templates, what a crashed process left) are dropped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

const REPO = path.resolve(__dirname, '../..');
const THROWAWAY = path.join(REPO, '.ci/pg-throwaway.sh');

export const NEEDS_SERVER = [
  'the PostgreSQL half of the suite needs a server: run `sudo bash .ci/pg-throwaway.sh start` (it listens on 54329)',
  'and set TESSERA_TEST_PG_URL=postgres://postgres@127.0.0.1:54329/postgres, or set TESSERA_TEST_PG_URL=postgres://user@host:port/db',
  'for a server of your own (a role that may create databases); `npm run test:sqlite` runs the SQLite half alone',
].join(' ');

function serverBinaries(): boolean {
  const root = '/usr/lib/postgresql';
  return fs.existsSync(root) && fs.readdirSync(root).some((v) => fs.existsSync(path.join(root, v, 'bin/initdb')));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** a throwaway server of our own: its admin URL and how to stop it */
async function startThrowaway(): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  // not under the run's TMPDIR: the server runs as the `postgres` user, who cannot enter root's private folders
  const dir = fs.mkdtempSync('/tmp/tessera-test-pg-');
  const env = { ...process.env, PGPORT: String(port), PG_DIR: dir };
  const stop = () => {
    try {
      execFileSync('bash', [THROWAWAY, 'stop'], { env, stdio: 'ignore' });
    } catch {
      // nothing was running
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    execFileSync('bash', [THROWAWAY, 'start'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    stop();
    throw new Error(`could not start a throwaway PostgreSQL server (${THROWAWAY}): ${String((err as { stderr?: Buffer }).stderr ?? err)}\n${NEEDS_SERVER}`);
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, application_name: 'tessera-test-global', connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  let url = process.env.TESSERA_TEST_PG_URL || process.env.DATABASE_URL;
  let own: { stop(): void } | undefined;
  if (!url) {
    if (process.getuid?.() !== 0 || !serverBinaries()) throw new Error(NEEDS_SERVER);
    const started = await startThrowaway();
    url = started.url;
    own = started;
  }
  try {
    await query(url, 'SELECT 1');
  } catch (err) {
    own?.stop();
    throw new Error(`PostgreSQL at ${redacted(url)} does not answer (${(err as Error).message}).\n${NEEDS_SERVER}`);
  }
  process.env.TESSERA_TEST_PG_URL = url;
  process.env.TESSERA_TEST_PG_RUN = String(process.pid);
  const prefix = `${process.env.TESSERA_TEST_PG_PREFIX || 'tt'}_${process.pid}_`;
  const dropRun = async () => {
    const left = await query<{ datname: string }>(url!, 'SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of left) await query(url!, `DROP DATABASE IF EXISTS "${datname.replace(/"/g, '""')}" WITH (FORCE)`);
  };
  await dropRun(); // a database of an earlier run that had our process id
  return async () => {
    try {
      await dropRun();
    } finally {
      own?.stop();
    }
  };
}

function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an invalid URL)';
  }
}
