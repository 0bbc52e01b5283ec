// A v4 `where` tree -> one parameterised SQL condition. Relations, components and media become EXISTS
// subqueries, so a filter never multiplies the parent rows and needs no DISTINCT.
import type { Attribute, ContentType, Model, ScalarAttribute } from '../model/types';
import { OPERATOR_SET, type Where } from '../query/types';
import type { SqlValue } from './dialect';
import { hopFor } from './hops';
import type { SqlBuilder } from './sql-builder';
import { toDb } from './values';

export class WhereError extends Error {}

const ID_ATTR: ScalarAttribute = {
  kind: 'scalar', name: 'id', type: 'integer', column: 'id', unique: true,
  private: false, required: false, writable: false, localized: true, raw: { type: 'integer' },
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function hasOperatorKeys(o: Record<string, unknown>): boolean {
  return Object.keys(o).some((k) => k.startsWith('$'));
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function compileWhere(b: SqlBuilder, model: Model, ct: ContentType, alias: string, where: Where | undefined): string {
  if (!where || !isPlainObject(where)) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    const sql = compileKey(b, model, ct, alias, key, value);
    if (sql) parts.push(sql);
  }
  return parts.length === 0 ? '' : parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(' AND ');
}

function compileList(b: SqlBuilder, model: Model, ct: ContentType, alias: string, value: unknown, join: 'AND' | 'OR'): string {
  const items = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : [];
  const parts = items.map((w) => compileWhere(b, model, ct, alias, w as Where)).filter(Boolean);
  if (parts.length === 0) return '';
  return parts.map((p) => `(${p})`).join(` ${join} `);
}

function compileKey(b: SqlBuilder, model: Model, ct: ContentType, alias: string, key: string, value: unknown): string {
  if (key === '$and') return compileList(b, model, ct, alias, value, 'AND');
  if (key === '$or') return compileList(b, model, ct, alias, value, 'OR');
  if (key === '$not') {
    const inner = Array.isArray(value) ? compileList(b, model, ct, alias, value, 'AND') : compileWhere(b, model, ct, alias, value as Where);
    return inner ? `NOT (${inner})` : '';
  }
  if (key.startsWith('$')) throw new WhereError(`Undefined attribute level operator ${key}`);
  const attr = key === 'id' ? ID_ATTR : ct.attributes[key];
  if (!attr) throw new WhereError(`Invalid key ${key}`);
  if (attr.kind === 'scalar') return compileScalar(b, attr, `${alias}.${b.q(attr.column)}`, value);
  return compileNested(b, model, ct, alias, attr, value);
}

function compileNested(b: SqlBuilder, model: Model, ct: ContentType, alias: string, attr: Attribute, value: unknown): string {
  if (attr.kind === 'dynamiczone') throw new WhereError(`Invalid key ${attr.name}`);
  if (attr.kind === 'relation' && attr.relation.startsWith('morph')) throw new WhereError(`Invalid key ${attr.name}`);
  const hop = hopFor(b, model, ct, attr);
  let nested: Where;
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && (keys[0] === '$null' || keys[0] === '$notNull')) {
      // on a relation: whether it has any related row at all
      const wantsNull = keys[0] === '$null' ? truthy(value.$null) : !truthy(value.$notNull);
      const exists = `EXISTS (SELECT 1 ${hop.from} WHERE ${hop.on(`${alias}.id`)})`;
      return wantsNull ? `NOT ${exists}` : exists;
    }
    // `{ $in: [..] }` alone is shorthand for the target's id; anything else is a where on the target
    nested = keys.length > 0 && hasOperatorOnly(value) ? { id: value } : value;
  } else {
    nested = { id: value }; // `role: 2`, `role: [1, 2]`
  }
  return existsFor(b, model, hop, alias, nested);
}

function hasOperatorOnly(o: Record<string, unknown>): boolean {
  return Object.keys(o).every((k) => OPERATOR_SET.has(k));
}

function existsFor(b: SqlBuilder, model: Model, hop: ReturnType<typeof hopFor>, parentAlias: string, where: Where): string {
  const on = hop.on(`${parentAlias}.id`);
  const inner = compileWhere(b, model, hop.target, hop.alias, where);
  return `EXISTS (SELECT 1 ${hop.from} WHERE ${on}${inner ? ` AND (${inner})` : ''})`;
}

function truthy(v: unknown): boolean {
  return v === true || v === 'true' || v === '1' || v === 1 || v === 't';
}

function compileScalar(b: SqlBuilder, attr: ScalarAttribute, col: string, value: unknown): string {
  if (value === null) return `${col} IS NULL`;
  if (Array.isArray(value)) return compileOp(b, attr, col, '$in', value);
  if (isPlainObject(value)) {
    const parts: string[] = [];
    for (const [op, v] of Object.entries(value)) {
      if (v === undefined) continue;
      if (op === '$not') {
        const inner = compileScalar(b, attr, col, v);
        if (inner) parts.push(`NOT (${inner})`);
      } else if (op === '$and' || op === '$or') {
        const items = (Array.isArray(v) ? v : [v]).map((x) => compileScalar(b, attr, col, x)).filter(Boolean);
        if (items.length) parts.push(items.map((p) => `(${p})`).join(op === '$and' ? ' AND ' : ' OR '));
      } else if (OPERATOR_SET.has(op)) {
        parts.push(compileOp(b, attr, col, op, v));
      } else {
        throw new WhereError(`Undefined attribute level operator ${op}`);
      }
    }
    return parts.length <= 1 ? (parts[0] ?? '') : parts.map((p) => `(${p})`).join(' AND ');
  }
  return compileOp(b, attr, col, '$eq', value);
}

function v(b: SqlBuilder, attr: ScalarAttribute, value: unknown): string {
  return b.param(toDb(b.dialect, attr.type, value) as SqlValue);
}

function asArray(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value)) return Object.values(value);
  return [value];
}

function like(b: SqlBuilder, col: string, value: unknown, pattern: (s: string) => string, insensitive: boolean, negate: boolean): string {
  const p = b.param(pattern(escapeLike(String(value))));
  return insensitive ? b.dialect.likeInsensitive(col, p, negate) : b.dialect.likeDefault(col, p, negate);
}

function compileOp(b: SqlBuilder, attr: ScalarAttribute, col: string, op: string, value: unknown): string {
  const d = b.dialect;
  switch (op) {
    case '$eq':
      if (value === null) return `${col} IS NULL`;
      if (Array.isArray(value)) return compileOp(b, attr, col, '$in', value);
      return `${col} = ${v(b, attr, value)}`;
    case '$ne':
      if (value === null) return `${col} IS NOT NULL`;
      if (Array.isArray(value)) return compileOp(b, attr, col, '$notIn', value);
      return `NOT (${col} = ${v(b, attr, value)})`;
    case '$eqi':
      return `lower(${col}) = lower(${b.param(String(value))})`;
    case '$nei':
      return `NOT (lower(${col}) = lower(${b.param(String(value))}))`;
    case '$lt': return `${col} < ${v(b, attr, value)}`;
    case '$lte': return `${col} <= ${v(b, attr, value)}`;
    case '$gt': return `${col} > ${v(b, attr, value)}`;
    case '$gte': return `${col} >= ${v(b, attr, value)}`;
    case '$in':
    case '$notIn': {
      const items = asArray(value);
      if (items.length === 0) return op === '$in' ? '1 = 0' : '1 = 1';
      const list = items.map((x) => v(b, attr, x)).join(', ');
      return op === '$in' ? `${col} IN (${list})` : `${col} NOT IN (${list})`;
    }
    case '$between': {
      const [lo, hi] = asArray(value);
      return `${col} BETWEEN ${v(b, attr, lo)} AND ${v(b, attr, hi)}`;
    }
    case '$null':
      return truthy(value) ? `${col} IS NULL` : `${col} IS NOT NULL`;
    case '$notNull':
      return truthy(value) ? `${col} IS NOT NULL` : `${col} IS NULL`;
    case '$contains': return like(b, col, value, (s) => `%${s}%`, false, false);
    case '$notContains': return like(b, col, value, (s) => `%${s}%`, false, true);
    case '$containsi': return like(b, col, value, (s) => `%${s}%`, true, false);
    case '$notContainsi': return like(b, col, value, (s) => `%${s}%`, true, true);
    case '$startsWith': return like(b, col, value, (s) => `${s}%`, false, false);
    case '$startsWithi': return like(b, col, value, (s) => `${s}%`, true, false);
    case '$endsWith': return like(b, col, value, (s) => `%${s}`, false, false);
    case '$endsWithi': return like(b, col, value, (s) => `%${s}`, true, false);
    default:
      void d;
      throw new WhereError(`Undefined attribute level operator ${op}`);
  }
}
