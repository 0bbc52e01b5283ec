// PostgreSQL's form of the JSON compile target (json-entries.ts). Entries are written as compact JSON text
// by concatenation rather than with json_build_object / json_agg: those write `{"id" : 1, ...}` (11 % more
// bytes than JavaScript's text, read-path-json.md pitfall 7) and are slower (measured: 3.9 µs against 2.2 µs
// per 7-field object). Every value is the text JSON.stringify gives for what values.ts fromDb makes of the
// value pg reads (pg-database.ts's type parsers). Where SQL cannot write that text exactly (a float past 2^53,
// a timestamp within a day of a time-zone change, a JSON column's text: jsonb writes `{"a": 1.0}`, JavaScript
// `{"a":1}`), the value is written as a MARK: control character 1, a code, PostgreSQL's text of the value,
// control character 2. No JSON text PostgreSQL writes holds a raw control character (strings escape them), so
// `finish` finds the marks and writes each through the JavaScript conversion: exact per value, and the rest
// of the page stays as PostgreSQL wrote it. Each expression is written for the column's type as the database
// has it (read once per database): a column of another type than v4 gives the attribute (schema sync keeps
// such columns) is marked with its type, and converted by pg's parser for that type, as the JavaScript path
// reads it.
import { ValidationError } from '../../errors';
import type { ScalarAttribute, ScalarType } from '../../model/types';
import type { Database } from '../dialect';
import { lit, type JsonPair, type JsonSql } from '../json-entries';
import type { SqlBuilder } from '../sql-builder';
import { fromDb } from '../values';
import { types } from './pg-database';
import { postgresDialect } from './pg-dialect';

/** how `finish` converts a marked value: as values.ts does for the value pg's parser gives for the text */
const MARKED = {
  // timestamp(6) without time zone (oid 1114): pg reads the process's local wall time into a Date
  d: (raw) => fromDb('datetime', types.getTypeParser(1114, 'text')(raw)),
  // the same for a `timestamp` attribute (pg reads ±infinity as a number, which fromDb writes as text there)
  t: (raw) => fromDb('timestamp', types.getTypeParser(1114, 'text')(raw)),
  // float8 (oid 701)
  f: (raw) => fromDb('float', types.getTypeParser(701, 'text')(raw)),
  // numeric and int8 texts: Number() of the text or of pg's value give the same number
  n: (raw) => fromDb('decimal', raw),
  // json/jsonb: pg-database.ts reads their text
  j: (raw) => fromDb('json', raw),
} satisfies Record<string, (raw: string) => unknown>;
type MarkCode = keyof typeof MARKED;

/** a code of MARKED, or `o<type oid>.<attribute type>:` (a column of another type than v4's) */
const MARK_RE = /\u0001(?:([dtfnj])|o(\d+)\.([a-z]+):)([^\u0002]*)\u0002/g;

function mark(code: MarkCode, textExpr: string): string {
  return `(E'\\x01${code}' || ${textExpr} || E'\\x02')`;
}

/** the column's output text (what pg receives; `::text` differs for some types: bool, char(n)) with its type */
function markTyped(c: string, oid: number, type: ScalarType): string {
  return `CASE WHEN ${c} IS NULL THEN 'null' ELSE (E'\\x01o${oid}.${type}:' || concat(${c}) || E'\\x02') END`;
}

function marked(code: MarkCode | undefined, oid: string | undefined, type: string | undefined, raw: string): string {
  const value = code ? MARKED[code](raw) : fromDb(type as ScalarType, types.getTypeParser(Number(oid), 'text')(raw));
  return JSON.stringify(value) ?? 'null';
}

/** the entry text with every mark written by the JavaScript conversion */
export function unmark(text: string): string {
  if (!text.includes('\u0001')) return text;
  return text.replace(MARK_RE, (_m, code: MarkCode | undefined, oid: string | undefined, type: string | undefined, raw: string) => marked(code, oid, type, raw));
}

/** concat() takes at most 100 arguments (FUNC_MAX_ARGS) */
const MAX_ARGS = 100;

function concat(parts: string[]): string {
  if (parts.length === 1) return parts[0];
  if (parts.length <= MAX_ARGS) return `concat(${parts.join(', ')})`;
  const groups: string[] = [];
  for (let i = 0; i < parts.length; i += MAX_ARGS) groups.push(concat(parts.slice(i, i + MAX_ARGS)));
  return concat(groups);
}

/** `{"k":` ... `,"k2":` ... `}`: the constant pieces as literals, each value (never NULL: concat would drop it) between */
function object(pairs: readonly JsonPair[]): string {
  const parts: string[] = [];
  let text = '{';
  pairs.forEach(([key, value], i) => {
    parts.push(lit(`${text}${i ? ',' : ''}${JSON.stringify(key)}:`));
    parts.push(value);
    text = '';
  });
  parts.push(lit(`${text}}`));
  return concat(parts);
}

const orNull = (textExpr: string) => `COALESCE(${textExpr}, 'null')`;

/**
 * A float as JavaScript writes it (`String(n)`): PostgreSQL's float8 text is the shortest round trip
 * (extra_float_digits >= 1, the default) and fixed-point where JavaScript's is within 1e-4..1e15; numeric
 * rewrites its digits fixed-point for the rest of JavaScript's fixed range (down to 1e-6); below that only
 * the exponent's zero differs (`1e-07`: `1e-7`). Past 2^53 PostgreSQL may choose other digits than
 * JavaScript for the same double (an integer's exact digits where JavaScript takes the shorter
 * halfway-point digits: measured on 380,000 doubles), so those are marked. NaN and ±Infinity: null. -0: 0.
 */
function floatJson(x: string): string {
  return `CASE WHEN ${x} IS NULL THEN 'null' WHEN ${x} = 0 THEN '0'
    WHEN abs(${x}) >= 1e-4 AND abs(${x}) < 1e15 THEN ${x}::text
    WHEN abs(${x}) >= 1e-6 AND abs(${x}) < 9007199254740992 THEN ${x}::text::numeric::text
    WHEN abs(${x}) < 1e-6 THEN replace(${x}::text, 'e-0', 'e-')
    WHEN ${x} = 'NaN' OR abs(${x}) = 'Infinity' THEN 'null'
    ELSE ${mark('f', `${x}::text`)} END`;
}

/**
 * A decimal (numeric(10,2)) as `Number(text)` prints: with at most 15 significant digits (16 characters) and
 * within 1e-4..1e15, the text without its fraction's trailing zeros (`12.50`: `12.5`, `10.00`: `10`); NaN and
 * anything longer are marked.
 */
function decimalJson(c: string): string {
  return `CASE WHEN ${c} IS NULL THEN 'null' WHEN ${c} = 0 THEN '0'
    WHEN abs(${c}) >= 1e-4 AND abs(${c}) < 1e15 AND length(${c}::text) <= 16
      THEN CASE WHEN strpos(${c}::text, '.') > 0 THEN rtrim(rtrim(${c}::text, '0'), '.') ELSE ${c}::text END
    ELSE ${mark('n', `${c}::text`)} END`;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The time zone datetimes are read in: pg reads a `timestamp without time zone` as the process's local wall
 * time. `utc`: no conversion; a zone name: converted in SQL; `marked`: PostgreSQL does not know the zone
 * or disagrees with JavaScript about it (every datetime through the JavaScript conversion).
 */
export type DatetimeZone = { kind: 'utc' } | { kind: 'zone'; name: string } | { kind: 'marked' };

/**
 * What fromDb makes of the Date pg reads from the column's text: a `datetime` its toISOString(), a `timestamp`
 * its epoch milliseconds as a string (v4 on PostgreSQL). pg truncates the microseconds to milliseconds, as
 * to_char's MS and floor() do. Years 1..9999 only (toISOString writes others with a sign and six digits; pg
 * reads ±infinity as numbers). In a zone: the wall time is converted where the zone's offset is the same a day
 * before and a day after, the instant computed from the day before; near an offset change the wall time may
 * not exist or exist twice, where PostgreSQL and JavaScript pick different instants (PostgreSQL the later of
 * two, JavaScript the earlier): marked.
 */
function datetimeJson(c: string, zone: DatetimeZone, type: 'datetime' | 'timestamp' = 'datetime'): string {
  const marked = mark(type === 'datetime' ? 'd' : 't', `${c}::text`);
  if (zone.kind === 'marked') return `CASE WHEN ${c} IS NULL THEN 'null' ELSE ${marked} END`;
  // the instant as a UTC wall time (`timestamp`) or as a `timestamptz`
  const written = (utcWall: string | null, instant: string) => (type === 'datetime'
    ? `'"' || to_char(${utcWall ?? `${instant} AT TIME ZONE 'UTC'`}, ${ISO}) || '"'`
    : `'"' || floor(extract(epoch from ${utcWall ?? instant}) * 1000)::bigint::text || '"'`);
  if (zone.kind === 'utc') {
    return `CASE WHEN ${c} IS NULL THEN 'null' WHEN ${c} >= '0001-01-01' AND ${c} < '10000-01-01' THEN ${written(c, c)} ELSE ${marked} END`;
  }
  const z = lit(zone.name);
  const before = `((${c} - interval '1 day') AT TIME ZONE ${z})`;
  const after = `((${c} + interval '1 day') AT TIME ZONE ${z})`;
  // the range first (CASE evaluates in order): a day's arithmetic at the ends of the range would overflow
  return `CASE WHEN ${c} IS NULL THEN 'null' WHEN ${c} < '0001-01-03' OR ${c} >= '9999-12-30' THEN ${marked}
    WHEN ${after} - ${before} = interval '48 hours' THEN ${written(null, `(${before} + interval '24 hours')`)}
    ELSE ${marked} END`;
}

/** type oids (pg_type) */
const OID = { bool: 16, int8: 20, int2: 21, int4: 23, text: 25, name: 19, float8: 701, bpchar: 1042, varchar: 1043, date: 1082, time: 1083, timestamp: 1114, numeric: 1700, json: 114, jsonb: 3802 } as const;

const TEXT_TYPES: readonly number[] = [OID.text, OID.varchar, OID.bpchar, OID.name];

/** the column types each expression below is written for; biginteger: any (text in both paths) */
const WRITTEN_FOR: Partial<Record<ScalarType, readonly number[]>> = {
  boolean: [OID.bool], datetime: [OID.timestamp], timestamp: [OID.timestamp], date: [OID.date], time: [...TEXT_TYPES, OID.time],
  integer: [OID.int2, OID.int4, OID.int8], float: [OID.float8], decimal: [OID.numeric, OID.float8], json: [OID.json, OID.jsonb], blocks: [OID.json, OID.jsonb],
};

/** `table.column` -> type oid, as the database has them */
export type ColumnTypes = ReadonlyMap<string, number>;

/** an attribute's value as JSON text, never NULL */
function pgJsonValue(attr: ScalarAttribute, alias: string, table: string, zone: DatetimeZone, columns: ColumnTypes): string {
  const c = `${alias}.${postgresDialect.quote(attr.column)}`;
  const oid = columns.get(`${table}.${attr.column}`);
  if (oid !== undefined && attr.type !== 'biginteger' && !(WRITTEN_FOR[attr.type] ?? TEXT_TYPES).includes(oid)) return markTyped(c, oid, attr.type);
  switch (attr.type) {
    case 'boolean':
      return `CASE WHEN ${c} THEN 'true' WHEN NOT ${c} THEN 'false' ELSE 'null' END`;
    case 'datetime':
    case 'timestamp':
      return datetimeJson(c, zone, attr.type);
    case 'date':
      // pg-database.ts reads a date as its text; fromDb keeps its first 10 characters
      return orNull(`to_json(left(${c}::text, 10))::text`);
    case 'biginteger':
      // v4 on PostgreSQL returns the exact digits as a string
      return orNull(`to_json(${postgresDialect.bigintAsText(c)})::text`);
    case 'integer':
      // an integer column's text; a bigint past 2^53 (another writer's column type) as Number() rounds it
      return `CASE WHEN ${c} IS NULL THEN 'null' WHEN ${c} BETWEEN -9007199254740991 AND 9007199254740991 THEN ${c}::text ELSE ${mark('n', `${c}::text`)} END`;
    case 'float':
      return floatJson(c);
    case 'decimal':
      return decimalJson(c);
    case 'json':
    case 'blocks':
      // JSON.parse + JSON.stringify of jsonb's text: spacing and numbers (1.0) differ; no SQL writes it compact
      return `CASE WHEN ${c} IS NULL THEN 'null' ELSE ${mark('j', `${c}::text`)} END`;
    default:
      // strings, time (its text): to_json escapes exactly as JSON.stringify does
      return orNull(`to_json(${c})::text`);
  }
}

/**
 * The page size as a literal, the offset a parameter. PostgreSQL's generic plan of a prepared statement takes
 * a LIMIT parameter for 10 % of the rows, and prices every entry's subqueries at that: far above the custom
 * plan, so it plans the statement again on every run (measured: 5-6 ms for `populate=*`, more than running
 * it) and past jit_above_cost compiles it too. With the page size known, the generic plan is the custom one
 * and is kept. A validated query has one page size (a client may ask for a few: at most maxLimit of them).
 */
function pageLimit(b: SqlBuilder, limit: number | undefined, offset: number | undefined): string {
  let sql = '';
  if (limit !== undefined && limit >= 0) sql += Number.isSafeInteger(limit) ? ` LIMIT ${limit}` : ` LIMIT ${b.param(limit)}`;
  if (offset) sql += ` OFFSET ${b.param(offset)}`;
  return sql;
}

/** `columns`: the live column types (a column missing there is taken to have v4's type) */
export function postgresJson(zone: DatetimeZone, columns: ColumnTypes = new Map()): JsonSql {
  return {
    key: zone.kind === 'zone' ? `:pg:${zone.name}` : `:pg:${zone.kind}`,
    object,
    string: (s) => lit(JSON.stringify(s)),
    integer: (expr) => `(${expr})::text`,
    one: (subquery) => orNull(`(${subquery})`),
    // an aggregate over no rows is NULL, never an empty array
    array: (value, order, nullWhenEmpty) => `COALESCE('[' || string_agg(${value}, ',' ORDER BY ${order}) || ']', ${nullWhenEmpty ? `'null'` : `'[]'`})`,
    passed: (column) => column,
    emptyArray: `'[]'`,
    value: (attr, alias, table) => pgJsonValue(attr, alias, table, zone, columns),
    matchesOnce: true,
    pageJoin: 'JOIN',
    pageLimit,
    finish: unmark,
  };
}

/** zone names whose offset is always 0 */
const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'UCT', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu', 'Etc/GMT0', 'GMT0', 'Etc/GMT+0', 'Etc/GMT-0', 'GMT+0', 'GMT-0', 'Etc/Greenwich', 'Greenwich']);

/** the process's time zone per value of TZ (Node follows a change of process.env.TZ) */
const zoneNames = new Map<string, string>();
function processZone(): string {
  const tz = process.env.TZ ?? '';
  let name = zoneNames.get(tz);
  if (name === undefined) zoneNames.set(tz, (name = Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC'));
  return name;
}

/** wall times the zone check converts both ways: four days a year over four centuries, and early years */
function sampleWallTimes(): string[] {
  const out: string[] = [];
  for (const y of [1, 99, 100, 1000, 1500, 1700]) out.push(`${String(y).padStart(4, '0')}-06-15 12:00:00.123`);
  for (let y = 1800; y <= 2200; y++) for (const m of ['01', '04', '07', '10']) out.push(`${y}-${m}-15 ${m === '04' ? '03:30:00' : '12:00:00.987'}`);
  return out;
}

/**
 * `zone` if PostgreSQL converts its wall times as JavaScript does (the same time-zone rules: both read the
 * tz database, but each its own copy), else `marked`. PostgreSQL may not know the name at all: a data
 * exception (22023), which pg-database.ts turns into a ValidationError; any other error is the database's.
 */
export async function checkTimeZone(db: Database, name: string): Promise<DatetimeZone> {
  const zone: DatetimeZone = { kind: 'zone', name };
  let rows: { t: string; j: string }[];
  try {
    rows = await db.all<{ t: string; j: string }>(`SELECT w::text AS t, ${datetimeJson('w', zone)} AS j FROM unnest($1::timestamp[]) w`, [sampleWallTimes()]);
  } catch (err) {
    if (err instanceof ValidationError || String((err as { code?: unknown }).code).startsWith('22')) return { kind: 'marked' };
    throw err;
  }
  const same = rows.every((r) => r.j.startsWith('\u0001') || r.j === JSON.stringify(MARKED.d(r.t)));
  return same ? zone : { kind: 'marked' };
}

/** the column types of the tables in the database's schema (its search path's first) */
export async function readColumnTypes(db: Database): Promise<ColumnTypes> {
  const rows = await db.all<{ t: string; c: string; oid: number }>(
    `SELECT cl.relname AS t, a.attname AS c, a.atttypid::int AS oid FROM pg_attribute a
       JOIN pg_class cl ON cl.oid = a.attrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
      WHERE n.nspname = current_schema() AND cl.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  return new Map(rows.map((r) => [`${r.t}.${r.c}`, Number(r.oid)]));
}

/** per database: its column types, and per process time zone its JsonSql once checked */
const forms = new WeakMap<Database, Map<string, JsonSql | Promise<JsonSql>>>();

/**
 * PostgreSQL's JsonSql for the process's current time zone. Its first use per database and zone checks the
 * zone and reads the column types; `onMarked(zone)` is called when datetimes must go through the JavaScript
 * conversion.
 */
export function postgresJsonFor(db: Database, onMarked: (zone: string) => void): JsonSql | Promise<JsonSql> {
  const name = processZone();
  let byZone = forms.get(db);
  if (!byZone) forms.set(db, (byZone = new Map()));
  const known = byZone.get(name);
  if (known) return known;
  const zone = UTC_ZONES.has(name) ? Promise.resolve<DatetimeZone>({ kind: 'utc' }) : checkTimeZone(db, name);
  const pending = Promise.all([zone, readColumnTypes(db)]).then(([z, columns]) => {
    if (z.kind === 'marked') onMarked(name);
    const form = postgresJson(z, columns);
    byZone.set(name, form);
    return form;
  }, (err: unknown) => {
    byZone.delete(name); // the database's trouble: checked again next time
    throw err;
  });
  byZone.set(name, pending);
  return pending;
}
