// Generators of JSON bodies for the fixture app's content types, read from its Model: every attribute mostly
// with a value that fits (so writes get through validation to storage) and sometimes with anything; relations
// in every v4 form (ids, { id }, connect / disconnect / set with positions), media ids, components and dynamic
// zones, plus keys an entry must not take. Texts that JSON.stringify cannot write (1e400, -0, duplicated keys,
// prototype keys as own keys) are planted as markers and written by toJsonText.
import fc from 'fast-check';
import type { Attribute, ContentType, Model } from '../../src/model/types';
import { ODD_TEXTS, oneIn, PROTOTYPE_KEYS } from './fuzz-kit';

/** highest id of each table in the fixture data (ids above it name nothing, unless a fuzz create made them) */
export const FIXTURE_IDS: Record<string, number> = {
  'api::article.article': 60, 'api::author.author': 8, 'api::category.category': 6, 'api::page.page': 8, 'api::homepage.homepage': 1,
  'plugin::upload.file': 3, 'plugin::users-permissions.user': 1, 'plugin::users-permissions.role': 2, 'admin::user': 1,
};

const RAW = '\u0001raw:';
const DUP = '\u0001dup:';
const RAW_JSON = '\u0001json:';
/** a number written as is in the JSON text (1e400, -0, 2^63, ...): JSON.stringify has no way to */
export const rawNumber = (text: string): string => `${RAW}${text}`;
/** a key written as `name` in the JSON text beside a key `name` already there (the `#n` keeps markers apart) */
const duplicateKey = (name: string, n: number): string => `${DUP}${n}#${name}`;

/** JSON text of `value` with the markers replaced: raw numbers unquoted, raw texts in place, duplicated keys under their name */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value)
    .replace(/"\\u0001raw:([^"]*)"/g, '$1')
    .replace(/"\\u0001json:(\d+)"/g, (_, id: string) => rawTexts[Number(id)])
    .replace(/"\\u0001dup:\d+#((?:[^"\\]|\\.)*)"/g, '"$1"');
}

export const RAW_NUMBERS = ['1e400', '-1e400', '-0', '0.0', '9223372036854775808', '-9223372036854775809', '18446744073709551616', '2147483648',
  '1e-400', '123456789012345678901234567890', '0.1e1', '1E+2', '9007199254740993', '4.9e-324', '1.7976931348623157e308'];

/** any JSON value, wrong for most attributes */
export const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...ODD_TEXTS),
  fc.constantFrom(...RAW_NUMBERS).map(rawNumber),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom([], {}, [null], { id: 1 }, [1, 2], { $eq: 1 }, { connect: 1 }, { data: null }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(5_000, 100_000, 600_000).map((n) => 'x'.repeat(n)),
);

const ISO_DATE = fc.date({ noInvalidDate: true });
const byType: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 })),
  text: fc.string({ maxLength: 200 }),
  richtext: fc.string({ maxLength: 200 }),
  password: fc.string({ minLength: 6, maxLength: 20 }),
  email: fc.emailAddress(),
  uid: fc.stringMatching(/^[A-Za-z0-9_.~-]{1,24}$/),
  integer: fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom('7', '-0', 0)),
  biginteger: fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String), fc.integer(), fc.constantFrom('9223372036854775807', rawNumber('9223372036854775807'))),
  float: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()),
  decimal: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constantFrom('12.50', '0.000001')),
  boolean: fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 0, 1, 't')),
  date: fc.oneof(ISO_DATE.map((d) => d.toISOString().slice(0, 10)), fc.constantFrom('2025-02-30', '2025-13-01', '0000-00-00')),
  datetime: fc.oneof(ISO_DATE.map((d) => d.toISOString()), ISO_DATE.map((d) => d.getTime()), fc.constantFrom('2025-01-01T25:00:00Z', 'now')),
  timestamp: ISO_DATE.map((d) => d.toISOString()),
  time: fc.oneof(fc.tuple(fc.nat(23), fc.nat(59), fc.nat(59)).map(([h, m, s]) => `${h}:${m}:${s}`), fc.constantFrom('24:00:00', '12:00:00.000')),
  json: fc.jsonValue({ maxDepth: 4 }),
  blocks: fc.constantFrom([{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }], [], [{}]),
};

/** mostly the good kind, sometimes anything (rarely enough that a good share of whole entries stays valid) */
const mostly = (good: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> => fc.oneof({ arbitrary: good, weight: 40 }, { arbitrary: anything, weight: 1 });

const idOf = (uid: string): fc.Arbitrary<unknown> => fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: FIXTURE_IDS[uid] ?? 5 }), weight: 30 },
  // the run's own creates, or nothing
  { arbitrary: fc.integer({ min: (FIXTURE_IDS[uid] ?? 5) + 1, max: (FIXTURE_IDS[uid] ?? 5) + 40 }), weight: 2 },
  { arbitrary: fc.constantFrom(0, -1, 99999, '1', 'abc', 1.5, null, rawNumber('1e400'), rawNumber('9223372036854775808'), { id: 1 }), weight: 1 },
);
const position = (uid: string): fc.Arbitrary<unknown> => fc.oneof(
  idOf(uid).map((before) => ({ before })),
  idOf(uid).map((after) => ({ after })),
  fc.constant({ start: true }),
  fc.constant({ end: true }),
  fc.tuple(idOf(uid), idOf(uid)).map(([before, after]) => ({ before, after })),
  anything,
);
const connectItem = (uid: string): fc.Arbitrary<unknown> => fc.oneof(
  idOf(uid),
  fc.record({ id: idOf(uid), position: position(uid) }, { requiredKeys: ['id'] }),
);
/** a relation in every form v4 takes it */
function relationValue(uid: string, many: boolean): fc.Arbitrary<unknown> {
  const items = fc.array(connectItem(uid), { maxLength: many ? 5 : 2 });
  return mostly(fc.oneof(
    idOf(uid),
    idOf(uid).map((id) => ({ id })),
    fc.array(idOf(uid), { maxLength: 5 }),
    fc.array(idOf(uid).map((id) => ({ id })), { maxLength: 3 }),
    fc.record({ connect: items, disconnect: items }, { requiredKeys: [] }),
    fc.record({ set: items }),
    // v4 refuses set beside connect or disconnect
    fc.record({ connect: items, disconnect: items, set: items }),
    fc.constant(null),
  ));
}
const mediaValue = (multiple: boolean): fc.Arbitrary<unknown> => mostly(multiple
  ? fc.oneof(fc.array(idOf('plugin::upload.file'), { maxLength: 4 }), fc.constant(null))
  : fc.oneof(idOf('plugin::upload.file'), idOf('plugin::upload.file').map((id) => ({ id })), fc.constant(null)));

/** one component's fields (an `id` sometimes: v4 updates the component it names, if the entry holds it) */
function componentValue(model: Model, uid: string, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const c = model.require(uid);
  return fc.tuple(attributesValue(model, c, depth + 1), oneIn(4, fc.oneof(fc.integer({ min: 1, max: 250 }), fc.constantFrom('1', -1))))
    .map(([fields, id]) => (id === null ? fields : { id, ...fields }));
}

function attributeValue(model: Model, a: Attribute, depth: number): fc.Arbitrary<unknown> {
  switch (a.kind) {
    case 'scalar':
      return mostly(a.enum ? fc.constantFrom(...a.enum) : byType[a.type] ?? anything);
    case 'relation':
      return relationValue(a.target, a.many);
    case 'media':
      return mediaValue(a.multiple);
    case 'component': {
      const one = componentValue(model, a.component, depth);
      return mostly(a.repeatable ? fc.array(one, { maxLength: 3 }) : fc.oneof({ arbitrary: one, weight: 5 }, { arbitrary: fc.constant(null), weight: 1 }));
    }
    case 'dynamiczone': {
      const item = fc.oneof(
        { arbitrary: fc.constantFrom(...a.components).chain((uid) => componentValue(model, uid, depth).map((fields) => ({ __component: uid, ...fields }))), weight: 6 },
        { arbitrary: fc.tuple(fc.constantFrom('blocks.nope', '', 'shared.seo', 'blocks', '__proto__'), fc.dictionary(fc.string({ maxLength: 5 }), anything, { maxKeys: 2 })).map(([c, f]) => ({ ...f, __component: c })), weight: 1 },
        { arbitrary: anything, weight: 1 },
      );
      return mostly(fc.array(item, { maxLength: 4 }));
    }
  }
}

/** the writable attributes of `m`: required ones always there, the others half the time */
function attributesValue(model: Model, m: ContentType, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const writable = Object.values(m.attributes).filter((a) => a.writable && !(depth > 2 && a.kind !== 'scalar'));
  const shape = Object.fromEntries(writable.map((a) => [a.name, attributeValue(model, a, depth)]));
  return fc.record(shape, { requiredKeys: writable.filter((a) => a.required).map((a) => a.name) }) as fc.Arbitrary<Record<string, unknown>>;
}

/** keys an entry's input must not take: the system's, unknown ones, and odd names */
const foreignKeys = fc.record({
  id: anything, createdAt: anything, updatedAt: anything, publishedAt: fc.oneof(fc.constant(null), ISO_DATE.map((d) => d.toISOString()), anything),
  createdBy: idOf('admin::user'), updatedBy: anything, locale: fc.constantFrom('en', 'fr', 'xx', '', 'en-US'), localizations: fc.array(idOf('api::page.page'), { maxLength: 2 }),
  nope: anything, '': anything, 'a.b': anything, $set: anything,
}, { requiredKeys: [] });

/** `data` for a write to content type `uid` */
const entryDataKept = new WeakMap<Model, Map<string, fc.Arbitrary<Record<string, unknown>>>>();
export function entryData(model: Model, uid: string): fc.Arbitrary<Record<string, unknown>> {
  const kept = entryDataKept.get(model) ?? new Map<string, fc.Arbitrary<Record<string, unknown>>>();
  entryDataKept.set(model, kept);
  const arb = kept.get(uid) ?? fc.tuple(attributesValue(model, model.require(uid), 0), oneIn(6, foreignKeys)).map(([data, extra]) => ({ ...extra, ...data }));
  kept.set(uid, arb);
  return arb;
}

/** what gets planted at a random object of a body: prototype keys with values that would pollute */
const PLANT_VALUES: unknown[] = [{ polluted: 'yes' }, { isAdmin: true }, { prototype: { polluted: 'yes' } }, 'x', null, 1, [], { toString: 'x' }];
export const plants = fc.array(fc.tuple(fc.nat(), fc.constantFrom(...PROTOTYPE_KEYS), fc.constantFrom(...PLANT_VALUES)), { maxLength: 3 });

/** every object in `value`, depth first (without recursion: bodies nest thousands of levels) */
function objectsOf(value: unknown): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (!v || typeof v !== 'object') continue;
    if (!Array.isArray(v)) found.push(v as Record<string, unknown>);
    stack.push(...Object.values(v).reverse());
  }
  return found;
}

/** `body` with each plant an own key (JSON.stringify writes it) of the n-th object */
export function plant(body: unknown, list: Array<[number, string, unknown]>): unknown {
  const objects = objectsOf(body);
  for (const [n, key, value] of list) {
    if (!objects.length) break;
    Object.defineProperty(objects[n % objects.length], key, { value: structuredClone(value), enumerable: true, configurable: true, writable: true });
  }
  return body;
}

/** a key of the n-th object written twice, the second time with `value` */
export function duplicate(body: unknown, n: number, value: unknown): unknown {
  const objects = objectsOf(body).filter((o) => Object.keys(o).length);
  if (!objects.length) return body;
  const o = objects[n % objects.length];
  const keys = Object.keys(o);
  o[duplicateKey(keys[n % keys.length], n)] = value;
  return body;
}

/** JSON texts planted whole by rawJson: JSON.stringify would run out of stack on thousands of levels */
const rawTexts: string[] = [];
const rawTextIds = new Map<string, number>();
function rawJson(text: string): string {
  if (!rawTextIds.has(text)) rawTextIds.set(text, rawTexts.push(text) - 1);
  return `${RAW_JSON}${rawTextIds.get(text)}`;
}

/** `leaf` (a JSON text) under `depth` levels of objects, or of objects and lists in turn */
export function nested(depth: number, leaf: string, lists: boolean): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const list = lists && i % 2 === 1;
    open += list ? '[' : '{"a":';
    close = (list ? ']' : '}') + close;
  }
  return rawJson(`${open}${leaf}${close}`);
}
