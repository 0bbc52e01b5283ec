// A private copy of the fixture app (../shared/strapi4), optionally with the database and uploads
// real Strapi wrote for it, started on a free loopback port.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTessera, type Tessera } from '../../src/core/tessera';
import { FIXTURE_APP } from './fixture-model';

export interface RunningApp {
  app: Tessera;
  url: string;
  dir: string;
  token: string;
  stop(): Promise<void>;
}

export function copyFixtureApp(withData: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-app-'));
  for (const part of ['package.json', 'config', 'src', 'public', 'favicon.png']) {
    fs.cpSync(path.join(FIXTURE_APP, part), path.join(dir, part), { recursive: true });
  }
  fs.mkdirSync(path.join(dir, '.tmp'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'public/uploads'), { recursive: true });
  if (withData) {
    const data = path.join(FIXTURE_APP, 'fixture-data');
    fs.copyFileSync(path.join(data, 'data.db'), path.join(dir, '.tmp/data.db'));
    fs.copyFileSync(path.join(data, 'token.txt'), path.join(dir, '.tmp/token.txt'));
    for (const f of fs.readdirSync(path.join(data, 'uploads'))) fs.copyFileSync(path.join(data, 'uploads', f), path.join(dir, 'public/uploads', f));
  }
  // the copies are read-only like their source
  for (const p of walk(dir)) fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o644);
  return dir;
}

function walk(dir: string): string[] {
  return [dir, ...fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))];
}

export async function startFixtureApp(withData = true): Promise<RunningApp> {
  return startCopy(copyFixtureApp(withData));
}

/**
 * A private, writable copy of a test project (e.g. test/fixtures/all-types) without its database; `edit`
 * writes files of the copy (path relative to the project -> content).
 */
export function copyProject(source: string, edit: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-app-'));
  fs.cpSync(source, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.tmp`) });
  for (const p of walk(dir)) fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o644);
  fs.mkdirSync(path.join(dir, '.tmp'), { recursive: true });
  for (const [file, text] of Object.entries(edit)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** A private copy of a test project, started on an empty database. */
export async function startProjectCopy(source: string, edit: Record<string, string> = {}): Promise<RunningApp> {
  const dir = copyProject(source, edit);
  try {
    return await startCopy(dir);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function startCopy(dir: string): Promise<RunningApp> {
  const app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const tokenFile = path.join(dir, '.tmp/token.txt');
  return {
    app, url, dir,
    token: fs.existsSync(tokenFile) ? fs.readFileSync(tokenFile, 'utf8').trim() : '',
    async stop() {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
