// Fuzz: random and malformed query strings through the real HTTP server (the fixture app on a loopback
// served.port): no 500, no hang, no crash, and every rejection in v4's error envelope. Seeded and reproducible
// (FUZZ_SEED, FUZZ_RUNS: fuzz-kit.ts).
import fc from 'fast-check';
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { checkRestAnswer, expectHealthy, fuzz, runsOf, send, serveFixtureApp, timeoutOf, title, type Answer } from './fuzz-kit';

const served = serveFixtureApp();

/** one GET with the path sent byte for byte (fuzz-kit's send), with the full-access token or as the Public role */
function get(path: string, auth: boolean): Promise<Answer> {
  return send(served.port, { path, headers: auth ? { authorization: `Bearer ${served.running.token}` } : {} });
}

const PATHS = ['/api/articles', '/api/articles/3', '/api/authors', '/api/categories', '/api/homepage', '/api/pages'];
const KEYS = ['filters', 'sort', 'fields', 'populate', 'pagination', 'publicationState', 'locale', '_q', 'page', 'x', '__proto__', 'constructor'];
const NAMES = [
  'title', 'slug', 'body', 'views', 'rating', 'price', 'featured', 'kind', 'publishDate', 'scheduledAt', 'meta', 'big', 'id', 'author', 'categories',
  'related', 'editorPick', 'seo', 'links', 'blocks', 'cover', 'gallery', 'name', 'secret', 'articles', 'metaTitle', 'createdBy', 'publishedAt',
  'nope', 'start', 'limit', 'pageSize', 'withCount', 'on', 'count', 'blocks.text', '0', '101', '__proto__', 'prototype', 'toString',
];
const OPS = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains', '$containsi',
  '$notContainsi', '$null', '$notNull', '$between', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$and', '$or', '$not', '$foo', '$', '$$eq'];
const TEXT = fc.oneof(
  fc.constantFrom('', 'x', 'true', 'false', '1', '0', '-1', '1e309', 'NaN', 'Infinity', '2025-01-01', '2025-02-30', 'asc', 'desc', 'ASC', '*', 'null',
    'title:desc', 'author.name:asc', 'a,b', '%', '_', '\\', "'; DROP TABLE articles; --", '\u0000', 'é', '😀', '9007199254740993', '0x10', ' '),
  fc.string({ maxLength: 12 }),
  fc.integer().map(String),
  fc.double().map(String),
);

type Tree = string | Tree[] | { [k: string]: Tree };
const tree: fc.Arbitrary<Tree> = fc.letrec<{ t: Tree }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    TEXT,
    fc.array(tie('t'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...NAMES), fc.constantFrom(...OPS), fc.string({ maxLength: 6 })), tie('t'), { maxKeys: 4 }),
  ),
})).t;

const structured = fc.tuple(
  fc.dictionary(fc.constantFrom(...KEYS), tree, { maxKeys: 4 }),
  fc.constantFrom(...PATHS),
  fc.boolean(),
  fc.boolean(),
).map(([query, path, encodeValuesOnly, auth]) => ({ path: `${path}?${qs.stringify(query, { encodeValuesOnly, allowDots: false })}`, auth }));

const PIECES = ['filters', 'sort', 'fields', 'populate', 'pagination', '[', ']', '[]', '[0]', '[101]', '[$eq]', '[$in]', '[title]', '[author]', '=', '&', '&&',
  '%', '%2', '%zz', '%25', '%5B', '%5D', '%00', '%E0%A4%A', '%C3%28', '+', '.', ',', ':', '*', '$', '__proto__', '[__proto__]', '[constructor][prototype]',
  'a', '1', '-', '#', '?', ';', '\'', '"', '<', '>', 'é', '%F0%9F%98%80'];
const malformed = fc.tuple(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), fc.constantFrom(...PATHS), fc.boolean())
  .map(([parts, path, auth]) => ({ path: `${path}?${parts.join('').replace(/#/g, '%23')}`, auth }));

// Near-valid queries: real attribute paths of the article and their relations, real operators, odd values,
// so most requests get past validation and reach the SQL compiler and SQLite.
const ARTICLE_SCALARS = ['title', 'slug', 'body', 'views', 'rating', 'price', 'featured', 'kind', 'publishDate', 'scheduledAt', 'meta', 'big', 'id', 'createdAt', 'publishedAt'];
const ARTICLE_RELATIONS: Record<string, string[]> = {
  author: ['name', 'email', 'id'], categories: ['name', 'slug', 'priority', 'id'], related: ['title', 'views'], editorPick: ['title', 'kind'],
  seo: ['metaTitle', 'metaDescription'], links: ['label', 'url'], cover: ['name', 'width', 'mime'], gallery: ['name', 'size'],
};
/** mostly a value that fits, sometimes anything */
const VALUE = fc.oneof(
  { arbitrary: fc.constantFrom('1', '0', '100', '2500', '-3', '4.5', 'true', 'false', 'news', 'jade', 'Author amber', 'cat-kelp', '2025-01-01', '2026-01-15T08:00:00.000Z', 'L1', 'png', ''), weight: 4 },
  { arbitrary: TEXT, weight: 1 },
);
const OP = fc.oneof({ arbitrary: fc.constantFrom(...OPS.slice(0, 21)), weight: 9 }, { arbitrary: fc.constantFrom('$foo', '$and', '$not'), weight: 1 });
const condition: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.tuple(fc.constantFrom(...ARTICLE_SCALARS), OP, fc.oneof(VALUE, fc.array(VALUE, { minLength: 1, maxLength: 3 })))
    .map(([f, op, v]) => ({ [f]: { [op]: op === '$between' && !Array.isArray(v) ? [v, v] : v } })),
  fc.tuple(fc.constantFrom(...Object.keys(ARTICLE_RELATIONS)), OP, VALUE)
    .chain(([rel, op, v]) => fc.constantFrom(...ARTICLE_RELATIONS[rel]).map((f) => ({ [rel]: { [f]: { [op]: v } } }))),
  fc.tuple(fc.constantFrom(...Object.keys(ARTICLE_RELATIONS)), fc.constantFrom('$null', '$notNull', '$eq', '$in', '$ne'), VALUE).map(([rel, op, v]) => ({ [rel]: { [op]: v } })),
  fc.constantFrom(...ARTICLE_SCALARS).chain((f) => VALUE.map((v) => ({ [f]: v }))),
);
const filterTree: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ f: Record<string, unknown> }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small' },
    condition,
    fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((items) => ({ $and: items })),
    fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((items) => ({ $or: items })),
    tie('f').map((item) => ({ $not: item })),
  ),
})).f;
const sometimes = <V, W>(good: fc.Arbitrary<V>, bad: fc.Arbitrary<W>): fc.Arbitrary<V | W> => fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: bad, weight: 1 });
const nearValid = fc.record({
  filters: filterTree,
  sort: sometimes(
    fc.tuple(fc.constantFrom(...ARTICLE_SCALARS, 'author.name', 'categories.name', 'seo.metaTitle', 'cover.name'), fc.constantFrom('', ':asc', ':desc', ':DESC')).map(([f, d]) => `${f}${d}`),
    TEXT,
  ),
  fields: sometimes(fc.array(fc.constantFrom(...ARTICLE_SCALARS, '*'), { maxLength: 3 }), fc.array(fc.constantFrom('author', 'nope', 'secret'), { minLength: 1, maxLength: 2 })),
  pagination: sometimes(
    fc.oneof(fc.record({ page: fc.nat(5), pageSize: fc.integer({ min: -1, max: 200 }) }, { requiredKeys: [] }), fc.record({ start: fc.nat(70), limit: fc.integer({ min: -1, max: 200 }), withCount: fc.constantFrom('true', 'false') }, { requiredKeys: [] })),
    fc.record({ page: TEXT, limit: TEXT, withCount: TEXT }, { requiredKeys: [] }),
  ),
  publicationState: sometimes(fc.constantFrom('live', 'preview'), fc.constantFrom('draft', '')),
  _q: sometimes(fc.constantFrom('jade', 'a', '5'), TEXT),
}, { requiredKeys: ['filters'] }).map((query) => `/api/articles?${qs.stringify(query, { encodeValuesOnly: true })}`);

describe('random and malformed query strings', () => {
  it(title('query-string near-valid', 'queries that mostly reach the database'), async () => {
    const statuses = new Map<number, number>();
    await fuzz('query-string near-valid', 2, served.port, nearValid, async (path) => {
      const r = await get(path, true);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      checkRestAnswer(path, r);
    });
    // a good share of them is answered with data, so the compiler and SQLite were really exercised
    expect(statuses.get(200) ?? 0).toBeGreaterThan(runsOf('query-string near-valid') / 10);
  }, timeoutOf('query-string near-valid'));

  it(title('query-string structured', 'random queries of every parameter'), async () => {
    await fuzz('query-string structured', 0, served.port, structured, async ({ path, auth }) => {
      if (path.length > 7000) return;
      checkRestAnswer(path, await get(path, auth));
    });
  }, timeoutOf('query-string structured'));

  it(title('query-string malformed', 'byte-level query strings'), async () => {
    await fuzz('query-string malformed', 1, served.port, malformed, async ({ path, auth }) => {
      checkRestAnswer(path, await get(path, auth));
    });
  }, timeoutOf('query-string malformed'));

  it('limits: each one is a clear 400 in the envelope', async () => {
    const cases: Array<[string, RegExp]> = [
      [`/api/articles?filters[title][$eq]=${'x'.repeat(9000)}`, /^Query string too long \(more than 8192 characters\)$/],
      [`/api/articles?${Array.from({ length: 1001 }, (_, i) => `x${i}=1`).join('&')}`, /^Too many query parameters \(more than 1000\)$/],
      [`/api/articles?${qs.stringify({ filters: { $or: Array.from({ length: 201 }, (_, i) => ({ views: i })) } }, { encodeValuesOnly: true })}`, /^Too many filter conditions \(more than 200\)$/],
      [`/api/articles?${qs.stringify({ filters: { $and: [{ $and: [{ $and: [{ $and: [{ $and: [{ $and: [{ $and: [{ $and: [{ $and: [{ $and: [{ $and: [{ title: 'x' }] }] }] }] }] }] }] }] }] }] }] } }, { encodeValuesOnly: true })}`, /nested too deeply|^Invalid parameter/],
    ];
    for (const [path, message] of cases) {
      const r = await get(path, true);
      checkRestAnswer(path.slice(0, 100), r);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).error.message).toMatch(message);
    }
  });

  it('the server is still healthy', async () => {
    await expectHealthy(served.port);
    checkRestAnswer('/api/articles?pagination[pageSize]=1', await get('/api/articles?pagination[pageSize]=1', true));
  });
});
