// A list request runs ONE statement for its page, whatever its filters, sort and populate tree (the database
// writes each entry's JSON, storage/read-json.ts), with the total as a column of it, or, once counted, ONE
// trivial check that the kept total is still valid (storage/count-cache.ts; SQLite only: PostgreSQL has no
// data version, so there the total is a column of the page's statement every time); none with withCount=false.
// Relations in filters are subqueries on their link tables and relation sorts are correlated subqueries,
// so the page is selected on the entry table itself, with no join and no DISTINCT.
// Measured through HTTP (fastify inject) on the fixture app as the Public role, with warm caches.
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlValue } from '../../../src/storage/dialect';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { onPostgres } from '../../helpers/test-database';

/** statements of a counted list: the page, and on SQLite the check of the kept total */
const COUNTED = onPostgres ? 1 : 2;
const articles = onPostgres ? '"articles"' : '`articles`';
const pageJoin = onPostgres ? 'JOIN' : 'CROSS JOIN';

let running: RunningApp;
let seen: string[] = [];

beforeAll(async () => {
  // the statements of building an answer: the response cache would answer a repeated request without any
  running = await startFixtureApp(true, { env: { TESSERA_RESPONSE_CACHE: 'off' } });
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
  it('page + total check (SQLite) or page with its total (PostgreSQL), whatever the filters and sort', async () => {
    for (const query of [{}, { pagination: { page: 2, pageSize: 5 } }, heavy, { ...heavy, pagination: { start: 3, limit: 4 } }, { _q: 'jade', sort: 'seo.metaTitle:desc' }]) {
      const r = await run(query);
      expect(r.statements).toBe(COUNTED);
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

  it('the page is selected on the entry table: no join, no DISTINCT, LIMIT on the page query; the total in the same statement', async () => {
    // a condition no earlier request counted
    const filters = { $and: [heavy.filters, { title: { $ne: 'not counted before' } }] };
    const url = `/api/articles?${qs.stringify({ ...heavy, filters, pagination: { page: 3, pageSize: 4 } }, { encodeValuesOnly: true })}`;
    seen = [];
    expect((await running.app.server.inject({ method: 'GET', url })).statusCode).toBe(200); // first time: the total is counted
    expect(seen).toHaveLength(1);
    const [statement] = seen;
    // SELECT <entry JSON> AS j, (SELECT COUNT(*) ...) AS n FROM (<page of ids>) p CROSS JOIN `articles` t0 ON t0.id = p.id ORDER BY ...
    // PostgreSQL, a text-matching filter: its matches found once, counted and paged (read-json.ts countedOnce)
    if (onPostgres) {
      expect(statement).toMatch(new RegExp(`^WITH m AS MATERIALIZED \\(SELECT t0.id FROM ${articles} t0 WHERE .* LIKE `));
      expect(statement).toContain(' AS j, (SELECT COUNT(*) FROM m) AS n FROM (SELECT t0.id AS id FROM "articles" t0 WHERE t0.id IN (SELECT id FROM m) ORDER BY ');
    } else {
      expect(statement).toContain(` AS j, (SELECT COUNT(*) AS n FROM ${articles} c0 WHERE `);
      expect(statement).toContain(` AS n FROM (SELECT t0.id AS id FROM ${articles} t0 WHERE `);
    }
    const page = statement.slice(statement.lastIndexOf(' FROM (SELECT t0.id AS id') + 7, statement.lastIndexOf(`) p ${pageJoin} ${articles} t0 ON t0.id = p.id`));
    // every join sits inside a subquery, never in the page's FROM
    expect(page.slice(page.indexOf(' FROM '), page.indexOf(' WHERE '))).toBe(` FROM ${articles} t0`);
    expect(page).not.toMatch(/DISTINCT/);
    // `+?`: a bare LIMIT parameter makes SQLite prepare the statement again on every run
    // PostgreSQL: the page size a literal (its generic plan prices a LIMIT parameter at 10 % of the rows)
    expect(page).toMatch(onPostgres ? / LIMIT 4 OFFSET \$\d+$/ : / LIMIT \+\? OFFSET \+\?$/);
  });

  it('population adds no statement: the database writes the populated relations into each entry', async () => {
    const few = await run({ ...heavy, populate: { author: true, categories: true }, pagination: { pageSize: 2 } });
    const many = await run({ ...heavy, populate: { author: true, categories: true }, pagination: { pageSize: 50 } });
    expect(few.statements).toBe(COUNTED);
    expect(many.statements).toBe(COUNTED);
    expect(many.body.data.length).toBeGreaterThan(few.body.data.length);
  });
});
