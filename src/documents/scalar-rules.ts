// One scalar attribute's value: cast and checked the way v4's entity validator (yup 0.32.9, strict:false)
// does it, then converted like v4's database fields (dates). A failed type check stops the other checks.
import type { ScalarAttribute } from '../model/types';
import { jsonValueTooDeep, tooDeepMessage } from '../json-nesting';
import { asInt64, fitsInt64, INT64_MAX, INT64_MIN } from '../storage/values';
import { toDate, toDateTime, toTime, type Converted } from './date-formats';
import { isEmail } from './email-address';
import { messages as m } from './validation-messages';

export interface ScalarOutcome {
  /** cast value (undefined: leave the key out) */
  value: unknown;
  /** validation messages (v4's yup stage) */
  errors: string[];
  /** conversion message (v4's database stage: only reported when validation passed) */
  dbError?: string;
}

const UID = /^[A-Za-z0-9-_.~]*$/;
const regexCache = new Map<string, RegExp>();
function compiled(source: string): RegExp {
  let re = regexCache.get(source);
  if (!re) { re = new RegExp(source); regexCache.set(source, re); }
  return re;
}

/** yup number() cast: strings without whitespace via unary plus ('' -> NaN), anything else via parseFloat. */
function castNumber(v: unknown): unknown {
  if (typeof v === 'string') {
    const s = v.replace(/\s/g, '');
    return s === '' ? NaN : Number(s);
  }
  if (typeof v === 'number') return v;
  return parseFloat(String(v));
}

/** yup boolean() cast */
function castBoolean(v: unknown): unknown {
  if (typeof v === 'boolean') return v;
  if (/^(true|1)$/i.test(String(v))) return true;
  if (/^(false|0)$/i.test(String(v))) return false;
  return v;
}

/** yup string() cast (used where v4 does not prevent it: enumerations, DZ `__component`) */
export function castString(v: unknown): unknown {
  if (typeof v === 'string' || Array.isArray(v) || v == null) return v;
  const s = String(v);
  return s === '[object Object]' ? v : s;
}

function stringChecks(attr: ScalarAttribute, v: string, p: string, isDraft: boolean): string[] {
  const errors: string[] = [];
  const { minLength, maxLength } = attr;
  // v4's email validator replaces minLength by `.min(1, 'cannot be empty')` (same exclusive yup test)
  if (attr.type !== 'email' && minLength && Number.isInteger(minLength) && !isDraft && v.length < minLength) errors.push(m.minLength(p, minLength));
  if (maxLength && Number.isInteger(maxLength) && v.length > maxLength) errors.push(m.maxLength(p, maxLength));
  if (attr.regex !== undefined && !(v === '' && !attr.required)) {
    const re = compiled(attr.regex);
    if (!re.test(v)) errors.push(m.matches(p, re));
  }
  if (attr.type === 'uid' && !UID.test(v)) errors.push(m.matches(p, UID));
  if (attr.type === 'email') {
    if (v !== '' && !isEmail(v)) errors.push(m.email(p));
    if (v.length < 1) errors.push(m.emptyEmail(p));
  }
  return errors;
}

function numberChecks(attr: ScalarAttribute, v: number, p: string): string[] {
  const errors: string[] = [];
  const int = attr.type === 'integer';
  if (int && !Number.isInteger(v)) errors.push(m.integer(p));
  // v4 truncates integer bounds (lodash toInteger)
  const min = attr.min === undefined ? undefined : int ? Math.trunc(attr.min) : attr.min;
  const max = attr.max === undefined ? undefined : int ? Math.trunc(attr.max) : attr.max;
  if (min !== undefined && v < min) errors.push(m.min(p, min));
  if (max !== undefined && v > max) errors.push(m.max(p, max));
  // a number no column holds: v4 stores Infinity (read back as null) and integers past 64 bits as floats
  if (errors.length === 0 && !int && !Number.isFinite(v)) errors.push(m.finite(p));
  if (errors.length === 0 && int && !fitsInt64(v)) errors.push(v < 0 ? m.min(p, INT64_MIN) : m.max(p, INT64_MAX));
  return errors;
}

/** a json or blocks value nested past the limit of client writes (json-nesting.ts) */
function nesting(v: unknown, p: string, max: number | undefined): string[] {
  return max !== undefined && jsonValueTooDeep(v, max) ? [tooDeepMessage(p, max)] : [];
}

function converted(c: Converted): ScalarOutcome {
  return c.ok ? { value: c.value, errors: [] } : { value: undefined, errors: [], dbError: c.message };
}

/**
 * `value` is the input after defaults (undefined: key absent). `p` is the printed path.
 * Required (notNil on create, notNull on update) only applies outside drafts; a required attribute is not
 * nullable, so for typed schemas a null fails the type check ("must be a `string` type...") as in v4.
 */
export function checkScalar(attr: ScalarAttribute, value: unknown, p: string, opts: { isCreate: boolean; isDraft: boolean; maxJsonDepth?: number }): ScalarOutcome {
  const required = attr.required && !opts.isDraft;
  const nullable = !required;
  if (value === undefined) {
    return { value, errors: required && opts.isCreate ? [m.defined(p)] : [] };
  }
  const typeError = (type: string, cast: unknown): ScalarOutcome => ({ value, errors: [m.notType(p, type, cast, value)] });
  if (value === null) {
    switch (attr.type) {
      case 'json': case 'biginteger': case 'date': case 'time': case 'datetime': case 'timestamp':
        // untyped (yup mixed) in v4: only the required test sees the null
        return { value, errors: required ? [opts.isCreate ? m.defined(p) : m.notNull(p)] : [] };
      case 'integer': case 'float': case 'decimal':
        return nullable ? { value, errors: [] } : typeError('number', NaN);
      case 'boolean': return nullable ? { value, errors: [] } : typeError('boolean', null);
      case 'blocks': return nullable ? { value, errors: [] } : typeError('array', null);
      default: return nullable ? { value, errors: [] } : typeError('string', null);
    }
  }
  switch (attr.type) {
    case 'string': case 'text': case 'richtext': case 'password': case 'email': case 'uid':
      // v4 prevents the string cast: a number is a type error, not "12"
      if (typeof value !== 'string') return typeError('string', value);
      return { value, errors: stringChecks(attr, value, p, opts.isDraft) };
    case 'enumeration': {
      const cast = castString(value);
      const allowed = [...(attr.enum ?? []), null];
      const errors: string[] = [];
      if (typeof cast !== 'string') errors.push(m.notType(p, 'string', cast, value));
      if (!allowed.includes(cast as string)) errors.push(m.oneOf(p, allowed));
      return { value: cast, errors };
    }
    case 'integer': case 'float': case 'decimal': {
      const cast = castNumber(value);
      if (typeof cast !== 'number' || Number.isNaN(cast)) return typeError('number', cast);
      return { value: cast, errors: numberChecks(attr, cast, p) };
    }
    case 'boolean': {
      const cast = castBoolean(value);
      return typeof cast === 'boolean' ? { value: cast, errors: [] } : typeError('boolean', cast);
    }
    case 'biginteger': {
      // untyped in v4 (the database column rejects garbage); digits are kept as a string so nothing is rounded
      const digits = typeof value === 'string' && /^-?\d+$/.test(value) ? value : typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
      if (digits === undefined) return typeError('biginteger', value);
      // past 64 bits v4 stores a rounded float ("99999999999999999999" reads back as "100000000000000000000")
      if (asInt64(digits) === undefined) return { value, errors: [digits.startsWith('-') ? m.min(p, INT64_MIN) : m.max(p, INT64_MAX)] };
      return { value: digits, errors: [] };
    }
    case 'blocks': {
      let v = value;
      if (typeof v === 'string') { try { v = JSON.parse(v); } catch { /* not JSON: type error below */ } }
      return Array.isArray(v) ? { value: v, errors: nesting(v, p, opts.maxJsonDepth) } : typeError('array', value);
    }
    case 'date': return converted(toDate(value));
    case 'time': return converted(toTime(value));
    case 'datetime': case 'timestamp': return converted(toDateTime(value));
    case 'json':
      return { value, errors: nesting(value, p, opts.maxJsonDepth) };
    default:
      return { value, errors: [] };
  }
}
