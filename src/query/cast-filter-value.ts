// Filter values arrive as strings: convert them as v4's database fields do (`field.toDB` for $eq $ne $lt
// $lte $gt $gte $in $notIn $between and a bare `$not`; the text as given for the string operators; a
// boolean for $null/$notNull), so results match v4's. What v4 lets fail in the database as a 500 (a number
// field given "abc") is a 400 here; invalid dates get v4's own 400 messages. So is a number no column holds:
// not finite, or an integer filter past 64 bits (v4 compares with it; the driver cannot bind it as an integer).
// Project code may also pass a Date or another non-plain object where a value belongs: cast as v4's fields
// cast it (castObject).
import { toDate, toDateTime, toTime } from '../documents/date-formats';
import { ValidationError } from '../errors';
import type { ScalarAttribute } from '../model/types';
import { ID_ATTR, isPlainObject, NUMERIC, v4Boolean } from '../storage/compile-where';
import { fitsInt64, localDateOrTime } from '../storage/values';

/** operators whose value v4 passes to the database as text, whatever the attribute type */
const TEXT_OPERATORS = new Set([
  '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$eqi', '$nei',
]);

const INT64_RANGE = 'a number between -9223372036854775808 and 9223372036854775807';

function bad(attr: ScalarAttribute, value: unknown, expected: string): never {
  throw new ValidationError(`Invalid value ${JSON.stringify(value)} for ${attr.name}: expected ${expected}`);
}

/** One value (never a list: the caller maps lists) for `op` on `attr`. */
export function castFilterValue(attr: ScalarAttribute, op: string, value: unknown): unknown {
  if (op === '$null' || op === '$notNull') return v4Boolean(value);
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') {
    if (Array.isArray(value) || isPlainObject(value)) bad(attr, value, 'a single value');
    return castObject(attr, op, value);
  }
  if (TEXT_OPERATORS.has(op) || attr === ID_ATTR) return String(value); // ids: bound as given, as v4 does
  const s = String(value);
  switch (attr.type) {
    case 'integer':
    case 'float':
    case 'decimal': {
      // lodash toNumber, as v4: '' is 0, '0x1f' is 31
      const n = Number(s);
      if (!Number.isFinite(n)) bad(attr, value, 'a number');
      if (attr.type === 'integer' && !fitsInt64(s)) bad(attr, value, INT64_RANGE);
      return n;
    }
    case 'biginteger':
      // v4 binds the text; only numbers compare sensibly with the column, so anything else is a 400
      if (!NUMERIC.test(s)) bad(attr, value, 'a number');
      if (!fitsInt64(s)) bad(attr, value, INT64_RANGE);
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

const NUMBER_TYPES = new Set(['integer', 'float', 'decimal']);

/**
 * A Date or another non-plain object from project code (the REST door has only strings), as v4's database
 * fields cast it: date and time attributes take the Date's local date or time of day (date-fns `format`),
 * datetime and timestamp its instant; otherwise its primitive value: a number for number attributes (a Date's
 * epoch milliseconds), a boolean's truthiness, JSON as JSON.stringify writes it, and its text for the rest.
 */
function castObject(attr: ScalarAttribute, op: string, value: object): unknown {
  if (value instanceof Date && !TEXT_OPERATORS.has(op) && attr !== ID_ATTR) {
    const invalid = Number.isNaN(value.getTime());
    if (invalid && ['date', 'time', 'datetime', 'timestamp'].includes(attr.type)) bad(attr, 'Invalid Date', 'a valid Date');
    if (attr.type === 'date' || attr.type === 'time') return localDateOrTime(attr.type, value);
    if (attr.type === 'datetime' || attr.type === 'timestamp') return value.toISOString();
  }
  if (TEXT_OPERATORS.has(op)) return String(value);
  if (attr.type === 'boolean') return v4Boolean(value);
  if (attr.type === 'json') return value;
  return castFilterValue(attr, op, NUMBER_TYPES.has(attr.type) || attr === ID_ATTR ? Number(value) : String(value));
}
