// PostgreSQL only. Every attribute type written as JSON text by PostgreSQL (storage/postgres/pg-json.ts)
// against the JavaScript path (pg's type parsers of pg-database.ts, then values.ts fromDb, then
// JSON.stringify), byte for byte, over the values v4 writes and the odd ones another writer may leave in
// v4's column types: floats past 2^53 and below 1e-6, NaN, ±Infinity, -0, numerics with trailing zeros,
// timestamps with microseconds, in years 1 to 9999 and ±infinity, wall times a time-zone change skips or
// repeats, jsonb numbers JavaScript writes differently. Datetimes are read in the process's time zone: each
// case runs with TZ=UTC and TZ=America/New_York (Node follows a change of process.env.TZ), and once with a
// half-hour daylight-saving zone. Then the same through HTTP on the all-types app.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScalarAttribute, ScalarType } from '../../../src/model/types';
import type { Database } from '../../../src/storage/dialect';
import type { JsonSql } from '../../../src/storage/json-entries';
import { checkTimeZone, postgresJson, postgresJsonFor, readColumnTypes, type DatetimeZone } from '../../../src/storage/postgres/pg-json';
import { fromDb, selectExpr } from '../../../src/storage/values';
import { startProjectCopy, type RunningApp } from '../../helpers/fixture-app';
import { openTestDatabase } from '../../helpers/test-database';
import { bothTargets, targetsFor } from './targets';

const TZ = process.env.TZ;
afterAll(() => {
  if (TZ === undefined) delete process.env.TZ;
  else process.env.TZ = TZ;
});

/** a deterministic sequence of doubles: random bit patterns, random magnitudes, short decimals */
function doubles(n: number): number[] {
  let seed = 0x2545f491;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const view = new DataView(new ArrayBuffer(8));
  return Array.from({ length: n }, (_, i) => {
    if (i % 3 === 0) {
      view.setUint32(0, next() * 2 ** 32);
      view.setUint32(4, next() * 2 ** 32);
      return view.getFloat64(0);
    }
    if (i % 3 === 1) return (next() - 0.5) * 10 ** Math.floor(next() * 50 - 25);
    return Math.round(next() * 1e6) / 10 ** Math.floor(next() * 22);
  });
}

const floatText = (v: number) => (Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : Object.is(v, -0) ? '-0' : String(v));

/** every 30 minutes of a stretch of days (wall times: some are skipped or repeated by a zone) */
function halfHours(from: string, days: number): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  return Array.from({ length: days * 48 }, (_, i) => new Date(start + i * 1_800_000).toISOString().replace('T', ' ').replace('Z', ''));
}

interface Column {
  type: ScalarType;
  /** v4's PostgreSQL column type (pg-ddl.ts), or another writer's */
  sql: string;
  /** PostgreSQL text of each stored value (NULL: null) */
  values: (string | null)[];
}

const TIMESTAMPS = [
  '2024-01-02 03:04:05.678', '2024-01-02 03:04:05.678901', '2024-01-02 03:04:05.999999', '2024-01-02 03:04:05.5', '1970-01-01 00:00:00',
  '0001-01-01 00:00:00', '0001-01-02 12:00:00', '0001-01-03 00:00:00', '0050-06-15 12:00:00.123', '0099-12-31 23:59:59.999', '0100-01-01 00:00:00',
  '1883-11-18 11:59:59', '1883-11-18 12:03:58', '1900-01-01 00:00:00', '9999-12-29 23:59:59.999', '9999-12-31 23:59:59.999',
  '0001-01-01 00:00:00 BC', 'infinity', '-infinity',
  // America/New_York: 2024-03-10 02:30 does not exist, 2024-11-03 01:30 exists twice
  '2024-03-10 01:59:59.999', '2024-03-10 02:30:00', '2024-03-10 03:00:00', '2024-11-03 00:59:59.999', '2024-11-03 01:30:00', '2024-11-03 02:00:00',
  ...halfHours('2024-03-08', 5), ...halfHours('2024-10-25', 12), ...halfHours('2024-04-05', 3), ...halfHours('2024-10-05', 3), ...halfHours('1969-12-30', 3),
];

/** columns of another type than v4 gives the attribute (schema sync keeps them): marked with their type */
const MISMATCHED: Column[] = [
  { type: 'boolean', sql: 'integer', values: ['1', '0', '2', null] },
  { type: 'boolean', sql: 'varchar(10)', values: ['t', 'true', '1', 'yes', null] },
  { type: 'string', sql: 'jsonb', values: ['{"a": 1.0}', '"s"', null] },
  { type: 'string', sql: 'timestamp(6)', values: ['2024-01-02 03:04:05.678', '2024-11-03 01:30:00', null] },
  { type: 'string', sql: 'numeric', values: ['12.50', null] },
  { type: 'string', sql: 'boolean', values: ['true', 'false', null] },
  { type: 'float', sql: 'real', values: ['0.1', '1e6', '1.5e-7', 'NaN', '3.4e38', null] },
  { type: 'datetime', sql: 'timestamptz', values: ['2024-01-02 03:04:05.678+00', '2024-11-03 01:30:00-04', null] },
  { type: 'date', sql: 'timestamp(6)', values: ['2024-01-02 03:04:05', null] },
  { type: 'integer', sql: 'numeric', values: ['1.5', '12', null] },
];

const COLUMNS: Column[] = [
  { type: 'float', sql: 'double precision', values: [...[1e21, 1e-7, 1e-6, 1e-5, 1e-4, 1e15, 1e15 + 0.5, 2 ** 53, 2 ** 53 + 2, 1e20, 123456789012345680000, -0, 0, 0.1 + 0.2, 5e-324, Number.MAX_VALUE, -1.5e-300, NaN, Infinity, -Infinity, 12.5].map(floatText), ...doubles(3000).map(floatText), null] },
  { type: 'decimal', sql: 'decimal(10,2)', values: ['12.50', '10.00', '0.01', '-0.50', '99999999.99', '-99999999.99', '0', '0.10', '100', 'NaN', null] },
  // another writer's decimal column without a scale
  { type: 'decimal', sql: 'numeric', values: ['0.00001', '0.000001', '1e-7', '12345678901234567890', '123456789012345.6', '1.000000000000000000001', '-0.0', '1e20', '7', null] },
  { type: 'integer', sql: 'integer', values: ['0', '-2147483648', '2147483647', '42', null] },
  { type: 'integer', sql: 'bigint', values: ['9007199254740991', '9007199254740993', '-9223372036854775808', '12', null] },
  { type: 'biginteger', sql: 'bigint', values: ['9223372036854775807', '-9223372036854775808', '0', '9007199254740993', null] },
  { type: 'boolean', sql: 'boolean', values: ['true', 'false', null] },
  { type: 'date', sql: 'date', values: ['2024-02-29', '0001-01-01', '0001-01-01 BC', '12345-01-01', 'infinity', '1970-01-01', null] },
  { type: 'time', sql: 'time(3)', values: ['10:30:15.123', '00:00:00', '23:59:59.999', '10:30:15.120', null] },
  { type: 'datetime', sql: 'timestamp(6)', values: [...TIMESTAMPS, null] },
  // v4 on PostgreSQL: the epoch milliseconds of the Date pg reads, as a string
  { type: 'timestamp', sql: 'timestamp(6)', values: [...TIMESTAMPS, '1969-12-31 23:59:59.999500', null] },
  {
    type: 'json', sql: 'jsonb', values: [
      '{"a": 1.0, "b": [1E400, -0, 0.10, 12345678901234567890, 1e-7, 2.5]}', '"str"', 'null', 'true', '[]', '{}', '12.50', '"\\u0001 \\u0002"',
      '{"k": "a, b: c", "n": {"deep": [[{"x": "\\"quoted\\""}]]}}', '{"__proto__": {"x": 1}}', '{"b": 1, "a": 2, "a": 3, "aa": 4}', '"ünï 😀"', null,
    ],
  },
  // another writer's json column (kept as written: spacing, key order, duplicates)
  { type: 'json', sql: 'json', values: ['{ "b" : 1,  "a":[1.0, 2e2] }', '"x"', null] },
  ...MISMATCHED,
  { type: 'boolean', sql: 'varchar(10)', values: ['t', 'true', '1', 'yes', null] },
  { type: 'string', sql: 'jsonb', values: ['{"a": 1.0}', '"s"', null] },
  { type: 'string', sql: 'timestamp(6)', values: ['2024-01-02 03:04:05.678', '2024-11-03 01:30:00', null] },
  { type: 'string', sql: 'numeric', values: ['12.50', null] },
  { type: 'string', sql: 'boolean', values: ['true', 'false', null] },
  { type: 'float', sql: 'real', values: ['0.1', '1e6', '1.5e-7', 'NaN', '3.4e38', null] },
  { type: 'datetime', sql: 'timestamptz', values: ['2024-01-02 03:04:05.678+00', '2024-11-03 01:30:00-04', null] },
  { type: 'date', sql: 'timestamp(6)', values: ['2024-01-02 03:04:05', null] },
  { type: 'json', sql: 'text', values: ['{"a": 1.0}', 'not json', null] },
  // other text and number types the expressions are written for
  { type: 'string', sql: 'char(5)', values: ['ab', null] },
  { type: 'biginteger', sql: 'numeric', values: ['123.45', '9007199254740993', null] },
  { type: 'integer', sql: 'numeric', values: ['1.5', '12', null] },
  { type: 'string', sql: 'varchar(255)', values: ['quote " and \\ and \n and \t and \u0001 and \u0002 and \u001f', 'ünïcødé 😀', '', 'line\u2028sep', '</script>', null] },
  { type: 'text', sql: 'text', values: ['x'.repeat(5000), '{"looks": "like json"}', null] },
];

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase('');
});
afterAll(async () => {
  await db?.close();
});

async function jsonSql(): Promise<JsonSql> {
  return postgresJsonFor(db, (zone) => {
    throw new Error(`PostgreSQL and Node disagree about ${zone}`);
  });
}

/**
 * The JSON target's text and the JavaScript path's for every row of one column, the JSON target written for
 * the column's type as the database has it; returns how many values were marked.
 */
async function compare(zone: DatetimeZone, col: Column, n: number): Promise<number> {
  const table = `t_${n}`;
  await db.exec(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (id serial PRIMARY KEY, c ${col.sql})`);
  await db.run(`INSERT INTO ${table} (c) SELECT v::${col.sql} FROM unnest($1::text[]) WITH ORDINALITY u(v, i) ORDER BY i`, [col.values as string[]]);
  const j = postgresJson(zone, await readColumnTypes(db));
  const attr = { kind: 'scalar', name: 'c', column: 'c', type: col.type } as ScalarAttribute;
  const js = await db.all<{ id: number; c: unknown }>(`SELECT id, ${selectExpr(db.dialect, attr, 't')} AS c FROM ${table} t ORDER BY id`);
  const sql = await db.all<{ id: number; v: string }>(`SELECT id, ${j.object([['v', j.value(attr, 't', table)]])} AS v FROM ${table} t ORDER BY id`);
  expect(sql).toHaveLength(col.values.length);
  for (const [i, row] of sql.entries()) {
    expect(j.finish(row.v), `${col.type} (${col.sql}) ${String(col.values[i])}`).toBe(JSON.stringify({ v: fromDb(col.type, js[i].c) }));
  }
  return sql.filter((row) => row.v.includes('\u0001')).length;
}

describe.each(['UTC', 'America/New_York'])('TZ=%s: each type written by PostgreSQL = the JavaScript conversion', (zone) => {
  beforeAll(() => {
    process.env.TZ = zone;
  });

  it('the zone is converted in SQL (PostgreSQL agrees with Node about it)', async () => {
    expect((await jsonSql()).key).toBe(zone === 'UTC' ? ':pg:utc' : `:pg:${zone}`);
  });

  it.each(COLUMNS.map((c, i) => [`${c.type} in ${c.sql}`, i] as const))('%s', async (_name, i) => {
    const marked = await compare(zone === 'UTC' ? { kind: 'utc' } : { kind: 'zone', name: zone }, COLUMNS[i], i);
    const col = COLUMNS[i];
    // the JavaScript conversion only where SQL cannot write the value: the years toISOString writes with a
    // sign (and ±infinity), and in a zone the wall times within a day of its offset changes
    const written = col.sql === 'timestamp(6)' && (col.type === 'datetime' || col.type === 'timestamp');
    if (written && zone === 'UTC') expect(marked).toBe(3);
    if (written && zone !== 'UTC') expect(marked).toBeLessThan(col.values.length / 5);
    // a column of another type than v4's, and JSON: all through the JavaScript conversion
    if (col.type === 'json' || MISMATCHED.includes(col)) expect(marked).toBe(col.values.filter((v) => v !== null).length);
  });
});

it('an object of more pairs than a function takes arguments (concat: 100)', async () => {
  const j = await jsonSql();
  const pairs = Array.from({ length: 130 }, (_, i) => [`k${i}"\\`, `(${i})::text`] as const);
  const row = await db.get<{ v: string }>(`SELECT ${j.object(pairs)} AS v`);
  expect(row?.v).toBe(JSON.stringify(Object.fromEntries(pairs.map(([k], i) => [k, i]))));
});

it('TZ=Australia/Lord_Howe (a half-hour change): datetimes', async () => {
  process.env.TZ = 'Australia/Lord_Howe';
  expect((await jsonSql()).key).toBe(':pg:Australia/Lord_Howe');
  await compare({ kind: 'zone', name: 'Australia/Lord_Howe' }, COLUMNS.find((c) => c.type === 'datetime')!, 100);
});

it('a zone PostgreSQL does not know: every datetime through the JavaScript conversion, as exact', async () => {
  expect(await checkTimeZone(db, 'Mars/Olympus_Mons')).toEqual({ kind: 'marked' });
  process.env.TZ = 'America/New_York';
  const col = COLUMNS.find((c) => c.type === 'datetime')!;
  expect(await compare({ kind: 'marked' }, col, 101)).toBe(col.values.length - 1);
});

describe('odd stored values through HTTP (all-types app)', () => {
  let running: RunningApp;
  const COLS = ['name', 'day', 'at', '"when"', 'stamp', 'count', 'huge', 'ratio', 'amount', 'active', 'data', 'hidden'];
  const ROWS = [
    [`'usual'`, `'2024-02-29'`, `'10:30:15.123'`, `'2024-01-02 03:04:05.678'`, `'2024-01-02 03:04:05.678'`, '7', '9223372036854775807', '0.1', '12.50', 'true', `'{"a": [1, "x", null]}'`, `'h'`],
    [`'floats'`, 'NULL', 'NULL', `'2024-11-03 01:30:00'`, `'infinity'`, '0', '-5', `'1e21'`, '10.00', 'false', `'{"n": 1.0, "m": 1E400}'`, 'NULL'],
    [`'tiny'`, 'NULL', 'NULL', `'0001-01-01 00:00:00'`, 'NULL', '0', '0', `'1e-7'`, '0.01', 'NULL', `'"just a string"'`, 'NULL'],
    [`'nan'`, 'NULL', 'NULL', `'2024-03-10 02:30:00.123456'`, 'NULL', '0', '0', `'NaN'`, `'NaN'`, 'NULL', `'-0'`, 'NULL'],
    [`'infinite'`, 'NULL', 'NULL', `'-infinity'`, 'NULL', '0', '0', `'-Infinity'`, 'NULL', 'NULL', 'NULL', 'NULL'],
    [`'big'`, 'NULL', 'NULL', 'NULL', 'NULL', '0', '0', '18014398509481988', 'NULL', 'NULL', `'[12345678901234567890]'`, 'NULL'],
    [`'nulls'`, 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL'],
  ];

  beforeAll(async () => {
    process.env.TZ = 'America/New_York';
    running = await startProjectCopy(path.resolve(__dirname, '../../fixtures/all-types'));
    for (const row of ROWS) await running.app.db.run(`INSERT INTO things (${COLS.join(', ')}, created_at, updated_at) VALUES (${row.join(', ')}, now(), now())`);
  });
  afterAll(async () => {
    await running?.stop();
  });

  async function http(url: string): Promise<string> {
    const res = await running.app.server.inject({ method: 'GET', url }); // the Public role (the project's bootstrap grants it)
    expect(res.statusCode).toBe(200);
    return res.body;
  }

  it('every row and the list: written by PostgreSQL, byte for byte the JavaScript path\'s response', async () => {
    const t = targetsFor(running.app.db, running.app.model);
    for (const url of [...ROWS.map((_r, i) => `/api/things/${i + 1}`), '/api/things?sort=id', '/api/things?sort=ratio:desc&fields[0]=ratio&fields[1]=amount']) {
      const r = await bothTargets(t, url);
      expect(r.outcome, url).toBe('compared');
      expect(r.json, url).toBe(r.js);
      expect(await http(url), url).toBe(r.js);
    }
  });
});
