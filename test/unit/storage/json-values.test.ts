// Each attribute type written as JSON by SQLite (storage/json-values.ts) against the JavaScript
// conversion (storage/values.ts fromDb), over every storage class a column of that type can hold: the
// values v4 writes, and the odd ones another writer could leave (text datetimes, numbers as text, REALs
// in integer columns, JSON5, huge exponents, negative zero, BLOBs). Either SQLite writes exactly what
// JavaScript writes, or the page is refused (RISKY_NUMBER, or the statement fails) and the JavaScript
// path answers; never a different value.
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScalarAttribute, ScalarType } from '../../../src/model/types';
import { JSON_VALUE_FUNCTION, jsonValueExpr, jsonValueText, RISKY_NUMBER } from '../../../src/storage/json-values';
import { sqliteDialect } from '../../../src/storage/sqlite/sqlite-dialect';
import { fromDb, selectExpr } from '../../../src/storage/values';

/** the column type v4's schema gives each attribute type (its SQLite affinity matters) */
const COLUMN_TYPE: Record<ScalarType, string> = {
  string: 'varchar(255)', text: 'text', richtext: 'text', enumeration: 'varchar(255)', email: 'varchar(255)', password: 'varchar(255)',
  uid: 'varchar(255)', date: 'date', time: 'time', datetime: 'datetime', timestamp: 'bigint', integer: 'integer', biginteger: 'bigint',
  float: 'float', decimal: 'float', boolean: 'boolean', json: 'json', blocks: 'json',
};

const COMMON = ['NULL', "'text'", "''", '0', '1', '-1', '1.5', '1e999', '-1e999', "x'00ff'", '9223372036854775807', '9007199254740993'];

/** SQL literals stored in a column of each type, beyond COMMON */
const VALUES: Partial<Record<ScalarType, string[]>> = {
  boolean: ["'t'", "'true'", "'1'", "'f'", "'false'", "'0'", "'yes'", '2', '1.0', '0.5'],
  datetime: ['1704189600123', '0', '-1', '-62135596800000', '-62167219200000', '-62167219200001', '253402300799999', '253402300800000', '1.7e12', "'2024-01-02T03:04:05.678Z'", "'2024-01-02 03:04:05'", "'2024-01-02'", "'nope'"],
  timestamp: ['1704189600123', '-5', '1.7e12', "'2024-01-02T03:04:05.678Z'", "'1704189600123'"],
  date: ["'2024-01-02'", "'2024-01-02T10:00:00.000Z'", "'é2024-01-0'", "'😀2024-01'", "'😀😀😀😀😀😀'", '1704189600123', "'x'"],
  time: ["'10:30:00.000'", "'10:30'", '36000'],
  integer: ["'12'", "'abc'", "' 7 '", '2.5', '1e300', '-0.0'],
  biginteger: ['-5', '2.5', "'12345678901234567890123'"],
  float: ['0.1', '1e300', '1e-7', '-0.0', '0.30000000000000004', "'1.5'", "'x'"],
  decimal: ['2.5', '2.50', "'2.50'"],
  json: [
    `'{"a":1,"b":[true,null,"s"]}'`, `'[1,2]'`, `'"str"'`, `'not json'`, `'{a:1}'`, `'1E400'`, `'[1e400]'`, `'-0'`, `'{"x":-0.0}'`, `'{"x":-0.5}'`,
    `'{"b":1,"2":2,"1":3}'`, `'  {"a" : 1 }  '`, `'true'`, `'null'`, `'{"a":"\\ud800"}'`, `'{"a":1,"a":2}'`, `'{"n":1.0,"m":1e2,"k":12345678901234567890}'`,
    `'[${'9'.repeat(320)}]'`, `'{"d":"2024-01-05","e":"e123"}'`, `'{"__proto__":{"x":1}}'`,
  ],
  string: ["'quote \" and \\\\ and \n and \u0001'", "'ünïcødé 😀'"],
};

let db: BetterSqlite3.Database;
beforeAll(() => {
  db = new BetterSqlite3(':memory:');
  db.function(JSON_VALUE_FUNCTION, { deterministic: true }, (type, value) => jsonValueText(String(type), value));
});
afterAll(() => db.close());

type Result = { kind: 'same' } | { kind: 'refused'; why: string };

/** the JSON target's value for one stored literal, checked against the JS path's */
function check(type: ScalarType, literal: string): Result {
  const table = `t_${type}`;
  db.exec(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (id integer PRIMARY KEY, c ${COLUMN_TYPE[type]}); INSERT INTO ${table} (id, c) VALUES (1, ${literal})`);
  const attr = { kind: 'scalar', name: 'c', column: 'c', type } as ScalarAttribute;
  // the JavaScript path: the column as read-entities.ts selects it, converted by fromDb, serialized
  const row = db.prepare(`SELECT ${selectExpr(sqliteDialect, attr, 't')} AS c FROM ${table} t`).get() as { c: unknown };
  const js = JSON.stringify({ v: fromDb(type, row.c) });
  let text: string;
  try {
    text = db.prepare(`SELECT json_object('v', ${jsonValueExpr(sqliteDialect, attr, 't')}) FROM ${table} t`).pluck().get() as string;
  } catch (err) {
    return { kind: 'refused', why: (err as Error).message };
  }
  if (RISKY_NUMBER.test(text)) return { kind: 'refused', why: 'risky number' };
  const parsed = JSON.parse(text) as { v: unknown };
  expect(parsed, `${type} ${literal}: ${text} vs ${js}`).toStrictEqual(JSON.parse(js));
  expect(JSON.stringify(parsed), `${type} ${literal}`).toBe(js);
  return { kind: 'same' };
}

describe('JSON values written by SQLite = the JavaScript conversion', () => {
  const types = Object.keys(COLUMN_TYPE) as ScalarType[];
  it.each(types)('%s', (type) => {
    const refused: string[] = [];
    for (const literal of [...COMMON, ...(VALUES[type] ?? [])]) {
      const r = check(type, literal);
      if (r.kind === 'refused') refused.push(`${literal}: ${r.why}`);
    }
    // only BLOBs (no JSON form) and numbers JavaScript writes differently are refused
    for (const r of refused) expect(r).toMatch(/^(x'00ff'|1e999|-1e999|'1E400'|'\[1e400\]'|'-0'|'\{"x":-0\.0\}'|'\{"x":-0\.5\}'|'\[9+\]'|.*risky number).*/);
  });

  it('the values v4 writes are never refused', () => {
    const usual: Array<[ScalarType, string]> = [
      ['boolean', '1'], ['boolean', '0'], ['datetime', '1704189600123'], ['timestamp', '1704189600123'], ['date', "'2024-01-02'"],
      ['time', "'10:30:00.000'"], ['integer', '42'], ['biginteger', '9223372036854775807'], ['float', '0.1'], ['decimal', '2.5'],
      ['json', `'{"a":[1,2.5,"x"],"b":{"c":null}}'`], ['string', "'text'"],
    ];
    for (const [type, literal] of usual) expect(check(type, literal), `${type} ${literal}`).toEqual({ kind: 'same' });
  });

  it('whole REALs in number columns are written as JavaScript writes them, text included (10, not 10.0)', () => {
    // a float column keeps a whole number as a REAL; a client in another language tells `10.0` (a float) from `10`
    const cases = ['10', '-3', '0', '-0.0', '4.0', '9007199254740992', '9007199254740994', '123456789012345680000', '1e21', '1e300', '0.5', '1.25'];
    for (const type of ['float', 'decimal', 'integer'] as const) {
      db.exec(`DROP TABLE IF EXISTS whole; CREATE TABLE whole (c ${COLUMN_TYPE[type]})`);
      for (const literal of cases) db.exec(`INSERT INTO whole (c) VALUES (CAST(${literal} AS REAL))`);
      const attr = { kind: 'scalar', name: 'c', column: 'c', type } as ScalarAttribute;
      const rows = db.prepare(`SELECT c, json_object('v', ${jsonValueExpr(sqliteDialect, attr, 't')}) AS j FROM whole t`).all() as { c: number; j: string }[];
      for (const r of rows) expect(r.j, `${type} ${r.c}`).toBe(JSON.stringify({ v: fromDb(type, r.c) }));
    }
  });

  it('every millisecond format matches toISOString (years 0000-9999)', () => {
    db.exec('DROP TABLE IF EXISTS ms; CREATE TABLE ms (c datetime)');
    const insert = db.prepare('INSERT INTO ms (c) VALUES (?)');
    const values = [0, 999, 1000, 86399999, -1, -1000, -62167219200000, 253402300799999, 951782400000, 4102444800000];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      values.push(Math.floor((seed / 2147483648) * (253402300799999 + 62167219200000)) - 62167219200000);
    }
    for (const v of values) insert.run(BigInt(v));
    const attr = { kind: 'scalar', name: 'c', column: 'c', type: 'datetime' } as ScalarAttribute;
    const rows = db.prepare(`SELECT c, ${jsonValueExpr(sqliteDialect, attr, 't')} AS j FROM ms t`).all() as { c: number; j: string }[];
    for (const r of rows) expect(r.j, String(r.c)).toBe(new Date(r.c).toISOString());
  });
});
