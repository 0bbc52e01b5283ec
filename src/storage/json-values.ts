// SQLite's form of the JSON compile target (json-entries.ts, `sqliteJson`): json_object /
// json_group_array, and attribute values written as JSON by SQLite itself, giving exactly the JSON that
// `JSON.stringify(fromDb(type, value))` gives on the JavaScript path.
//
// Each expression handles the storage class v4 writes for its type in SQL (epoch-ms integers for
// datetimes, 0/1 for booleans, JSON text, ...). Every other storage class goes to `tessera_json_value`,
// a function registered on the connection that IS the JavaScript conversion, so a rare value (a datetime
// stored as text, a number stored as text, JSON5) still comes out exactly as the reference path writes
// it. Two things are caught afterwards instead, and answered by the JavaScript path: a value SQLite cannot
// write at all (a BLOB: the statement fails), and a number JavaScript would write differently (an
// infinite REAL, a JSON column's 1e400 or -0: RISKY_NUMBER on the text). read-path-json.md, pitfalls 3-5, 13.
import type { ScalarAttribute, ScalarType } from '../model/types';
import type { Dialect } from './dialect';
import { lit, RiskyNumber, type JsonSql } from './json-entries';
import { sqliteDialect } from './sqlite/sqlite-dialect';
import { limitClause } from './read-statements';
import { fromDb } from './values';

/** the SQL function behind every exact fallback: (type, value) -> JSON text */
export const JSON_VALUE_FUNCTION = 'tessera_json_value';

/** What `tessera_json_value(type, value)` returns: the reference conversion, as JSON text. */
export function jsonValueText(type: string, value: unknown): string {
  const v = value instanceof Uint8Array ? Buffer.from(value) : value;
  return JSON.stringify(fromDb(type as ScalarType, v)) ?? 'null';
}

/** the first epoch millisecond toISOString() writes as `YYYY-MM-DDTHH:mm:ss.sssZ` (year 0000; up to 9999) */
const MIN_ISO_MS = -62167219200000;
const MAX_SAFE = 9007199254740991;

/**
 * Numbers whose JavaScript round trip changes their value: an exponent of three digits (±Infinity past
 * 1e308, which JSON.stringify writes as null; SQLite writes an infinite REAL as `9.0e+999`), a negative
 * zero (written `0`), a run of 309 digits. They can only come from JSON columns (kept as stored) and
 * REAL columns, always right after `:`, `[` or `,`. A page whose text matches is answered by the
 * JavaScript path; a match inside a string only costs that.
 */
export const RISKY_NUMBER = /[:,[](?:-?\d+(?:\.\d+)?[eE][+-]?\d{3}|-0(?:\.0+)?(?:[eE][+-]?\d+)?[,\]}]|-?\d{309})/;

function fallback(type: ScalarType, col: string): string {
  return `json(${JSON_VALUE_FUNCTION}('${type}', ${col}))`;
}

/**
 * An expression for `json_object(..., key, <expr>)` that writes the attribute's value of `alias` as the
 * JavaScript path does. Each reads the column as few times as it can: a column stored after a long text
 * lives on overflow pages, and every mention of it reads them again.
 */
export function jsonValueExpr(dialect: Dialect, attr: ScalarAttribute, alias: string): string {
  const c = `${alias}.${dialect.quote(attr.column)}`;
  const f = fallback(attr.type, c);
  switch (attr.type) {
    case 'boolean':
      // JS: true for 1 (and '1', 't', 'true': texts go to the fallback), false for any other number
      return `CASE typeof(${c}) WHEN 'integer' THEN CASE ${c} WHEN 1 THEN json('true') ELSE json('false') END WHEN 'null' THEN NULL ELSE ${f} END`;
    case 'datetime':
      // strftime is NULL past year 9999; before year 0 its format differs from toISOString's
      return `CASE WHEN typeof(${c}) = 'integer' AND ${c} >= ${MIN_ISO_MS} THEN coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', ${c} / 1000.0, 'unixepoch'), ${f}) WHEN ${c} IS NULL THEN NULL ELSE ${f} END`;
    case 'timestamp':
      // v4 on SQLite returns a stored epoch-ms timestamp as a string of digits
      return `CASE WHEN typeof(${c}) = 'integer' AND abs(${c}) <= ${MAX_SAFE} THEN CAST(${c} AS TEXT) WHEN ${c} IS NULL THEN NULL ELSE ${f} END`;
    case 'date':
      // `String(v).slice(0, 10)`: a text of at most 10 bytes has at most 10 UTF-16 units, so it is whole
      return `CASE typeof(${c}) WHEN 'text' THEN CASE WHEN octet_length(${c}) <= 10 THEN ${c} ELSE ${f} END WHEN 'null' THEN NULL ELSE ${f} END`;
    case 'biginteger':
      // exact digits as text, as the JS path selects them (dialect.bigintAsText)
      return dialect.bigintAsText(c);
    case 'integer':
    case 'float':
    case 'decimal':
      // JS: Number(v) for a text. SQLite writes a REAL with its point (`10.0`, `1.0e+21`), JavaScript a whole
      // number without it (`10`, `1e+21`): a whole REAL up to 2^53 is written as the integer (-0.0 as `0`, as
      // JavaScript writes it), a REAL past 2^53 (always whole) by the exact fallback. SQLite writes an exponent
      // below 1e-4 (`1.0e-07`, JavaScript `1e-7` or `0.00001`) and may from 1e15: those by the exact fallback too
      return `CASE typeof(${c}) WHEN 'text' THEN ${f} WHEN 'real' THEN CASE WHEN abs(${c}) > ${MAX_SAFE} THEN ${f} WHEN ${c} = CAST(${c} AS INTEGER) THEN CAST(${c} AS INTEGER) WHEN abs(${c}) < 1e-4 OR abs(${c}) >= 1e15 THEN ${f} ELSE ${c} END ELSE ${c} END`;
    case 'json':
      // JS: JSON.parse of a text, the text itself when it is not (strict) JSON, any other value as it is
      return `CASE typeof(${c}) WHEN 'text' THEN CASE WHEN json_valid(${c}) THEN json(${c}) ELSE ${f} END WHEN 'blob' THEN ${f} ELSE ${c} END`;
    default:
      // as stored (a REAL that is ±Infinity is caught by RISKY_NUMBER)
      return c;
  }
}

export const sqliteJson: JsonSql = {
  object: (pairs) => `json_object(${pairs.map(([k, v]) => `${lit(k)}, ${v}`).join(', ')})`,
  string: lit,
  integer: (expr) => expr,
  // json(): through ORDER BY ... LIMIT the JSON subtype may be lost (read-path-json.md, pitfall 2)
  one: (subquery) => `json((${subquery}))`,
  array: (value, order, nullWhenEmpty) => (nullWhenEmpty ? `CASE WHEN COUNT(*) THEN json_group_array(${value} ORDER BY ${order}) END` : `json_group_array(${value} ORDER BY ${order})`),
  passed: (column) => `json(${column})`,
  emptyArray: 'json_array()',
  value: (attr, alias) => jsonValueExpr(sqliteDialect, attr, alias),
  matchesOnce: false,
  pageJoin: 'CROSS JOIN',
  pageLimit: limitClause,
  key: '',
  finish(text) {
    if (RISKY_NUMBER.test(text)) throw new RiskyNumber();
    return text;
  },
};
