// Attribute values between JavaScript and the database, per v4 attribute type.
import type { ScalarAttribute, ScalarType } from '../model/types';
import type { Dialect, SqlValue } from './dialect';

/** what a 64-bit integer column holds (SQLite's INTEGER); past it SQLite keeps a rounded float */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

// sign and digits with nothing that can backtrack: the digits and the spaces around them are disjoint
const INTEGER_TEXT = /^\s*([+-]?)(\d+)\s*$/;

/** an integer text (exact, without parsing a long one), an integer number or a bigint as a 64-bit integer, if it fits */
export function asInt64(v: unknown): bigint | undefined {
  let b: bigint;
  if (typeof v === 'bigint') b = v;
  else if (typeof v === 'number') {
    if (!Number.isInteger(v)) return undefined;
    b = BigInt(v);
  } else if (typeof v === 'string') {
    const m = INTEGER_TEXT.exec(v);
    if (!m) return undefined;
    const digits = m[2].replace(/^0+/, '');
    if (digits.length > 19) return undefined;
    b = BigInt(`${m[1]}${digits || '0'}`);
  } else return undefined;
  return b >= INT64_MIN && b <= INT64_MAX ? b : undefined;
}

/** a number (or its text) within the 64-bit range: integer text exactly, any other form as its double */
export function fitsInt64(v: string | number): boolean {
  if (typeof v === 'string' && INTEGER_TEXT.test(v)) return asInt64(v) !== undefined;
  const n = Number(v);
  return n >= -(2 ** 63) && n < 2 ** 63;
}

/** `n` in `w` digits, zeros in front */
export function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

export function formatDate(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/**
 * A Date given to a `date` or `time` attribute by project code, as v4's fields write it (date-fns `format`):
 * the date or time of day in the server's time zone. An invalid Date throws, as date-fns does.
 */
export function localDateOrTime(type: 'date' | 'time', d: Date): string {
  if (Number.isNaN(d.getTime())) throw new RangeError('Invalid time value');
  return type === 'date'
    ? `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
    : `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** Value read from a row -> what v4 returns for that type. */
export function fromDb(type: ScalarType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'boolean':
      return v === 1 || v === true || v === '1' || v === 't' || v === 'true';
    case 'timestamp':
      // v4 returns epoch milliseconds as a string ("1704189600000"): the stored number on SQLite, the time of the
      // Date pg reads on PostgreSQL (both verified on 4.26.2)
      if (typeof v === 'number' || typeof v === 'bigint') return String(v);
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : String(v.getTime());
    // falls through: a timestamp stored as text reads like a datetime
    case 'datetime': {
      // PostgreSQL's timestamp columns arrive as Dates (pg reads them); String(date) would drop the milliseconds
      const d = v instanceof Date ? v : typeof v === 'number' || typeof v === 'bigint' ? new Date(Number(v)) : new Date(String(v));
      return Number.isNaN(d.getTime()) ? null : d.toISOString();
    }
    case 'date':
      return typeof v === 'number' ? formatDate(new Date(v)) : String(v).slice(0, 10);
    case 'biginteger':
      return String(v);
    case 'integer':
    case 'float':
    case 'decimal':
      return typeof v === 'number' ? v : Number(v);
    case 'json':
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    default:
      return v;
  }
}

/** A validated JavaScript value -> the parameter stored for it, as v4 stores it. */
export function toDb(dialect: Dialect, type: ScalarType, v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'boolean':
      return dialect.booleanToDb(Boolean(v));
    case 'datetime':
    case 'timestamp':
      return dialect.datetimeToDb(v instanceof Date ? v : new Date(v as string | number));
    case 'date':
    case 'time':
      return v instanceof Date ? localDateOrTime(type, v) : String(v);
    case 'biginteger':
      // the driver binds no BigInt past 64 bits: such a value (from project code; clients get a 400), or one that
      // is no integer, goes as v4 binds it, and SQLite converts it as it does for v4
      return asInt64(v) ?? (typeof v === 'number' ? v : String(v));
    case 'integer':
    case 'float':
    case 'decimal':
      return Number(v);
    case 'json':
      return JSON.stringify(v);
    default:
      return typeof v === 'string' ? v : String(v);
  }
}

export function selectExpr(dialect: Dialect, attr: ScalarAttribute, alias: string): string {
  const col = `${alias}.${dialect.quote(attr.column)}`;
  return attr.type === 'biginteger' ? dialect.bigintAsText(col) : col;
}
