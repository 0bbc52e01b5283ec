// A private copy of the fixture app (test/fixtures/strapi4-app), optionally with the database and uploads
// real Strapi wrote for it, started on a free loopback port. Every copy is removed again: by stop(), or right
// away when starting it fails.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createTessera, type Tessera } from '../../src/core/tessera';
import { FIXTURE_APP, FIXTURE_DATA } from './fixture-model';
import { dropProjectDatabase } from './test-database';

export interface RunningApp {
  app: Tessera;
  url: string;
  dir: string;
  token: string;
  stop(): Promise<void>;
}

/** A private, writable copy of the fixture app (the caller removes it: fs.rmSync(dir, { recursive: true, force: true })). */
export function copyFixtureApp(withData: boolean): string {
  return filledTempDir((dir) => {
    for (const part of ['package.json', 'config', 'src', 'public', 'favicon.png']) {
      fs.cpSync(path.join(FIXTURE_APP, part), path.join(dir, part), { recursive: true });
    }
    fs.mkdirSync(path.join(dir, '.tmp'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'public/uploads'), { recursive: true });
    if (withData) {
      fs.copyFileSync(path.join(FIXTURE_DATA, 'data.db'), path.join(dir, '.tmp/data.db'));
      fs.copyFileSync(path.join(FIXTURE_DATA, 'token.txt'), path.join(dir, '.tmp/token.txt'));
      for (const f of fs.readdirSync(path.join(FIXTURE_DATA, 'uploads'))) fs.copyFileSync(path.join(FIXTURE_DATA, 'uploads', f), path.join(dir, 'public/uploads', f));
    }
    // writable whatever the source's modes (a read-only checkout)
    for (const p of walk(dir)) fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o644);
  });
}

/** a new tessera-app-* folder filled by `fill`; removed again when filling fails */
function filledTempDir(fill: (dir: string) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-app-'));
  try {
    fill(dir);
    return dir;
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

function walk(dir: string): string[] {
  return [dir, ...fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))];
}

export interface StartOptions {
  /** files written over the copy (path relative to the project -> content) */
  edit?: Record<string, string>;
  /** environment variables over the test's (NODE_ENV is `test` unless given) */
  env?: Record<string, string>;
}

export async function startFixtureApp(withData = true, opts: StartOptions = {}): Promise<RunningApp> {
  const dir = copyFixtureApp(withData);
  try {
    for (const [file, text] of Object.entries(opts.edit ?? {})) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return startCopy(dir, { env: opts.env });
}

/**
 * The fixture app with its data and, copied over it, the `src/` and `config/` files of `overlay` (a project that
 * is the fixture app plus its own files, e.g. test/fixtures/graphql-custom-app), started as startFixtureApp does.
 */
export async function startFixtureAppWith(overlay: string): Promise<RunningApp> {
  const dir = copyFixtureApp(true);
  try {
    for (const part of ['src', 'config']) {
      if (fs.existsSync(path.join(overlay, part))) fs.cpSync(path.join(overlay, part), path.join(dir, part), { recursive: true });
    }
    for (const p of walk(dir)) fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o644);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return startCopy(dir);
}

/**
 * A private, writable copy of a test project (e.g. test/fixtures/all-types) without its database; `edit`
 * writes files of the copy (path relative to the project -> content).
 */
export function copyProject(source: string, edit: Record<string, string> = {}): string {
  return filledTempDir((dir) => {
    fs.cpSync(source, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.tmp`) });
    for (const p of walk(dir)) fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o644);
    fs.mkdirSync(path.join(dir, '.tmp'), { recursive: true });
    for (const [file, text] of Object.entries(edit)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
  });
}

/** A private copy of a test project, started on an empty database. */
export async function startProjectCopy(source: string, edit: Record<string, string> = {}): Promise<RunningApp> {
  return startCopy(copyProject(source, edit));
}

/** Log lines a collecting logger keeps (pino's JSON lines, parsed). */
export interface LogLine { level: number; msg: string; err?: { message: string } }

/** a logger whose lines at `level` and up land in `lines` */
export function collectingLogger(lines: LogLine[], level = 'info'): pino.Logger {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return pino({ level }, sink);
}

/**
 * Starts Tessera on `dir`, which the result's stop() removes (and this, when starting fails), with its
 * PostgreSQL database in the postgres project. `env` over the test's (NODE_ENV is `test`); `logger`: where its
 * log goes (default: silent).
 */
export async function startCopy(dir: string, opts: { env?: Record<string, string>; logger?: pino.Logger } = {}): Promise<RunningApp> {
  let app: Tessera | undefined;
  try {
    const env = { ...process.env, NODE_ENV: 'test', ...opts.env };
    app = await createTessera(opts.logger ? { dir, env, logger: opts.logger } : { dir, silent: true, env });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const tokenFile = path.join(dir, '.tmp/token.txt');
    const started = app;
    return {
      app: started, url, dir,
      token: fs.existsSync(tokenFile) ? fs.readFileSync(tokenFile, 'utf8').trim() : '',
      async stop() {
        try {
          await started.close();
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
          await dropProjectDatabase(dir);
        }
      },
    };
  } catch (err) {
    await app?.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
    await dropProjectDatabase(dir).catch(() => undefined); // the start's error is the one to see
    throw err;
  }
}
