// The CLI as a user runs it: `tessera start` on the bundled example (seeded by its own bootstrap), a clean
// stop on SIGTERM, a broken project refused with one line naming the file, `tessera develop` restarting on
// a change, and `tessera token` create/list/revoke.
import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runTessera, SERVING, type CliRun } from '../helpers/cli-process';
import { onPostgres } from '../helpers/test-database';

const ROOT = path.resolve(__dirname, '../..');
const EXAMPLE = path.join(ROOT, 'examples/blog');

const temps: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true });
});

function copyExample(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-cli-'));
  temps.push(dir);
  fs.cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.tmp`) });
  return dir;
}

function run(args: string[], env: Record<string, string> = {}): CliRun {
  const running = runTessera(args, env);
  children.push(running.child);
  return running;
}

describe('tessera start', () => {
  it('serves the example with the content its bootstrap wrote, then stops cleanly on SIGTERM', async () => {
    const dir = copyExample();
    const app = run(['start', dir, '--host', '127.0.0.1', '--port', '0']);
    const [, url] = await app.waitFor(SERVING);
    expect(app.output()).toMatch(/4 content types|content types \(/);

    const list = await (await fetch(`${url}/api/articles?pagination[pageSize]=100`)).json() as { data: unknown[]; meta: { pagination: { total: number } } };
    expect(list.meta.pagination.total).toBe(6); // 8 sample articles, 2 of them drafts
    const global = await (await fetch(`${url}/api/global?populate=defaultSeo`)).json() as { data: { attributes: { siteName: string; defaultSeo: { metaTitle: string } } } };
    expect(global.data.attributes.siteName).toBeTruthy();
    expect(global.data.attributes.defaultSeo.metaTitle).toBeTruthy();
    const denied = await fetch(`${url}/api/articles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"data":{"title":"x"}}' });
    expect(denied.status).toBe(403);

    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    expect(app.output()).toMatch(/SIGTERM: finishing requests in flight and closing the database/);
  });

  it.skipIf(onPostgres)('keeps the example\'s SQLite database in .tmp/data.db after a stop (SQLite only: a file on disk)', async () => {
    const dir = copyExample();
    const app = run(['start', dir, '--host', '127.0.0.1', '--port', '0']);
    await app.waitFor(SERVING);
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    expect(fs.existsSync(path.join(dir, '.tmp/data.db'))).toBe(true);
  });

  it('keeps the data across restarts and does not seed twice', async () => {
    const dir = copyExample();
    for (let i = 0; i < 2; i++) {
      const app = run(['start', dir, '--host', '127.0.0.1', '--port', '0']);
      const [, url] = await app.waitFor(SERVING);
      const list = await (await fetch(`${url}/api/articles?publicationState=preview`)).json() as { meta: { pagination: { total: number } } };
      expect(list.meta.pagination.total).toBe(8); // drafts included
      app.child.kill('SIGTERM');
      expect(await app.exited).toBe(0);
    }
  });

  it('refuses a broken project with one line naming the file, and a non-zero exit', async () => {
    for (const [fixture, file] of [['broken-json', 'schema.json'], ['broken-target', 'schema.json'], ['broken-config', 'config/']] as const) {
      const r = spawnSync(process.execPath, [BIN, 'start', path.join(ROOT, 'test/fixtures', fixture), '--port', '0'], { encoding: 'utf8', timeout: 20_000 });
      expect(r.status, fixture).toBe(1);
      expect(r.stderr, fixture).toContain(file);
      expect(r.stderr, fixture).not.toMatch(/^\s+at /m); // a message, not a stack trace
    }
  });

  it('exits 2 with the usage for an unknown command', () => {
    const r = spawnSync(process.execPath, [BIN, 'serve'], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown command "serve"');
  });
});

describe('tessera develop', () => {
  it('restarts when a file under src/ changes', async () => {
    const dir = copyExample();
    const app = run(['develop', dir, '--host', '127.0.0.1', '--port', '0']);
    await app.waitFor(SERVING);
    const before = app.output().length;
    fs.appendFileSync(path.join(dir, 'src/index.js'), '\n// touched by the test\n');
    await app.waitFor(/changed, restarting/);
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no restart:\n${app.output().slice(before)}`)), 20_000);
      const iv = setInterval(() => {
        if (SERVING.test(app.output().slice(before))) { clearTimeout(t); clearInterval(iv); resolve(); }
      }, 100);
    });
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  });
});

describe('tessera token', () => {
  it('creates a token that authenticates, lists it without the key, and revokes it', async () => {
    const dir = copyExample();
    const cli = (...a: string[]) => spawnSync(process.execPath, [BIN, 'token', ...a, '--dir', dir], { encoding: 'utf8', timeout: 30_000 });
    const created = cli('create', '--name', 'ci', '--type', 'full-access', '--lifespan', '7');
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.match(/\b[0-9a-f]{256}\b/)?.[0];
    expect(key).toBeTruthy();

    const listed = cli('list');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('ci');
    expect(listed.stdout).toContain('full-access');
    expect(listed.stdout).not.toContain(key!);

    const app = run(['start', dir, '--host', '127.0.0.1', '--port', '0']);
    const [, url] = await app.waitFor(SERVING);
    const res = await fetch(`${url}/api/articles`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ data: { title: 'From the CLI token' } }) });
    expect(res.status).toBe(200);
    app.child.kill('SIGTERM');
    await app.exited;

    expect(cli('revoke', 'ci').status).toBe(0);
    expect(cli('list').stdout).not.toContain('full-access');
  });
});
