// Values another writer may leave in v4's tables, through HTTP: the JSON target writes what it can write
// exactly, and a page holding a value it cannot (a BLOB, a number JavaScript would write differently)
// is answered by the JavaScript path; the response is the JavaScript reference's either way.
// SQLite only (its storage classes); PostgreSQL's odd values: postgres-json-values.test.ts.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProjectCopy, type RunningApp } from '../../helpers/fixture-app';
import { onPostgres } from '../../helpers/test-database';
import { bothTargets, targetsFor, type Targets } from './targets';

let running: RunningApp;
let t: Targets;

const COLUMNS = ['name', 'day', 'at', '`when`', 'stamp', 'count', 'huge', 'ratio', 'amount', 'active', 'data', 'hidden'];

/** one row per line: SQL literals in COLUMNS order */
const ROWS = [
  [`'usual'`, `'2024-02-29'`, `'10:30:15.123'`, '1704189600123', '1704189600123', '7', '9223372036854775807', '0.1', '12.345', '1', `'{"a":[1,"x",null]}'`, `'h'`],
  [`'text dates'`, `'2024-02-29T10:00:00.000Z'`, '36000', `'2024-01-02T03:04:05.678Z'`, `'2024-01-02T03:04:05.678Z'`, `'12'`, '-5', `'1.5'`, `'2.50'`, `'t'`, `'{a:1}'`, 'NULL'],
  [`'odd numbers'`, 'NULL', 'NULL', '-62135596800000', '9007199254740993', '2.5', '2.5', '1e30', '-0.0', `'yes'`, `'"just a string"'`, 'NULL'],
  [`'nulls'`, 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL'],
  [`'risky json'`, 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', '0', `'[1E400]'`, 'NULL'],
  [`'infinite'`, 'NULL', 'NULL', 'NULL', 'NULL', '1e999', 'NULL', '-1e999', 'NULL', '0', 'NULL', 'NULL'],
  [`'blob in json'`, 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', '0', `x'00ff'`, 'NULL'],
  [`x'00ff'`, 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', '0', 'NULL', 'NULL'],
];

async function http(url: string): Promise<string> {
  const res = await running.app.server.inject({ method: 'GET', url }); // the Public role (the project's bootstrap grants it)
  expect(res.statusCode).toBe(200);
  return JSON.stringify(JSON.parse(res.body));
}

describe.skipIf(onPostgres)('odd stored values', () => {
  beforeAll(async () => {
    running = await startProjectCopy(path.resolve(__dirname, '../../fixtures/all-types'));
    const db = running.app.db;
    for (const row of ROWS) await db.run(`INSERT INTO things (${COLUMNS.join(', ')}, created_at, updated_at) VALUES (${row.join(', ')}, 1704189600000, 1704189600000)`);
    t = targetsFor(db, running.app.model);
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('rows the JSON target writes exactly are answered by it, as the JavaScript path would', async () => {
    // 6: infinite REALs in number columns, which JavaScript writes as null, go through the exact fallback
    for (const id of [1, 2, 3, 4, 6, 7]) {
      const url = `/api/things/${id}`;
      const r = await bothTargets(t, url);
      expect(r.outcome, url).toBe('compared');
      expect(JSON.parse(r.json!), url).toStrictEqual(JSON.parse(r.js!));
      expect(await http(url)).toBe(r.js);
    }
    const list = await bothTargets(t, '/api/things?sort=id&pagination[pageSize]=4');
    expect(list.outcome).toBe('compared');
    expect(JSON.parse(list.json!)).toStrictEqual(JSON.parse(list.js!));
  });

  it('rows it cannot write exactly are left to the JavaScript path, whole pages with them too', async () => {
    for (const url of ['/api/things/5', '/api/things/8', '/api/things?sort=id']) {
      const r = await bothTargets(t, url);
      expect(r.outcome, url).toBe('js only');
      expect(await http(url)).toBe(r.js);
    }
  });

  it('private attributes never appear', async () => {
    const body = JSON.parse(await http('/api/things?sort=id&pagination[pageSize]=4')) as { data: Array<{ attributes: Record<string, unknown> }> };
    expect(body.data).toHaveLength(4);
    for (const e of body.data) {
      expect(e.attributes).not.toHaveProperty('hidden');
      expect(e.attributes).not.toHaveProperty('pin');
    }
  });
});
