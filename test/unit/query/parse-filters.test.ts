// filters as v4 reads them: values cast as its database fields cast them, relation forms, v4's rule order
// for messages, and the limits.
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors';
import { parseFilters } from '../../../src/query/parse-filters';
import { DEFAULT_QUERY_LIMITS, type QueryContext } from '../../../src/query/query-context';
import { parseRestQuery } from '../../../src/query/parse-query';
import { fixtureModel } from '../../helpers/fixture-model';

const model = fixtureModel();
const ctx: QueryContext = {
  model, visibility: { globalPrivate: new Set() }, canRead: () => true,
  pagination: { defaultLimit: 25, maxLimit: 100, withCount: true }, limits: DEFAULT_QUERY_LIMITS,
};
const article = model.require('api::article.article');
/** through qs as a client sends it */
const wire = (filters: unknown) => (qs.parse(qs.stringify({ filters }, { encodeValuesOnly: true }), { strictNullHandling: true, arrayLimit: 100, depth: 20 }) as { filters: unknown }).filters;
const where = (filters: unknown, c = ctx) => parseFilters(c, article, wire(filters));

describe('values, cast as v4 casts them', () => {
  it('numbers: lodash toNumber ("" is 0, hex, exponents); anything else a 400 (v4: 500)', () => {
    expect(where({ views: { $gt: '' } })).toEqual({ views: { $gt: 0 } });
    expect(where({ views: { $eq: '0x10' } })).toEqual({ views: { $eq: 16 } });
    expect(where({ rating: { $lt: '1e3' } })).toEqual({ rating: { $lt: 1000 } });
    expect(() => where({ views: 'abc' })).toThrow('Invalid value "abc" for views: expected a number');
  });
  it('booleans: the usual spellings, then truthiness (v4 BooleanField)', () => {
    expect(where({ featured: 'f' })).toEqual({ featured: false });
    expect(where({ featured: 'yes' })).toEqual({ featured: true });
    expect(where({ featured: '' })).toEqual({ featured: false });
    expect(where({ featured: { $in: ['1', 'false'] } })).toEqual({ featured: { $in: [true, false] } });
  });
  it('$null/$notNull: booleans the same way; no value means false', () => {
    expect(where({ kind: { $null: 'TRUE' } })).toEqual({ kind: { $null: true } });
    expect(where({ kind: { $notNull: '0' } })).toEqual({ kind: { $notNull: false } });
    expect(parseFilters(ctx, article, { kind: { $null: null } })).toEqual({ kind: { $null: false } });
  });
  it('dates keep the date a longer value starts with; bad ones get v4\'s 400 messages', () => {
    expect(where({ publishDate: '2025-01-01T10:00:00Z' })).toEqual({ publishDate: '2025-01-01' });
    expect(() => where({ publishDate: 'nope' })).toThrow('Invalid format, expected yyyy-MM-dd');
    expect(() => where({ publishDate: '2025-02-30' })).toThrow('Invalid date');
    expect(where({ scheduledAt: { $gt: '1768464000000' } })).toEqual({ scheduledAt: { $gt: '2026-01-15T08:00:00.000Z' } });
    expect(() => where({ scheduledAt: '2026-13-01' })).toThrow('Invalid format, expected a timestamp or an ISO date');
  });
  it('text operators take the text as given, whatever the type; ids are bound as given', () => {
    expect(where({ views: { $contains: '47' }, featured: { $eqi: 'x' } })).toEqual({ views: { $contains: '47' }, featured: { $eqi: 'x' } });
    expect(where({ id: 'abc' })).toEqual({ id: 'abc' });
    expect(where({ big: { $in: ['9007199254740993'] } })).toEqual({ big: { $in: ['9007199254740993'] } });
    expect(() => where({ big: 'abc' })).toThrow(/for big: expected a number/);
  });
  it('no value is NULL; a list is $in; a list given to another operator is kept for "any of"', () => {
    expect(parseFilters(ctx, article, { title: null })).toEqual({ title: null });
    expect(where({ kind: ['news', 'review'] })).toEqual({ kind: { $in: ['news', 'review'] } });
    expect(where({ title: { $contains: ['a', 'b'] } })).toEqual({ title: { $contains: ['a', 'b'] } });
  });
  it('reads qs objects with numeric keys (lists over arrayLimit) as the lists they are', () => {
    const ids = Array.from({ length: 150 }, (_, i) => String(i + 1));
    expect(where({ id: { $in: ids } })).toEqual({ id: { $in: ids } });
  });
});

describe('relations, components and media', () => {
  it('an id, a list of ids or an operator apply to the target\'s id', () => {
    expect(where({ author: '3' })).toEqual({ author: { id: '3' } });
    expect(where({ categories: ['1', '2'] })).toEqual({ categories: { id: { $in: ['1', '2'] } } });
    expect(where({ author: { $null: 'true' } })).toEqual({ author: { id: { $null: true } } });
    expect(where({ cover: { $notIn: ['1'] } })).toEqual({ cover: { id: { $notIn: ['1'] } } });
  });
  it('anything else is a where on the target, to any depth', () => {
    expect(where({ author: { articles: { categories: { slug: { $eq: 'x' } } } } })).toEqual({ author: { articles: { categories: { slug: { $eq: 'x' } } } } });
    expect(where({ seo: { $or: [{ metaTitle: 'a' }, { metaTitle: 'b' }] } })).toEqual({ seo: { $or: [{ metaTitle: 'a' }, { metaTitle: 'b' }] } });
    expect(where({ author: { $not: { name: 'x' } } })).toEqual({ author: { $not: { name: 'x' } } });
  });
  it('dynamic zones and morph relations cannot be filtered on', () => {
    expect(() => where({ blocks: { id: '1' } })).toThrow('Invalid parameter blocks');
    expect(() => where({ cover: { related: { id: '1' } } })).toThrow('Invalid parameter related');
  });
});

describe('mistakes: 400s with v4\'s messages, in v4\'s order', () => {
  it('unknown keys and operators at every level (v4 ignores an operator below an attribute)', () => {
    expect(() => where({ nope: '1' })).toThrow('Invalid parameter nope');
    expect(() => where({ $foo: '1' })).toThrow('Invalid parameter $foo');
    expect(() => where({ title: { $foo: '1' } })).toThrow('Invalid parameter $foo');
    expect(() => where({ author: { name: { $EQ: '1' } } })).toThrow('Invalid parameter $EQ');
    expect(() => where({ $eq: '1' })).toThrow('Invalid parameter $eq');
    expect(() => where({ publish_date: '2025-01-01' })).toThrow('Invalid parameter publish_date');
  });
  it('private attributes, createdBy/updatedBy, passwords and unreadable relations', () => {
    const author = model.require('api::author.author');
    expect(() => parseFilters(ctx, author, wire({ secret: { $startsWith: 's' } }))).toThrow('Invalid parameter secret');
    expect(() => where({ author: { secret: 'x' } })).toThrow('Invalid parameter secret');
    expect(() => where({ createdBy: { id: '1' } })).toThrow('Invalid parameter createdBy');
    expect(() => where({ author: { name: 'x' } }, { ...ctx, canRead: (uid) => uid !== 'api::author.author' })).toThrow('Invalid parameter author');
    // v4 checks the permission on relations only: media and components stay filterable
    expect(where({ cover: { name: 'x' } }, { ...ctx, canRead: () => false })).toEqual({ cover: { name: 'x' } });
  });
  it('the first rule v4 applies decides the message, wherever its mistake is', () => {
    expect(() => where({ author: { secret: 'x' }, nope: '1' })).toThrow('Invalid parameter nope');
    expect(() => where({ author: { secret: 'x' }, blocks: { id: '1' } })).toThrow('Invalid parameter blocks');
    expect(() => where({ views: 'abc', author: { secret: 'x' } })).toThrow('Invalid parameter secret');
  });
  it('a value mistake comes after the other parameters are validated, as in v4', () => {
    const parse = (raw: Record<string, unknown>) => parseRestQuery(ctx, article, raw, 'find');
    expect(() => parse({ filters: { views: 'abc' }, sort: 'nope' })).toThrow('Invalid parameter nope');
    expect(() => parse({ filters: { views: 'abc' }, fields: ['nope'] })).toThrow('Invalid parameter nope');
    expect(() => parse({ filters: { views: 'abc' } })).toThrow('Invalid value "abc" for views: expected a number');
  });
  it('$between needs two values; filters must be an object or a list', () => {
    expect(() => where({ views: { $between: ['1'] } })).toThrow('$between on views expects a list of two values');
    expect(() => parseFilters(ctx, article, 'x')).toThrow('The filters parameter must be an object or an array');
  });
});

describe('limits', () => {
  const small = { ...ctx, limits: { filterDepth: 6, filterConditions: 5, listLength: 3 } };
  it('conditions per tree', () => {
    // five conditions in lists of at most three (the list length is bounded too)
    const five = { $and: [1, 2].map((n) => ({ views: String(n) })), $or: [3, 4, 5].map((n) => ({ views: String(n) })) };
    expect(where(five, small)).toBeDefined();
    expect(() => where({ ...five, title: 'x' }, small)).toThrow('Too many filter conditions (more than 5)');
    // a relation crossed counts as one
    expect(() => where({ author: { name: 'a', email: 'b' }, categories: { name: 'c', slug: 'd' } }, small)).toThrow('Too many filter conditions');
  });
  it('values per list', () => {
    expect(() => where({ id: { $in: ['1', '2', '3', '4'] } }, small)).toThrow('Too many values for $in (more than 3)');
    expect(() => where({ kind: ['a', 'b', 'c', 'd'] }, small)).toThrow('Too many values for kind (more than 3)');
    // $and / $or lists too (checked before their items: empty items are no condition, so the condition count alone
    // would not bound them; test/security/limits.test.ts sends those through GraphQL)
    expect(() => where({ $or: [1, 2, 3, 4].map((n) => ({ views: String(n) })) }, small)).toThrow('Too many values for $or (more than 3)');
    expect(() => where({ title: { $and: [{ $ne: 'a' }, { $ne: 'b' }, { $ne: 'c' }, { $ne: 'd' }] } }, small)).toThrow('Too many values for $and (more than 3)');
  });
  it('nesting depth', () => {
    let deep: Record<string, unknown> = { title: 'x' };
    for (let i = 0; i < 4; i++) deep = { $not: deep };
    expect(where(deep, small)).toBeDefined();
    for (let i = 0; i < 4; i++) deep = { $not: deep };
    expect(() => where(deep, small)).toThrow('Filters are nested too deeply (more than 6 levels)');
  });
  it('project code (no limits) is only bounded in depth', () => {
    const trusted = { ...ctx, limits: undefined };
    const many = { $or: Array.from({ length: 500 }, (_, i) => ({ views: i })) };
    expect(parseFilters(trusted, article, many)).toBeDefined();
    expect(() => parseFilters(ctx, article, many)).toThrow(ValidationError);
  });
});

describe('configured limits (config/api.js rest.maxFilter*)', () => {
  it('read over the defaults; nonsense values keep the default', async () => {
    const { queryLimits } = await import('../../../src/query/query-context');
    const config: Record<string, unknown> = { 'api.rest.maxFilterConditions': 3, 'api.rest.maxFilterListLength': '2', 'api.rest.maxFilterDepth': -1 };
    expect(queryLimits((key) => config[key])).toEqual({ filterDepth: 20, filterConditions: 3, listLength: 2 });
    expect(queryLimits(() => undefined)).toEqual(DEFAULT_QUERY_LIMITS);
  });
});

describe('what reaches the storage layer', () => {
  it('only the parameters v4 reads: unknown top-level keys never do (the CVE-2026-27886 class)', () => {
    const q = parseRestQuery(ctx, article, { where: { id: 1 }, select: ['secret'], populateCreatorFields: 'true', filters: { id: '2' }, x: '1' }, 'find');
    expect(Object.keys(q.params).sort()).toEqual(['limit', 'offset', 'orderBy', 'populate', 'select', 'where']);
    expect(q.params.where).toEqual({ id: '2' });
    expect(q.params.select).not.toContain('secret');
  });
  it('findOne validates filters and sort (as v4) but does not apply them; a single type applies them', () => {
    expect(() => parseRestQuery(ctx, article, { filters: { nope: '1' } }, 'findOne')).toThrow('Invalid parameter nope');
    expect(parseRestQuery(ctx, article, { filters: { title: 'x' } }, 'findOne').params.where).toBeUndefined();
    const homepage = model.require('api::homepage.homepage');
    expect(parseRestQuery(ctx, homepage, { filters: { title: 'x' } }, 'findOne').params.where).toEqual({ title: 'x' });
  });
  it('_q searches the id and the visible text attributes (numbers too when the text is a number)', () => {
    const author = model.require('api::author.author');
    const text = parseRestQuery(ctx, author, { _q: 'x' }, 'find').params.where as { $or: Array<Record<string, unknown>> };
    // no id contains a letter: the id is left out (its term would keep the text index from serving the search)
    expect(text.$or.map((c) => Object.keys(c)[0])).toEqual(['name', 'email', 'bio']); // never `secret`
    const digits = parseRestQuery(ctx, author, { _q: '7' }, 'find').params.where as { $or: Array<Record<string, unknown>> };
    expect(digits.$or.map((c) => Object.keys(c)[0])).toEqual(expect.arrayContaining(['id', 'name', 'email', 'bio']));
    const num = parseRestQuery(ctx, article, { _q: '12' }, 'find').params.where as { $or: Array<Record<string, unknown>> };
    expect(num.$or.map((c) => Object.keys(c)[0])).toEqual(expect.arrayContaining(['views', 'big', 'price', 'rating']));
    expect(() => parseRestQuery(ctx, article, { _q: ['a'] }, 'find')).toThrow('Invalid parameter _q');
  });
  it('time values as v4\'s TimeField reads them', async () => {
    const { castFilterValue } = await import('../../../src/query/cast-filter-value');
    const time = { ...(article.attributes.title as object), name: 'at', type: 'time' } as Parameters<typeof castFilterValue>[0];
    expect(castFilterValue(time, '$eq', '10:15:30')).toBe('10:15:30.000');
    expect(() => castFilterValue(time, '$eq', '25:00:00')).toThrow('Invalid time format, expected HH:mm:ss.SSS');
  });
});
