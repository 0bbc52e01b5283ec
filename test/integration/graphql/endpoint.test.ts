// The GraphQL endpoint beyond what the goldens show: batched population (statements do not grow with the
// entries), aliases of one relation with other arguments, the limits a document meets (depth, size, nesting,
// aliases, fragment cycles), graphql-jit's guard, amountLimit, production mode, and a relation to a type the
// caller may not read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { gql as gqlAt, type GqlAnswer } from '../../helpers/gql';

type Answer = GqlAnswer;

const gql = (app: RunningApp, query: string, opts: { variables?: unknown; token?: string; headers?: Record<string, string> } = {}): Promise<Answer> => gqlAt(app.url, query, opts);

const PLUGINS = (extra: string) => `module.exports = () => ({ graphql: { config: { endpoint: '/graphql', depthLimit: 7, maxLimit: 100, ${extra} } } });\n`;

describe('reads', () => {
  let app: RunningApp;
  beforeAll(async () => {
    // statements of building answers: the response cache would answer the repeated queries without any
    app = await startFixtureApp(true, { env: { TESSERA_RESPONSE_CACHE: 'off' } });
    // 60 more published articles, each with an author and two categories, so a page can hold 100 entries
    const articles = app.app.query('api::article.article');
    for (let i = 0; i < 60; i++) {
      await articles.create({ data: { title: `bulk ${i}`, author: 1 + (i % 3), categories: [1 + (i % 4), 5], publishedAt: new Date().toISOString(), editorPick: 2, seo: { metaTitle: `m${i}`, shareImage: 1 }, links: [{ label: 'l' }], blocks: [{ __component: 'blocks.text', body: `b${i}` }, { __component: 'blocks.gallery', title: 'g', images: [1, 2] }] } });
    }
  });
  afterAll(async () => {
    await app?.stop();
  });

  /** SQL statements one request runs (after a first request warmed the caches up) */
  async function statements(query: string): Promise<number> {
    await gql(app, query, { token: app.token });
    const before = app.app.db.statementCount;
    const answer = await gql(app, query, { token: app.token });
    expect(answer.body.errors).toBeUndefined();
    return app.app.db.statementCount - before;
  }

  it('runs as many statements for 100 entries as for 1, nested relations, components and zones included', async () => {
    // newest first: every level of the first entry has rows (a level without parents runs no statement)
    const query = (n: number) => `{ articles(pagination: { limit: ${n} }, sort: "id:desc") { data { id attributes { title
      author { data { attributes { name } } } editorPick { data { id } }
      categories(sort: "name:asc") { data { attributes { name } } }
      seo { metaTitle shareImage { data { id } } } links { label }
      blocks { __typename ... on ComponentBlocksText { body } ... on ComponentBlocksGallery { images { data { id } } } } } }
      meta { pagination { total } } } }`;
    const many = await gql(app, query(100), { token: app.token });
    expect((many.body.data!.articles as { data: unknown[] }).data).toHaveLength(100);
    expect(await statements(query(1))).toBe(await statements(query(100)));
  });

  it('loads a relation selected again with other arguments for all parents at once', async () => {
    const query = (n: number) => `{ articles(pagination: { limit: ${n} }, sort: "id:asc") { data { id attributes {
      asc: categories(sort: "id:asc") { data { id } } desc: categories(sort: "id:desc", pagination: { limit: 1 }) { data { id } } } } } }`;
    const answer = await gql(app, query(100), { token: app.token });
    const rows = (answer.body.data!.articles as { data: Array<{ attributes: { asc: { data: Array<{ id: string }> }; desc: { data: Array<{ id: string }> } } }> }).data;
    for (const row of rows) {
      const ids = row.attributes.asc.data.map((c) => Number(c.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(row.attributes.desc.data.map((c) => Number(c.id))).toEqual(ids.length ? [Math.max(...ids)] : []);
    }
    expect(await statements(query(1))).toBe(await statements(query(100)));
  });

  it('answers the depth limit with v4 text, and refuses huge, deeply nested, alias-flooded and cyclic documents with 400', async () => {
    const deep = await gql(app, '{ articles { data { attributes { author { data { attributes { articles { data { attributes { title } } } } } } } } } }');
    expect(deep.status).toBe(400);
    expect(deep.body.errors![0].message).toBe("'' exceeds maximum operation depth of 7");

    const nested = await gql(app, `{ articles ${'{ data '.repeat(3000)} }`);
    expect(nested.status).toBe(400);
    expect(nested.body.errors![0].message).toMatch(/nested deeper than/);

    const aliases = await gql(app, `{ ${Array.from({ length: 3000 }, (_, i) => `a${i}: articles { data { id } }`).join(' ')} }`);
    expect(aliases.status).toBe(400);

    const cycle = await gql(app, '{ articles { data { ...A } } } fragment A on ArticleEntity { attributes { author { data { ...B } } } } fragment B on AuthorEntity { attributes { articles { data { ...A } } } }');
    expect(cycle.status).toBe(400);
    expect(cycle.body.errors!.some((e) => /Cannot spread fragment "A" within itself/.test(e.message))).toBe(true);

    // more than 20,000 tokens within the 32,000 characters a document may have
    const huge = await gql(app, `{ articles(filters: { id: { in: [${'{}'.repeat(11_000)}] } }) { data { id } } }`);
    expect(huge.status).toBe(400);
    expect(huge.body.errors![0].message).toMatch(/tokens/);
  });

  it('answers the same document with recursive filter variables again and again (graphql-jit is kept away from it)', async () => {
    const query = 'query Q($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }';
    const t0 = Date.now();
    for (const f of [{ views: { gt: 1 } }, { views: { eq: 'abc' } }, { or: [{ title: { containsi: 'jade' } }, { not: { id: { lt: 3 } } }] }, { views: { gt: 1 } }]) {
      const answer = await gql(app, query, { variables: { f } });
      expect([200, 400]).toContain(answer.status);
    }
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('answers a bad token with 401 in the REST envelope, and an empty Authorization header as Public', async () => {
    const bad = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer nope' }, body: JSON.stringify({ query: '{ articles { data { id } } }' }) });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
    const empty = await gql(app, '{ articles(pagination: { limit: 1 }) { data { id } } }', { headers: { authorization: '' } });
    expect(empty.status).toBe(200);
    expect(empty.body.errors).toBeUndefined();
  });
});

describe('configuration and access', () => {
  it('caps every list at amountLimit, and refuses introspection in production', async () => {
    const app = await startFixtureApp(true, { edit: { 'config/plugins.js': PLUGINS('amountLimit: 4') }, env: { NODE_ENV: 'production' } });
    try {
      const answer = await gql(app, '{ articles(pagination: { pageSize: 50 }) { data { id attributes { categories(pagination: { limit: 50 }) { data { id } } } } } }', { token: app.token });
      const rows = (answer.body.data!.articles as { data: Array<{ attributes: { categories: { data: unknown[] } } }> }).data;
      expect(rows).toHaveLength(4);
      for (const row of rows) expect(row.attributes.categories.data.length).toBeLessThanOrEqual(4);
      const introspection = await gql(app, '{ __schema { types { name } } }');
      expect(introspection.status).toBe(400);
      expect(introspection.body.errors![0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    } finally {
      await app.stop();
    }
  });

  it('answers a relation to a type the caller may not find with FORBIDDEN at that field, once per parent', async () => {
    const app = await startFixtureApp(true);
    try {
      // Public loses `find` on authors and categories (before its first request: its Ability is then read)
      const lost = "('api::author.author.find', 'api::category.category.find')";
      await app.app.db.run(`DELETE FROM up_permissions_role_links WHERE permission_id IN (SELECT id FROM up_permissions WHERE action IN ${lost})`);
      await app.app.db.run(`DELETE FROM up_permissions WHERE action IN ${lost}`);
      const answer = await gql(app, '{ articles(pagination: { limit: 2 }) { data { id attributes { title author { data { id } } } } } }');
      expect(answer.status).toBe(200);
      const rows = (answer.body.data!.articles as { data: Array<{ attributes: { title: string; author: unknown } }> }).data;
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(row.attributes.author).toBeNull();
      expect(answer.body.errors!.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
      // the same through an alias with other arguments (that variant is loaded after the read)
      const aliased = await gql(app, '{ articles(pagination: { limit: 2 }) { data { id attributes { a: categories(sort: "id:asc") { data { id } } b: categories(sort: "id:desc") { data { id } } } } } }');
      const pairs = (aliased.body.data!.articles as { data: Array<{ attributes: { a: unknown; b: unknown } }> }).data;
      for (const p of pairs) expect([p.attributes.a, p.attributes.b]).toEqual([null, null]);
      expect(aliased.body.errors!.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN']);
    } finally {
      await app.stop();
    }
  });
});
