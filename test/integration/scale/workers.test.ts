// `tessera start --workers 2` (src/cli/workers.ts) on the scale-app project, on SQLite and (postgres project) on
// PostgreSQL: the first worker starts alone (it creates the schema), then the second; requests are spread over
// both and never served by the primary; a write through one is read through the other at once; a worker killed
// is replaced; SIGTERM stops all of them. A project that cannot start ends the primary with code 1.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject } from '../../helpers/fixture-app';
import { BIN, type CliRun } from '../../helpers/cli-process';
import { alive, createToken, request, SCALE_APP, Started, tablesCreated } from './scale-app';

const ROOT = path.resolve(__dirname, '../../..');
/** the primary's line once every worker serves */
const ALL_SERVING = /(\d+) workers serving .* at (http:\/\/127\.0\.0\.1:\d+) \(pids ([\d, ]+); primary (\d+)\)/;

describe('tessera start --workers 2', () => {
  const started = new Started();
  let primary: CliRun;
  let url: string;
  let token: string;
  let workers: number[];

  beforeAll(async () => {
    const dir = started.dir(copyProject(SCALE_APP));
    token = await createToken(started, dir); // schema and token first: the workers' own sync then has nothing to do
    primary = started.run(['start', dir, '--host', '127.0.0.1', '--port', '0', '--workers', '2']);
    const m = await primary.waitFor(ALL_SERVING, 60_000);
    url = m[2];
    workers = m[3].split(', ').map(Number);
    workers.forEach((pid) => started.worker(pid));
    expect(m[1]).toBe('2');
    expect(Number(m[4])).toBe(primary.child.pid);
  });
  afterAll(() => started.cleanUp());

  it('serves through both workers, never through the primary', async () => {
    const seen = new Set<number>();
    for (let i = 0; i < 10; i++) {
      const r = await request(url, 'GET', '/api/notes', { token });
      expect(r.status).toBe(200);
      seen.add(r.servedBy);
    }
    expect([...seen].sort()).toEqual([...workers].sort());
    expect(seen.has(primary.child.pid!)).toBe(false);
    // each worker printed its own start line, on the port the primary announced
    const lines = primary.output().split('\n').filter((l) => l.includes('Tessera serving'));
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toContain(` at ${url} (`);
  });

  it('reads a write made through one worker through the other at once', async () => {
    const before = (await request(url, 'GET', '/api/notes', { token })).body.meta.pagination.total;
    const created = await request(url, 'POST', '/api/notes', { token, body: { data: { title: 'written by one worker' } } });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    // round robin hands each new connection to the next worker: the other one answers within a few tries
    let other;
    for (let i = 0; i < 10 && !other; i++) {
      const r = await request(url, 'GET', `/api/notes/${id}`, { token });
      expect(r.status).toBe(200);
      expect(r.body.data.attributes.title).toBe('written by one worker');
      if (r.servedBy !== created.servedBy) other = r;
    }
    expect(other, 'no answer from the other worker').toBeDefined();
    let list;
    for (let i = 0; i < 10 && !list; i++) {
      const r = await request(url, 'GET', '/api/notes', { token });
      if (r.servedBy !== created.servedBy) list = r;
    }
    expect(list!.body.meta.pagination.total).toBe(before + 1);
  });

  it('replaces a worker that dies, and keeps serving meanwhile', async () => {
    const [victim, survivor] = workers;
    process.kill(victim, 'SIGKILL');
    const [, replacement] = await primary.waitFor(new RegExp(`worker ${victim} exited unexpectedly \\(signal SIGKILL\\)[^\\n]*\\n(?:.*\\n)*?.*worker (\\d+) serving`), 30_000);
    started.worker(Number(replacement));
    const seen = new Set<number>();
    for (let i = 0; i < 10; i++) {
      const r = await request(url, 'GET', '/api/notes', { token });
      expect(r.status).toBe(200);
      seen.add(r.servedBy);
    }
    expect([...seen].sort()).toEqual([survivor, Number(replacement)].sort());
    workers = [survivor, Number(replacement)];
  });

  it('stops every worker on SIGTERM and exits 0', async () => {
    primary.child.kill('SIGTERM');
    expect(await primary.exited).toBe(0);
    expect(primary.output()).toMatch(/SIGTERM: stopping 2 worker\(s\)/);
    expect(primary.output().match(/SIGTERM: finishing requests in flight and closing the database/g)).toHaveLength(2);
    for (const pid of workers) expect(alive(pid), `worker ${pid}`).toBe(false);
  });
});

it('creates the schema once: the first worker starts alone, then the others', async () => {
  const started = new Started();
  try {
    const dir = started.dir(copyProject(SCALE_APP));
    const primary = started.run(['start', dir, '--host', '127.0.0.1', '--port', '0', '--workers', '3']);
    const m = await primary.waitFor(ALL_SERVING, 60_000);
    m[3].split(', ').forEach((pid) => started.worker(Number(pid)));
    const out = primary.output();
    const starts = out.split('\n').filter((l) => l.includes('Tessera serving'));
    expect(starts).toHaveLength(3);
    const created = starts.map(tablesCreated);
    expect(created.filter((n) => n > 0)).toHaveLength(1);
    // the first worker's start line comes before the others': their tables were there
    expect(created[0]).toBeGreaterThan(0);
    expect(out).not.toMatch(/\] (warn|error):/);
    primary.child.kill('SIGTERM');
    expect(await primary.exited).toBe(0);
  } finally {
    await started.cleanUp();
  }
});

describe('refusals', () => {
  it('ends with code 1 when the project cannot start, after one worker tried', () => {
    const r = spawnSync(process.execPath, [BIN, 'start', path.join(ROOT, 'test/fixtures/broken-json'), '--port', '0', '--workers', '2'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr.match(/schema\.json/g)).toHaveLength(1); // the error once: the second worker never started
    expect(r.stderr).toMatch(/worker \d+ exited \(code 1\) while starting/);
  });

  it('refuses a --workers that is not a positive number', () => {
    for (const value of ['0', 'two', '-1']) {
      const r = spawnSync(process.execPath, [BIN, 'start', '--workers', value, '--port', '0'], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status, value).toBe(2);
      expect(r.stderr, value).toContain('--workers takes a positive number of processes');
    }
  });
});
