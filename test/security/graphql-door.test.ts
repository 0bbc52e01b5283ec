// Attacks on the GraphQL door found by review (each failed before its fix): a write whose failure nobody awaits
// (the process died), a fragment bomb (exponential validation), huge documents held in the document cache, a
// multipart `map` index making a huge sparse list, thousands of sort items, unbounded batches, variables nested
// beyond the JSON limit, an upload's temporary path in a message, and graphql-jit running another operation of a
// multi-operation document than the one asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../helpers/fixture-app';
import { gql } from '../helpers/gql';

let app: RunningApp;
beforeAll(async () => {
  app = await startFixtureApp(true);
});
afterAll(async () => {
  await app?.stop();
});

async function post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
  return { status: res.status, text: await res.text() };
}

describe('the GraphQL door under attack', () => {
  it('survives a failing single-type write whose `data` is not selected', async () => {
    const answer = await gql(app.url, 'mutation { updateHomepage(data: { hero: { metaTitle: null } }) { __typename } }');
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await gql(app.url, '{ articles(pagination: { limit: 1 }) { data { id } } }')).status).toBe(200);
  });

  it('measures a fragment bomb in linear time', async () => {
    const levels = 40;
    const fragments = ['fragment F0 on Query { __typename }'];
    for (let i = 1; i <= levels; i++) fragments.push(`fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }`);
    const t0 = Date.now();
    const answer = await gql(app.url, `{ ...F${levels} } ${fragments.join(' ')}`);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0].message).toMatch(/selects more than 5000 fields/);
  });

  it('refuses documents longer than 32,000 characters (comments included)', async () => {
    const answer = await gql(app.url, `# ${'x'.repeat(40_000)}\n{ articles { data { id } } }`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0].message).toMatch(/longer than 32000 characters/);
  });

  it('refuses a multipart map index far beyond the end of a list, quickly', async () => {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: 'query($ids: [ID]) { authors(filters: { id: { in: $ids } }) { data { id } } }', variables: {} }));
    form.append('map', JSON.stringify({ 0: ['variables.ids.5000000'] }));
    form.append('0', new Blob(['x'], { type: 'text/plain' }), 'a.txt');
    const t0 = Date.now();
    const res = await fetch(`${app.url}/graphql`, { method: 'POST', body: form, signal: AbortSignal.timeout(20_000) });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(res.status).toBe(400);
  });

  it('refuses more than 32 sort items, in GraphQL and in REST', async () => {
    const sort = Array.from({ length: 33 }, () => 'author.name');
    const answer = await gql(app.url, 'query($s: [String]) { articles(sort: $s) { data { id } } }', { variables: { s: sort } });
    expect(answer.body.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.body.errors![0].message).toMatch(/more than 32 sort fields/);
    const rest = await fetch(`${app.url}/api/articles?${sort.map((s, i) => `sort[${i}]=${s}`).join('&')}`);
    expect(rest.status).toBe(400);
  });

  it('refuses batches of more than 10 operations', async () => {
    const batch = Array.from({ length: 11 }, () => ({ query: '{ articles(pagination: { limit: 1 }) { data { id } } }' }));
    const answer = await post(batch);
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/at most 10 operations/);
    expect((await post(batch.slice(0, 10))).status).toBe(200);
  });

  it('refuses variables sent as JSON text nested beyond the JSON body limit, without an internal message', async () => {
    const deep = `${'{"not":'.repeat(20_000)}{}${'}'.repeat(20_000)}`;
    const answer = await post({ query: 'query($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }', variables: `{"f":${deep}}` });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toMatch(/call stack/i);
  });

  it('names an upload placed where another type is expected without its temporary path', async () => {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: 'query($id: ID) { article(id: $id) { data { id } } }', variables: { id: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.id'] }));
    form.append('0', new Blob(['x'], { type: 'text/plain' }), 'a.txt');
    const res = await fetch(`${app.url}/graphql`, { method: 'POST', body: form });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).not.toMatch(/tessera-upload|\/tmp\//);
  });

  it('runs the operation a request names, however often the document was compiled', async () => {
    const document = 'query A { categories(pagination: { limit: -1 }) { data { id } } } mutation B { createCategory(data: { name: "jit-b" }) { data { id } } }';
    const count = async () => ((await gql(app.url, '{ categories(pagination: { limit: -1 }) { meta { pagination { total } } } }', { token: app.token })).body.data!.categories as { meta: { pagination: { total: number } } }).meta.pagination.total;
    const before = await count();
    for (let i = 0; i < 4; i++) {
      const answer = await post({ query: document, operationName: 'A' }, { authorization: `Bearer ${app.token}` });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text).data.categories).toBeDefined();
    }
    expect(await count()).toBe(before);
  });
});
