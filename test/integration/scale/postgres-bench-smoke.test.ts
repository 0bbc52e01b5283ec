// The benchmark runner on PostgreSQL (`--postgres`, bench/lib/postgres.ts) with `--workers 2`, on a small
// dataset: the dataset loaded into a template database, a copy per server, the pg floor (bench/floor/pg-queries.ts)
// answering every REST read exactly as Tessera does (so the two JSON writers, Tessera's and the hand-written one,
// agree value for value), every request of Tessera answered, and the run's copies dropped at its end. No figures
// are asserted. PostgreSQL only (the file name); the SQLite run is test/bench/smoke.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import type { RunSummary } from '../../../bench/lib/report';
import { parseOptions, runBenchmark } from '../../../bench/run';
import { adminUrl, runPrefix } from '../../helpers/test-database';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-pg-smoke-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('runs the REST cases on PostgreSQL with --workers 2, the pg floor answering as Tessera', async () => {
  // the run's databases start with the test run's prefix: what the run leaves (its template) goes with the run's
  const prefix = `${runPrefix()}bench`;
  const options = parseOptions([
    '--smoke', '--postgres', adminUrl(), '--pg-prefix', prefix, '--workers', '2',
    '--cases', 'list,populate,search,findone,deep-filter,page-200,create',
    '--out', path.join(dir, 'results'), '--cache', path.join(dir, 'cache'),
  ], () => undefined);
  const { files } = await runBenchmark(options);

  const json = JSON.parse(fs.readFileSync(files.json, 'utf8')) as RunSummary;
  expect(path.basename(files.json)).toMatch(/-postgres-workers2\.json$/);
  expect(json.settings).toMatchObject({ database: 'postgres', workers: 2 });
  for (const c of json.cases) {
    const t = c.servers.tessera;
    expect(t!.non2xx + t!.errors, `${c.id}: failed requests`).toBe(0);
    expect(c.statements.tessera?.statuses, c.id).toEqual([200]);
    if (c.kind === 'read') {
      expect(c.answers['floor-pg'], `${c.id}: floor-pg answers`).toBe('same');
      expect(c.floor, c.id).toBe('floor-pg');
    }
  }
  expect(json.notes.join(' ')).toMatch(/On PostgreSQL \(PostgreSQL \d+/);

  // the copies made for the servers are gone; the template stays for a later run
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    const left = (await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname', [prefix])).rows.map((r) => r.datname);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/_articles_200_seed\d+_v\d+$/);
  } finally {
    await client.end();
  }
}, 240_000);
