// Filter values arrive as strings: cast them by attribute type, and reject what cannot be that type
// with a 400 (v4 lets the database fail with a 500).
import { ValidationError } from '../errors';
import type { ScalarAttribute } from '../model/types';

const STRING_OPERATORS = new Set([
  '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$eqi', '$nei',
]);

const BOOLEANS: Record<string, boolean> = { true: true, t: true, '1': true, false: false, f: false, '0': false };

function bad(attr: ScalarAttribute, value: unknown, expected: string): never {
  throw new ValidationError(`Invalid value ${JSON.stringify(value)} for ${attr.name}: expected ${expected}`);
}

export function castFilterValue(attr: ScalarAttribute, op: string, value: unknown): unknown {
  if (op === '$null' || op === '$notNull') {
    const b = typeof value === 'boolean' ? value : BOOLEANS[String(value).toLowerCase()];
    if (b === undefined) bad(attr, value, 'a boolean');
    return b;
  }
  if (value === null) return null;
  if (typeof value === 'object') bad(attr, value, 'a single value');
  if (STRING_OPERATORS.has(op)) return String(value);
  const s = String(value);
  switch (attr.type) {
    case 'integer':
    case 'float':
    case 'decimal': {
      const n = Number(s);
      if (s.trim() === '' || !Number.isFinite(n)) bad(attr, value, 'a number');
      if (attr.type === 'integer' && attr.name === 'id' && !Number.isInteger(n)) bad(attr, value, 'an integer');
      return n;
    }
    case 'biginteger':
      if (!/^-?\d+$/.test(s.trim())) bad(attr, value, 'an integer');
      return s.trim();
    case 'boolean': {
      const b = typeof value === 'boolean' ? value : BOOLEANS[s.toLowerCase()];
      if (b === undefined) bad(attr, value, 'a boolean');
      return b;
    }
    case 'datetime':
    case 'timestamp': {
      const d = new Date(/^\d+$/.test(s) ? Number(s) : s);
      if (Number.isNaN(d.getTime())) bad(attr, value, 'a date-time');
      return d;
    }
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}/.test(s)) bad(attr, value, 'a date (YYYY-MM-DD)');
      return s.slice(0, 10);
    default:
      return s;
  }
}
