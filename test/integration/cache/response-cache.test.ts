// The response cache as a client sees it (src/cache/): answers of the core read routes and of GraphQL queries
// carry a strong ETag, a repeated request is answered from the kept bytes without running SQL (on PostgreSQL one
// statement: the change token), a client that has the answer gets 304, and no write, wherever it comes from
// (this server, the other side of a relation, another connection: another process or node), leaves a kept
// answer behind. Runs on both dialects (the postgres vitest project).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { secondConnection, onPostgres, sqlFor } from '../../helpers/test-database';
import type { Database } from '../../../src/storage/dialect';

let app: RunningApp;
let other: Database;

beforeAll(async () => {
  app = await startFixtureApp(true);
  other = secondConnection(app.app.db, path.join(app.dir, '.tmp/data.db'));
});
afterAll(async () => {
  await other?.close();
  await app?.stop();
});

/** statements the server's database runs for a hit: none on SQLite, the change token on PostgreSQL */
const HIT_STATEMENTS = onPostgres ? 1 : 0;
/**
 * tries before a repeated request is a hit: at once on SQLite; on PostgreSQL any commit on the server moves the
 * token, and the test run's other files commit into their own databases on the same server all the time
 */
const HIT_TRIES = onPostgres ? 20 : 1;

/** the request repeated until it is answered from the kept bytes (HIT_TRIES at most); its last answer */
async function kept<T extends { statements: number }>(request: () => Promise<T>): Promise<T> {
  let last = await request();
  for (let i = 1; i < HIT_TRIES && last.statements !== HIT_STATEMENTS; i++) last = await request();
  return last;
}

async function get(url: string, headers: Record<string, string> = {}) {
  const before = app.app.db.statementCount;
  const r = await fetch(app.url + url, { headers });
  const text = await r.text();
  return { status: r.status, etag: r.headers.get('etag'), cacheControl: r.headers.get('cache-control'), vary: r.headers.get('vary'), text, statements: app.app.db.statementCount - before };
}

function send(method: string, url: string, data: unknown) {
  return fetch(app.url + url, { method, headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ data }) });
}

async function gql(query: string, headers: Record<string, string> = {}) {
  const before = app.app.db.statementCount;
  const r = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { status: r.status, etag: r.headers.get('etag'), text: await r.text(), statements: app.app.db.statementCount - before };
}

describe('kept answers', () => {
  it('a repeated list is answered from the kept bytes, with the same ETag, running no SQL', async () => {
    const first = await get('/api/articles?populate=*&sort=id');
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.cacheControl).toBe('no-cache');
    expect(first.vary).toContain('Authorization');
    expect(first.statements).toBeGreaterThan(HIT_STATEMENTS);
    const early = app.app.responseCache!.earlyHits;
    const again = await kept(() => get('/api/articles?populate=*&sort=id'));
    expect(again).toMatchObject({ status: 200, etag: first.etag, text: first.text, statements: HIT_STATEMENTS });
    // SQLite: a Public caller's hit goes out before routing (cache/fast-hits.ts); PostgreSQL's token needs a round trip
    expect(app.app.responseCache!.earlyHits - early).toBe(onPostgres ? 0 : 1);
  });

  it('If-None-Match with the ETag gets 304 and no body; another tag gets the answer', async () => {
    const { etag, text } = await get('/api/articles/2?populate=author');
    for (const header of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await get('/api/articles/2?populate=author', { 'if-none-match': header });
      expect(r).toMatchObject({ status: 304, etag, text: '' });
    }
    expect(await get('/api/articles/2?populate=author', { 'if-none-match': '"other"' })).toMatchObject({ status: 200, text });
  });

  it('a 404 is kept too, in v4\'s envelope, until the entry exists', async () => {
    const miss = await get('/api/authors/900000');
    expect(miss.status).toBe(404);
    expect(JSON.parse(miss.text)).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    expect(await kept(() => get('/api/authors/900000'))).toMatchObject({ status: 404, etag: miss.etag, statements: HIT_STATEMENTS });
    // a precondition applies to 2xx answers only (RFC 9110 13.2.1): the 404 again, not a 304
    expect(await get('/api/authors/900000', { 'if-none-match': miss.etag! })).toMatchObject({ status: 404, text: miss.text });
  });

  it('a kept answer sent before routing has the headers of the routed one (CORS, security, HEAD)', async () => {
    const url = '/api/categories?sort=id';
    const routed = await fetch(app.url + url, { headers: { origin: 'http://example.test' } });
    const early = app.app.responseCache!.earlyHits;
    const kept = await fetch(app.url + url, { headers: { origin: 'http://example.test' } });
    if (!onPostgres) expect(app.app.responseCache!.earlyHits - early).toBe(1);
    const headersOf = (r: Response) => Object.fromEntries([...r.headers].filter(([k]) => k !== 'date'));
    expect(headersOf(kept)).toEqual(headersOf(routed));
    expect(await kept.text()).toBe(await routed.text());
    const head = await fetch(app.url + url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(routed.headers.get('content-length'));
  });

  it('callers with other permissions get their own answers (a token sees what Public sees only where allowed)', async () => {
    const pub = await get('/api/articles?fields[0]=title&pagination[pageSize]=2&sort=id');
    const token = await get('/api/articles?fields[0]=title&pagination[pageSize]=2&sort=id', { authorization: `Bearer ${app.token}` });
    expect(token.status).toBe(200);
    // the full-access token's first request of this URL is built, not Public's kept answer
    expect(token.statements).toBeGreaterThan(HIT_STATEMENTS);
    expect(token.text).toBe(pub.text);
  });
});

describe('never stale', () => {
  it('a write through the API drops the answers that read the written table', async () => {
    const before = JSON.parse((await get('/api/articles/3')).text);
    const res = await send('PUT', '/api/articles/3', { title: 'kept answers retitled' });
    expect(res.status).toBe(200);
    const after = await get('/api/articles/3');
    expect(JSON.parse(after.text).data.attributes.title).toBe('kept answers retitled');
    expect(before.data.attributes.title).not.toBe('kept answers retitled');
  });

  it('changing the author (the other side of the relation) changes the article that populated it', async () => {
    const article = JSON.parse((await get('/api/articles/4?populate=author')).text);
    const authorId = article.data.attributes.author.data.id;
    await get('/api/articles/4?populate=author'); // kept
    expect((await send('PUT', `/api/authors/${authorId}`, { name: 'Renamed through the author' })).status).toBe(200);
    const after = JSON.parse((await get('/api/articles/4?populate=author')).text);
    expect(after.data.attributes.author.data.attributes.name).toBe('Renamed through the author');
  });

  it('a relation changed from the other side (the author loses the article) shows at once', async () => {
    const article = JSON.parse((await get('/api/articles/5?populate=author')).text);
    const authorId = article.data.attributes.author.data.id;
    await get('/api/articles/5?populate=author');
    expect((await send('PUT', `/api/authors/${authorId}`, { articles: { disconnect: [5] } })).status).toBe(200);
    const after = JSON.parse((await get('/api/articles/5?populate=author')).text);
    expect(after.data.attributes.author.data).toBeNull();
  });

  it('a write by another connection (another process, node, or Strapi beside Tessera) shows at once', async () => {
    await get('/api/articles/6');
    const before = await kept(() => get('/api/articles/6'));
    expect(before.statements).toBe(HIT_STATEMENTS);
    await other.transaction((tx) => tx.run(sqlFor(tx, 'UPDATE articles SET title = ? WHERE id = ?'), ['written beside Tessera', 6]));
    const after = await get('/api/articles/6');
    expect(JSON.parse(after.text).data.attributes.title).toBe('written beside Tessera');
    expect(after.etag).not.toBe(before.etag);
  });

  it('a delete makes the kept findOne a 404 and the kept list shorter', async () => {
    const list = JSON.parse((await get('/api/categories?pagination[pageSize]=100')).text);
    await get('/api/categories/1');
    expect((await send('DELETE', '/api/categories/1', undefined)).status).toBe(200);
    expect((await get('/api/categories/1')).status).toBe(404);
    const after = JSON.parse((await get('/api/categories?pagination[pageSize]=100')).text);
    expect(after.meta.pagination.total).toBe(list.meta.pagination.total - 1);
  });

  it('unrelated writes keep the answer (SQLite: per table; PostgreSQL: every commit moves the token)', async () => {
    const first = await get('/api/authors/2');
    expect((await send('PUT', '/api/homepage', { title: 'unrelated write' })).status).toBeLessThan(500);
    const again = await get('/api/authors/2');
    expect(again.text).toBe(first.text);
    // authors can reach every type with media through a file's `related`: only a table no answer reads keeps it
    if (!onPostgres) {
      const store = app.app.db.dialect.quote('strapi_core_store_settings');
      await app.app.db.transaction((tx) => tx.run(sqlFor(tx, `UPDATE ${store} SET value = value WHERE id = ?`), [1]));
      expect((await get('/api/authors/2')).statements).toBe(0);
      // an API token's use is written (last_used_at) on the way in: answers stay kept for token callers too
      await get('/api/authors/2', { authorization: `Bearer ${app.token}` });
      expect((await get('/api/authors/2', { authorization: `Bearer ${app.token}` })).statements).toBe(0);
    }
  });
});

describe('GraphQL', () => {
  const LIST = '{ authors(sort: "id") { data { id attributes { name articles(sort: "id") { data { id attributes { title } } } } } } }';

  it('a query of shadow-CRUD reads is kept, with ETag and 304', async () => {
    const first = await gql(LIST);
    expect(first.status).toBe(200);
    expect(first.etag).toBeTruthy();
    const again = await kept(() => gql(LIST));
    expect(again).toMatchObject({ text: first.text, etag: first.etag, statements: HIT_STATEMENTS });
    // over GET (a query in the URL), the client that has it gets a 304
    const url = `/graphql?query=${encodeURIComponent(LIST)}`;
    const viaGet = await get(url);
    expect(viaGet.etag).toBeTruthy();
    expect((await get(url, { 'if-none-match': viaGet.etag! })).status).toBe(304);
  });

  it('a mutation drops it', async () => {
    const first = await gql(LIST);
    const res = await gql('mutation { updateAuthor(id: 2, data: { name: "Renamed by GraphQL" }) { data { id } } }', { authorization: `Bearer ${app.token}` });
    expect(res.status).toBe(200);
    const after = await gql(LIST);
    expect(after.text).not.toBe(first.text);
    expect(after.text).toContain('Renamed by GraphQL');
  });

  it('a POST with If-None-Match gets the whole answer (304 is for GET and HEAD)', async () => {
    const first = await gql(LIST);
    const again = await gql(LIST, { 'if-none-match': first.etag! });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
  });

  it('answers that depend on who asks, or carry errors, are not kept', async () => {
    expect((await gql('{ me { id } }')).etag).toBeNull();
    expect((await gql('{ authors { data { id } } nope }')).etag).toBeNull();
  });
});

describe('not kept', () => {
  it('with the cache switched off (TESSERA_RESPONSE_CACHE=off), nothing carries an ETag', async () => {
    const off = await startFixtureApp(true, { env: { TESSERA_RESPONSE_CACHE: 'off' } });
    try {
      const r = await fetch(`${off.url}/api/articles`);
      expect(r.status).toBe(200);
      expect(r.headers.get('etag')).toBeNull();
    } finally {
      await off.stop();
    }
  });

  it('a project controller override, a read lifecycle hook or config/api.js responseCache: false: not kept', async () => {
    const projects: Record<string, string>[] = [
      { 'src/api/article/controllers/article.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::article.article', () => ({ async find(ctx) { const r = await super.find(ctx); r.meta.extra = 1; return r; } }));` },
      { 'src/api/author/content-types/author/lifecycles.js': 'module.exports = { afterFindMany() {} };' },
      { 'config/api.js': `module.exports = { rest: { defaultLimit: 25, maxLimit: 100, withCount: true }, responseCache: { enabled: false } };` },
    ];
    for (const edit of projects) {
      const running = await startFixtureApp(true, { edit });
      try {
        const r = await fetch(`${running.url}/api/articles`);
        expect(r.status).toBe(200);
        expect(r.headers.get('etag')).toBeNull();
      } finally {
        await running.stop();
      }
    }
  });

  it('a custom route whose controller sets the query from the request, then calls a core find: not kept', async () => {
    const running = await startFixtureApp(true, { edit: {
      'src/api/pick/routes/pick.js': `module.exports = { routes: [{ method: 'GET', path: '/pick', handler: 'pick.find', config: { auth: false } }] };`,
      'src/api/pick/controllers/pick.js': `module.exports = { async find(ctx) {
        ctx.query = { filters: { id: ctx.request.header['x-pick'] } };
        return strapi.controller('api::article.article').find(ctx);
      } };`,
    } });
    try {
      const pick = async (id: string) => {
        const r = await fetch(`${running.url}/api/pick`, { headers: { 'x-pick': id } });
        expect(r.headers.get('etag')).toBeNull();
        return ((await r.json()) as { data: Array<{ id: number }> }).data.map((e) => e.id);
      };
      expect(await pick('2')).toEqual([2]);
      // what the header chose is in no key: a kept answer would give entry 2 again
      expect(await pick('3')).toEqual([3]);
    } finally {
      await running.stop();
    }
  });
});
