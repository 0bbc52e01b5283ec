// Filter values arrive as strings: convert them as v4's database fields do (`field.toDB` for $eq $ne $lt
// $lte $gt $gte $in $notIn $between and a bare `$not`; the text as given for the string operators; a
// boolean for $null/$notNull), so results match v4's. What v4 lets fail in the database as a 500 (a number
// field given "abc") is a 400 here; invalid dates get v4's own 400 messages.
import { toDate, toDateTime, toTime } from '../documents/date-formats';
import { ValidationError } from '../errors';
import type { ScalarAttribute } from '../model/types';
import { ID_ATTR, v4Boolean } from '../storage/compile-where';

/** operators whose value v4 passes to the database as text, whatever the attribute type */
const TEXT_OPERATORS = new Set([
  '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$eqi', '$nei',
]);

const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function bad(attr: ScalarAttribute, value: unknown, expected: string): never {
  throw new ValidationError(`Invalid value ${JSON.stringify(value)} for ${attr.name}: expected ${expected}`);
}

/** One value (never a list: the caller maps lists) for `op` on `attr`. */
export function castFilterValue(attr: ScalarAttribute, op: string, value: unknown): unknown {
  if (op === '$null' || op === '$notNull') return v4Boolean(value);
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') bad(attr, value, 'a single value');
  if (TEXT_OPERATORS.has(op) || attr === ID_ATTR) return String(value); // ids: bound as given, as v4 does
  const s = String(value);
  switch (attr.type) {
    case 'integer':
    case 'float':
    case 'decimal': {
      // lodash toNumber, as v4: '' is 0, '0x1f' is 31
      const n = Number(s);
      if (Number.isNaN(n)) bad(attr, value, 'a number');
      return n;
    }
    case 'biginteger':
      // v4 binds the text; only numbers compare sensibly with the column, so anything else is a 400
      if (!NUMBER.test(s)) bad(attr, value, 'a number');
      return s.trim();
    case 'boolean':
      return v4Boolean(value);
    case 'date': {
      const r = toDate(s);
      if (!r.ok) throw new ValidationError(r.message);
      return r.value;
    }
    case 'time': {
      const r = toTime(s);
      if (!r.ok) throw new ValidationError(r.message);
      return r.value;
    }
    case 'datetime':
    case 'timestamp': {
      const r = toDateTime(s);
      if (!r.ok) throw new ValidationError(r.message);
      return r.value;
    }
    default:
      // strings, enumerations, uids, emails; json compares with the value's JSON text, as in v4
      return s;
  }
}
