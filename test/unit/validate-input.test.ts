import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors';
import { buildModel, type ModelSource } from '../../src/model/build-model';
import { uniqueCandidates, validateInput, type ValidateOptions } from '../../src/documents/validate-input';

const component = (uid: string, attributes: Record<string, unknown>): ModelSource => ({
  uid, kind: 'component', origin: 'component', modelName: uid.split('.')[1],
  schema: { collectionName: `components_${uid.replace('.', '_')}s`, attributes } as ModelSource['schema'],
});

const model = buildModel([
  component('shared.seo', { metaTitle: { type: 'string', required: true }, metaDescription: { type: 'text', maxLength: 5 }, shareImage: { type: 'media', multiple: false } }),
  component('shared.link', { label: { type: 'string', required: true }, url: { type: 'string' } }),
  component('blocks.text', { title: { type: 'string', maxLength: 3 } }),
  component('blocks.quote', { by: { type: 'string' } }),
  {
    uid: 'api::thing.thing', kind: 'collectionType', origin: 'api', modelName: 'thing',
    schema: {
      collectionName: 'things', info: { singularName: 'thing', pluralName: 'things', displayName: 'Thing' }, options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string', required: true, minLength: 3, maxLength: 10 },
        code: { type: 'string', regex: '^[a-z]+$' },
        body: { type: 'richtext' },
        slug: { type: 'uid', targetField: 'title' },
        email: { type: 'email' },
        secret: { type: 'password', minLength: 6 },
        count: { type: 'integer', min: 1, max: 10 },
        views: { type: 'integer', default: 0 },
        ratio: { type: 'float', min: 0.5, max: 2.5 },
        price: { type: 'decimal' },
        big: { type: 'biginteger' },
        flag: { type: 'boolean', default: false },
        kind: { type: 'enumeration', enum: ['news', 'review'] },
        day: { type: 'date' },
        at: { type: 'time' },
        when: { type: 'datetime' },
        meta: { type: 'json', required: true, default: { a: 1 } },
        internal: { type: 'string', writable: false },
        name: { type: 'string', unique: true },
        owner: { type: 'relation', relation: 'manyToOne', target: 'api::thing.thing', required: true },
        cover: { type: 'media', multiple: false },
        seo: { type: 'component', component: 'shared.seo' },
        links: { type: 'component', component: 'shared.link', repeatable: true, min: 2, max: 3 },
        blocks: { type: 'dynamiczone', components: ['blocks.text', 'blocks.quote'] },
      },
    },
  },
]);
const ct = model.require('api::thing.thing');
const valid = { title: 'hello', owner: 1 };

const create = (data: Record<string, unknown>, o: Partial<ValidateOptions> = {}) => validateInput(model, ct, data, { isCreate: true, isDraft: false, ...o });
const update = (data: Record<string, unknown>, o: Partial<ValidateOptions> = {}) => validateInput(model, ct, data, { isCreate: false, isDraft: false, ...o });

/** the thrown ValidationError as { message, errors: ['path.joined: message'] } */
function failure(fn: () => unknown): { message: string; errors: string[] } {
  try { fn(); } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    const err = e as ValidationError;
    const list = (err.details.errors ?? []) as Array<{ path: string[]; message: string; name: string }>;
    for (const x of list) expect(x.name).toBe('ValidationError');
    return { message: err.message, errors: list.map((x) => `${x.path.join('.')}: ${x.message}`) };
  }
  throw new Error('expected a ValidationError');
}
const errorsOf = (data: Record<string, unknown>) => failure(() => create({ ...valid, ...data })).errors;

describe('required', () => {
  it('missing on create: must be defined, all errors collected', () => {
    expect(failure(() => create({}))).toEqual({
      message: '2 errors occurred',
      errors: ['title: title must be defined.', 'owner: owner must be defined.'],
    });
  });
  it('null on create: typed attributes fail their type check (v4), untyped ones must be defined', () => {
    expect(failure(() => create({ ...valid, title: null, meta: null })).errors).toEqual([
      'title: title must be a `string` type, but the final value was: `null`.',
      'meta: meta must be defined.',
    ]);
  });
  it('update: missing is fine, explicit null cannot be null', () => {
    expect(update({ count: 3 })).toEqual({ count: 3 });
    expect(failure(() => update({ meta: null, owner: null })).errors).toEqual(['meta: meta cannot be null.', 'owner: owner cannot be null.']);
  });
  it('drafts skip required and minLength, not maxLength', () => {
    expect(create({ title: 'a' }, { isDraft: true })).toMatchObject({ title: 'a' });
    expect(failure(() => create({ title: 'abcdefghijk' }, { isDraft: true })).message).toBe('title must be at most 10 characters');
  });
});

describe('strings', () => {
  it('lengths, regex, uid, email, password', () => {
    expect(errorsOf({ title: 'ab' })).toEqual(['title: title must be at least 3 characters']);
    expect(errorsOf({ title: 'abcdefghijk' })).toEqual(['title: title must be at most 10 characters']);
    expect(errorsOf({ code: 'AB' })).toEqual(['code: code must match the following: "/^[a-z]+$/"']);
    expect(create({ ...valid, code: '' }).code).toBe(''); // empty string skips the regex when not required
    expect(errorsOf({ slug: 'a b' })).toEqual(['slug: slug must match the following: "/^[A-Za-z0-9-_.~]*$/"']);
    expect(errorsOf({ email: 'nope' })).toEqual(['email: email must be a valid email']);
    expect(errorsOf({ email: '' })).toEqual(['email: email cannot be empty']);
    expect(create({ ...valid, email: 'a.b+c@mail.example.org' }).email).toBe('a.b+c@mail.example.org');
    expect(errorsOf({ secret: 'abc' })).toEqual(['secret: secret must be at least 6 characters']);
  });
  it('a number is not cast to a string', () => {
    expect(errorsOf({ body: 12 })).toEqual(['body: body must be a `string` type, but the final value was: `12`.']);
  });
  it('enumeration: v4 message lists null as an empty last value; null allowed', () => {
    expect(errorsOf({ kind: 'other' })).toEqual(['kind: kind must be one of the following values: news, review, ']);
    expect(create({ ...valid, kind: null }).kind).toBeNull();
  });
});

describe('numbers and booleans', () => {
  it('numeric strings are cast; other values report the cast', () => {
    expect(create({ ...valid, count: ' 5 ', price: '1.5' })).toMatchObject({ count: 5, price: 1.5 });
    expect(errorsOf({ count: 'abc' })).toEqual(['count: count must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).']);
  });
  it('integer, min, max', () => {
    expect(errorsOf({ count: 2.5 })).toEqual(['count: count must be an integer']);
    expect(errorsOf({ count: 0 })).toEqual(['count: count must be greater than or equal to 1']);
    expect(errorsOf({ count: 11.5 })).toEqual(['count: count must be an integer', 'count: count must be less than or equal to 10']);
    expect(errorsOf({ ratio: 0.1 })).toEqual(['ratio: ratio must be greater than or equal to 0.5']);
    expect(errorsOf({ ratio: 3 })).toEqual(['ratio: ratio must be less than or equal to 2.5']);
  });
  it('booleans: true/false/1/0 cast, others rejected', () => {
    expect(create({ ...valid, flag: 'TRUE' }).flag).toBe(true);
    expect(create({ ...valid, flag: 0 }).flag).toBe(false);
    expect(errorsOf({ flag: 'yes' })).toEqual(['flag: flag must be a `boolean` type, but the final value was: `"yes"`.']);
  });
  it('biginteger keeps digits as a string', () => {
    expect(create({ ...valid, big: '9223372036854775807' }).big).toBe('9223372036854775807');
    expect(create({ ...valid, big: '-0009223372036854775808' }).big).toBe('-0009223372036854775808');
    expect(create({ ...valid, big: 42 }).big).toBe('42');
    // past 64 bits SQLite would keep a rounded float: refused (issue #20)
    expect(errorsOf({ big: '123456789012345678901' })).toEqual(['big: big must be less than or equal to 9223372036854775807']);
    expect(errorsOf({ big: '-9223372036854775809' })).toEqual(['big: big must be greater than or equal to -9223372036854775808']);
    expect(errorsOf({ big: 'abc' })).toEqual(['big: big must be a `biginteger` type, but the final value was: `"abc"`.']);
  });
  it('json accepts any value', () => {
    expect(create({ ...valid, meta: [1, { a: 'b' }] }).meta).toEqual([1, { a: 'b' }]);
  });
  it('numbers no column holds are refused: not finite, or an integer past 64 bits (issue #20)', () => {
    expect(errorsOf({ views: 1e20 })).toEqual(['views: views must be less than or equal to 9223372036854775807']);
    expect(errorsOf({ views: '-99999999999999999999' })).toEqual(['views: views must be greater than or equal to -9223372036854775808']);
    expect(create({ ...valid, views: 2 ** 40 }).views).toBe(2 ** 40); // past 32 bits, as v4 on SQLite stores it
    expect(errorsOf({ price: Infinity })).toEqual(['price: price must be a finite number']);
    expect(errorsOf({ price: '-Infinity' })).toEqual(['price: price must be a finite number']);
    // the attribute's own bound is the one reported
    expect(errorsOf({ count: 1e20 })).toEqual(['count: count must be less than or equal to 10']);
  });
  it('json nests at most maxJsonDepth levels when the caller gives that limit', () => {
    const nested = (n: number): unknown => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`);
    expect(create({ ...valid, meta: nested(3) }, { maxJsonDepth: 3 }).meta).toEqual(nested(3));
    expect(failure(() => create({ ...valid, meta: { a: nested(3) } }, { maxJsonDepth: 3 })).errors).toEqual(['meta: meta must not nest objects and arrays more than 3 levels deep']);
    expect(create({ ...valid, meta: nested(100) }).meta).toEqual(nested(100));
  });
});

describe('dates (v4 database-stage messages)', () => {
  it('normalizes valid values', () => {
    expect(create({ ...valid, day: '2024-02-29', at: '10:20:30.5', when: '2024-01-01T10:00:00+02:00' })).toMatchObject({
      day: '2024-02-29', at: '10:20:30.500', when: '2024-01-01T08:00:00.000Z',
    });
    expect(create({ ...valid, when: 1700000000000 }).when).toBe('2023-11-14T22:13:20.000Z');
  });
  it('rejects invalid ones', () => {
    expect(failure(() => create({ ...valid, day: 'nope' })).message).toBe('Invalid format, expected yyyy-MM-dd');
    expect(failure(() => create({ ...valid, day: '2023-02-29' })).message).toBe('Invalid date');
    expect(failure(() => create({ ...valid, at: '10:20' })).message).toBe('Invalid time format, expected HH:mm:ss.SSS');
    expect(failure(() => create({ ...valid, at: 5 })).message).toBe('Expected a string, got a number');
    // v4 raises these in its database layer: the message only, no details.errors (recorded: test/golden/types.*)
    expect(failure(() => create({ ...valid, when: 'soon' }))).toEqual({ message: 'Invalid format, expected a timestamp or an ISO date', errors: [] });
  });
  it('are only reported when the validation stage passed', () => {
    expect(failure(() => create({ ...valid, day: 'nope', count: 0 })).errors).toEqual(['count: count must be greater than or equal to 1']);
  });
});

describe('components and dynamic zones', () => {
  it('component paths', () => {
    expect(failure(() => create({ ...valid, seo: { metaDescription: 'toolong' } }))).toEqual({
      message: '2 errors occurred',
      errors: ['seo.metaTitle: seo.metaTitle must be defined.', 'seo.metaDescription: seo.metaDescription must be at most 5 characters'],
    });
    expect(errorsOf({ seo: 'x' })).toEqual(['seo: seo must be a `object` type, but the final value was: `"x"`.']);
    expect(create({ ...valid, seo: null }).seo).toBeNull();
  });
  it('repeatable: item paths, min/max, null refused', () => {
    expect(errorsOf({ links: [{ url: 'u' }, { label: 'b' }] })).toEqual(['links.0.label: links[0].label must be defined.']);
    expect(errorsOf({ links: [{ label: 'a' }] })).toEqual(['links: links field must have at least 2 items']);
    expect(errorsOf({ links: [1, 2, 3, 4].map((i) => ({ label: `l${i}` })) })).toEqual(['links: links field must have less than or equal to 3 items']);
    expect(create({ ...valid, links: [] }).links).toEqual([]); // min only counts for required or non-empty lists
    expect(errorsOf({ links: null })).toEqual(['links: links must be a `array` type, but the final value was: `null`.']);
    expect(errorsOf({ links: [null, 'x', { label: 'a' }] })).toEqual([
      'links.0: links[0] must be a `object` type, but the final value was: `null`.',
      'links.1: links[1] must be a `object` type, but the final value was: `null` (cast from the value `"x"`).',
    ]);
  });
  it('dynamic zone: __component required, one of the project components (v4 lists them all)', () => {
    expect(errorsOf({ blocks: [{ title: 'a' }, { __component: 'nope.nope' }, { __component: 'blocks.text', title: 'long' }] })).toEqual([
      'blocks.0.__component: blocks[0].__component is a required field',
      'blocks.1.__component: blocks[1].__component must be one of the following values: shared.seo, shared.link, blocks.text, blocks.quote',
      'blocks.2.title: blocks[2].title must be at most 3 characters',
    ]);
  });
  it('dynamic zone: a component the zone does not list is a 400 naming the zone and the component (v4 stores it)', () => {
    expect(errorsOf({ blocks: [{ __component: 'blocks.quote', by: 'me' }, { __component: 'shared.link', label: 'x' }] })).toEqual([
      'blocks.1.__component: blocks[1].__component shared.link is not a component of the dynamic zone blocks: it must be one of the following values: blocks.text, blocks.quote',
    ]);
  });
  it('keeps item ids and __component, drops unknown item keys', () => {
    const out = create({ ...valid, seo: { id: 4, metaTitle: 'm', x: 1 }, blocks: [{ __component: 'blocks.quote', id: 2, by: 'me', y: 1 }] });
    expect(out.seo).toEqual({ id: 4, metaTitle: 'm' });
    expect(out.blocks).toEqual([{ __component: 'blocks.quote', id: 2, by: 'me' }]);
  });
});

describe('cleaning', () => {
  it('defaults on create only; lists default to []', () => {
    expect(create(valid)).toEqual({ title: 'hello', views: 0, flag: false, meta: { a: 1 }, owner: 1, links: [], blocks: [] });
    expect(update({ title: 'hello' })).toEqual({ title: 'hello' });
  });
  it('drops id, unknown keys and non-writable attributes; keeps relations and media as given', () => {
    const out = update({ id: 3, nope: 1, internal: 'x', createdAt: '2020-01-01T00:00:00.000Z', owner: { connect: [2] }, cover: 7, publishedAt: null });
    expect(out).toEqual({ owner: { connect: [2] }, cover: 7, publishedAt: null });
  });
  it('error paths take the given prefix', () => {
    expect(failure(() => update({ count: 0 }, { path: ['data'] })).errors).toEqual(['data.count: data.count must be greater than or equal to 1']);
  });
  it('refuses a non-object payload', () => {
    expect(failure(() => create([] as unknown as Record<string, unknown>)).message)
      .toBe('Invalid payload submitted for the creation of an entity of type Thing. Expected an object, but got object');
  });
});

describe('uniqueCandidates', () => {
  it('lists unique and uid attributes with a value', () => {
    expect(uniqueCandidates(ct, { name: 'n', slug: 's', title: 't' })).toEqual([['slug', 's'], ['name', 'n']]);
    expect(uniqueCandidates(ct, { name: null })).toEqual([]);
  });
});
