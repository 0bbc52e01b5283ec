// Attribute values between JavaScript and the database, per v4 attribute type.
import type { ScalarAttribute, ScalarType } from '../model/types';
import type { Dialect, SqlValue } from './dialect';

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

export function formatDate(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Value read from a row -> what v4 returns for that type. */
export function fromDb(type: ScalarType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'boolean':
      return v === 1 || v === true || v === '1' || v === 't' || v === 'true';
    case 'timestamp':
      // v4 on SQLite returns the stored epoch milliseconds as a string ("1704189600000"), verified on 4.26.2
      if (typeof v === 'number' || typeof v === 'bigint') return String(v);
    // falls through: a timestamp stored as text reads like a datetime
    case 'datetime': {
      const d = typeof v === 'number' || typeof v === 'bigint' ? new Date(Number(v)) : new Date(String(v));
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
      return v instanceof Date ? formatDate(v) : String(v);
    case 'biginteger':
      return BigInt(v as string | number | bigint);
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
