// A list request runs ONE statement for its page and ONE for its count (none with withCount=false),
// whatever its filters and sort: relations in filters are subqueries on their link tables and relation
// sorts are correlated subqueries, so the page is selected on the entry table itself, with no join and no
// DISTINCT.
// Measured through HTTP (fastify inject) on the fixture app as the Public role, with warm caches.
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlValue } from '../../../src/storage/dialect';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';

let running: RunningApp;
let seen: string[] = [];

beforeAll(async () => {
  running = await startFixtureApp(true);
  // observe the SQL text of every read (the real database still answers)
  const db = running.app.db as unknown as { all: (sql: string, p?: readonly SqlValue[]) => Promise<unknown[]>; get: (sql: string, p?: readonly SqlValue[]) => Promise<unknown> };
  const all = db.all.bind(db);
  const get = db.get.bind(db);
  db.all = (sql, p) => (seen.push(sql), all(sql, p));
  db.get = (sql, p) => (seen.push(sql), get(sql, p));
});
afterAll(async () => {
  await running?.stop();
});

async function run(query: Record<string, unknown>): Promise<{ statements: number; sql: string[]; body: { data: unknown[]; meta: { pagination: Record<string, number> } } }> {
  const url = `/api/articles?${qs.stringify(query, { encodeValuesOnly: true })}`;
  // as the Public role (its permissions are cached once read; an API token's lookup is not this test's subject)
  const call = () => running.app.server.inject({ method: 'GET', url });
  expect((await call()).statusCode).toBe(200); // warm: permission cache, prepared statements
  seen = [];
  const before = running.app.db.statementCount;
  const res = await call();
  expect(res.statusCode).toBe(200);
  return { statements: running.app.db.statementCount - before, sql: seen, body: res.json() };
}

const heavy = {
  filters: {
    $or: [
      { categories: { slug: { $in: ['cat-kelp', 'cat-pearl'] } } },
      { author: { articles: { categories: { name: { $containsi: 'moss' } } } } },
      { $not: { seo: { metaTitle: { $null: true } } } },
    ],
    views: { $gt: 100 },
    cover: { $null: false },
  },
  sort: ['author.name:desc', 'categories.name', 'title'],
  fields: ['title'],
};

describe('statements per list request', () => {
  it('page + count: two statements, whatever the filters and sort', async () => {
    for (const query of [{}, { pagination: { page: 2, pageSize: 5 } }, heavy, { ...heavy, pagination: { start: 3, limit: 4 } }, { _q: 'jade', sort: 'seo.metaTitle:desc' }]) {
      const r = await run(query);
      expect(r.statements).toBe(2);
      expect(r.body.meta.pagination.total).toBeTypeOf('number');
    }
  });

  it('withCount=false: the page only', async () => {
    for (const pagination of [{ withCount: 'false' }, { withCount: 'false', page: 2, pageSize: 3 }, { withCount: 'f', start: 5, limit: 5 }]) {
      const r = await run({ ...heavy, pagination });
      expect(r.statements).toBe(1);
      expect(r.body.meta.pagination.total).toBeUndefined();
    }
  });

  it('the page is selected on the entry table: no join, no DISTINCT, LIMIT on the outer query', async () => {
    const r = await run({ ...heavy, pagination: { page: 2, pageSize: 5 } });
    const [page, count] = r.sql;
    expect(page).toMatch(/^SELECT .* FROM `articles` t0 WHERE /);
    // every join sits inside a subquery, never in the outer FROM
    const outerFrom = page.slice(page.indexOf(' FROM '), page.indexOf(' WHERE '));
    expect(outerFrom).toBe(' FROM `articles` t0');
    expect(page).not.toMatch(/DISTINCT/);
    expect(page).toMatch(/ LIMIT \? OFFSET \?$/);
    expect(count).toMatch(/^SELECT COUNT\(\*\) AS n FROM `articles` t0 WHERE /);
  });

  it('population adds one statement per populated attribute, not per entry', async () => {
    const few = await run({ ...heavy, populate: { author: true, categories: true }, pagination: { pageSize: 2 } });
    const many = await run({ ...heavy, populate: { author: true, categories: true }, pagination: { pageSize: 50 } });
    expect(few.statements).toBe(4);
    expect(many.statements).toBe(4);
    expect(many.body.data.length).toBeGreaterThan(few.body.data.length);
  });
});
