// Message texts of v4's entity validation (yup 0.32.9 locale + Strapi's overrides), confirmed by running
// @strapi/strapi@4.26.2's entity validator. `p` is the path as yup prints it: `title`, `seo.metaTitle`, `links[0].label`.

function printSimple(v: unknown, quote: boolean): string | null {
  if (v === null || v === undefined || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return quote ? `"${v}"` : v;
  if (typeof v === 'bigint') return String(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  if (v instanceof RegExp) return String(v);
  return null;
}

/** yup's printValue: simple values printed directly; objects as 2-space JSON whose leaves are printed values. */
export function printValue(v: unknown, quote = true): string {
  const simple = printSimple(v, quote);
  if (simple !== null) return simple;
  return JSON.stringify(v, function (this: Record<string, unknown>, key: string, val: unknown) {
    const s = printSimple(this[key], quote);
    return s !== null ? s : val;
  }, 2);
}

/** Path segments -> yup's printed path; numeric segments are array indexes. */
export function printPath(path: readonly string[]): string {
  let out = '';
  for (const seg of path) out += /^\d+$/.test(seg) ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  return out;
}

export const messages = {
  /** Strapi's notNil (create) */
  defined: (p: string) => `${p} must be defined.`,
  /** Strapi's notNull (update) */
  notNull: (p: string) => `${p} cannot be null.`,
  /** Strapi's override of yup mixed.notType (no "nullable" hint) */
  notType(p: string, type: string, value: unknown, original: unknown): string {
    const isCast = original != null && original !== value;
    const from = isCast ? ` (cast from the value \`${printValue(original)}\`).` : '.';
    return `${p} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`${from}`;
  },
  /** yup mixed.required (only the DZ `__component` uses it) */
  required: (p: string) => `${p} is a required field`,
  /** yup mixed.oneOf (Array#join); v4 adds `null` to enumerations, printed as an empty last item: `a, b, ` */
  oneOf: (p: string, values: readonly (string | null)[]) => `${p} must be one of the following values: ${values.join(', ')}`,
  /** Tessera's: a component the dynamic zone does not list (v4 stores it) */
  notInZone: (p: string, uid: string, zone: string, allowed: readonly string[]) =>
    `${p} ${uid} is not a component of the dynamic zone ${zone}: it must be one of the following values: ${allowed.join(', ')}`,
  minLength: (p: string, n: number) => `${p} must be at least ${n} characters`,
  maxLength: (p: string, n: number) => `${p} must be at most ${n} characters`,
  matches: (p: string, re: RegExp) => `${p} must match the following: "${String(re)}"`,
  email: (p: string) => `${p} must be a valid email`,
  /** v4's email validator: `.min(1, '${path} cannot be empty')` */
  emptyEmail: (p: string) => `${p} cannot be empty`,
  min: (p: string, n: number | bigint) => `${p} must be greater than or equal to ${printValue(n)}`,
  max: (p: string, n: number | bigint) => `${p} must be less than or equal to ${printValue(n)}`,
  integer: (p: string) => `${p} must be an integer`,
  /** Tessera's: v4 stores Infinity (yup's number() accepts it) and reads it back as null */
  finite: (p: string) => `${p} must be a finite number`,
  arrayMin: (p: string, n: number) => `${p} field must have at least ${n} items`,
  arrayMax: (p: string, n: number) => `${p} field must have less than or equal to ${n} items`,
  many: (n: number) => `${n} errors occurred`,
};

/** @strapi/database 4.26.2 field conversion errors (v4 wraps them into a ValidationError with this message). */
export const dbMessages = {
  dateFormat: 'Invalid format, expected yyyy-MM-dd',
  date: 'Invalid date',
  timeType: (v: unknown) => `Expected a string, got a ${typeof v}`,
  time: 'Invalid time format, expected HH:mm:ss.SSS',
  datetime: 'Invalid format, expected a timestamp or an ISO date',
};
