// Upload tests' running apps: a private copy of the fixture app (optionally with its own config/plugins.js
// or config/middlewares.js, or database edits made before start), served in-process on a free port, or
// as a child process (`tessera start`) with its own TMPDIR when the test watches the process itself.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createTessera, type Tessera } from '../../../src/core/tessera';
import type { SqlValue } from '../../../src/storage/dialect';
import { dbRows } from '../../helpers/db-rows';
import { copyFixtureApp } from '../../helpers/fixture-app';
import { dropProjectDatabase, onPostgres, usePostgres } from '../../helpers/test-database';

export interface AppOptions {
  withData?: boolean;
  /** replaces config/plugins.js */
  plugins?: string;
  /** replaces config/middlewares.js */
  middlewares?: string;
  /** runs on the copied database before the app starts */
  prepareDb?(db: Database.Database): void;
  /** runs on the copied project folder before the app starts */
  prepareDir?(dir: string): void;
}

export interface UploadApp {
  app: Tessera;
  url: string;
  dir: string;
  token: string;
  uploadsDir: string;
  /** rows of `sql` (`?` placeholders) read from the database the app runs on, values as SQLite stores them (db-rows.ts) */
  rows<T = Record<string, unknown>>(sql: string, ...params: SqlValue[]): Promise<T[]>;
  /** names in public/uploads */
  uploads(): string[];
  stop(): Promise<void>;
}

export function prepareAppDir(o: AppOptions = {}): string {
  const dir = copyFixtureApp(o.withData !== false);
  if (o.plugins) fs.writeFileSync(path.join(dir, 'config/plugins.js'), o.plugins);
  if (o.middlewares) fs.writeFileSync(path.join(dir, 'config/middlewares.js'), o.middlewares);
  o.prepareDir?.(dir);
  if (o.prepareDb && o.withData !== false) {
    const db = new Database(path.join(dir, '.tmp/data.db'));
    try {
      o.prepareDb(db);
    } finally {
      db.close();
    }
  }
  return dir;
}

function tokenOf(dir: string): string {
  const file = path.join(dir, '.tmp/token.txt');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
}

export async function startUploadApp(o: AppOptions = {}): Promise<UploadApp> {
  const dir = prepareAppDir(o);
  let app: Tessera;
  let url: string;
  try {
    app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (err) {
    // a project that must fail start-up leaves nothing behind
    fs.rmSync(dir, { recursive: true, force: true });
    await dropProjectDatabase(dir).catch(() => undefined); // the start's error is the one to see
    throw err;
  }
  const uploadsDir = path.join(dir, 'public/uploads');
  return {
    app, url, dir, uploadsDir,
    token: tokenOf(dir),
    rows: (sql, ...params) => dbRows(app.db, sql, ...params),
    uploads: () => fs.readdirSync(uploadsDir).filter((f) => f !== '.gitkeep').sort(),
    async stop() {
      try {
        await app.close();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        await dropProjectDatabase(dir);
      }
    },
  };
}

export interface ChildApp {
  url: string;
  dir: string;
  token: string;
  /** the child's own temporary folder (its TMPDIR) */
  tmpDir: string;
  child: ChildProcess;
  /** VmRSS / VmHWM of the child, in bytes (Linux /proc) */
  memory(): { rss: number; peak: number };
  stop(): Promise<void>;
}

const BIN = path.resolve(__dirname, '../../../bin/tessera.js');

export async function startChildApp(o: AppOptions = {}): Promise<ChildApp> {
  const dir = prepareAppDir(o);
  try {
    // a child process is not started through createTessera, which the postgres project prepares: prepared here
    if (onPostgres) await usePostgres(dir);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-child-tmp-'));
  const child = fork(BIN, ['start', dir, '--host', '127.0.0.1', '--port', '0'], {
    env: { ...process.env, NODE_ENV: 'test', TMPDIR: tmpDir },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => { stderr += String(d); });
  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      child.on('message', (m) => {
        const ready = (m as { ready?: string })?.ready;
        if (ready) resolve(ready);
      });
      child.on('exit', (code) => reject(new Error(`tessera exited (${code}): ${stderr}`)));
    });
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(tmpDir, { recursive: true, force: true });
    await dropProjectDatabase(dir).catch(() => undefined); // the start's error is the one to see
    throw err;
  }
  const statusField = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  };
  return {
    url, dir, tmpDir, child, token: tokenOf(dir),
    memory: () => ({ rss: statusField('VmRSS'), peak: statusField('VmHWM') }),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(tmpDir, { recursive: true, force: true });
      await dropProjectDatabase(dir);
    },
  };
}

export function form(files: Array<{ name: string; type?: string; data: Buffer }>, fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  for (const f of files) fd.append('files', new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.name);
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

export async function post(app: { url: string; token: string }, body: FormData | Record<string, unknown>, opts: { path?: string; auth?: boolean } = {}) {
  const headers: Record<string, string> = {};
  if (opts.auth !== false) headers.authorization = `Bearer ${app.token}`;
  let payload: FormData | string = body as FormData;
  if (!(body instanceof FormData)) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(app.url + (opts.path ?? '/api/upload'), { method: 'POST', headers, body: payload });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function call(app: { url: string; token: string }, method: string, p: string, opts: { auth?: boolean } = {}) {
  const res = await fetch(app.url + p, { method, headers: opts.auth === false ? {} : { authorization: `Bearer ${app.token}` } });
  const text = await res.text();
  let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  try { body = JSON.parse(text); } catch { body = text; }
  return { status: res.status, headers: res.headers, body };
}
