// A page of one target's entries (issue 22: `filters[categories][name][$eq]=x`, the "category page") walks the
// link table's (target, entry) index in entry-id order and stops at the page's end, where the filter names exactly
// one target; with none or several it reads every match as before (src/storage/page-ids.ts). The two plans sit in
// one statement and the number of targets picks one, so every answer here is checked against a plain SQL reading
// of the same rows: entries spread through the table, clustered at its end (the case a scan in id order would
// pay for), none, two targets of one name (the other plan), drafts, both directions, deep pages, the REST and
// GraphQL front doors, and the index dropped. SQLite's plan must use the index. Runs on both dialects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { onPostgres, sqlFor } from '../../helpers/test-database';
import type { SqlValue } from '../../../src/storage/dialect';
import { tesseraName } from '../../../src/storage/schema/tessera-indexes';

const ENTRIES = 3000;
const BASE = 1_000_000;
const CATEGORY = { spread: 900001, cluster: 900002, empty: 900003, twinA: 900004, twinB: 900005 };
const INDEX = tesseraName('articles_categories_links', 'inv_own');

let running: RunningApp;
let seen: Array<{ sql: string; params: readonly SqlValue[] }> = [];

const numbers = (n: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;

beforeAll(async () => {
  running = await startFixtureApp(true, { env: { TESSERA_RESPONSE_CACHE: 'off' } });
  const db = running.app.db;
  const now = db.dialect.datetimeToDb(new Date('2026-01-01T00:00:00Z')) as SqlValue;
  await db.transaction(async (tx) => {
    // every tenth entry a draft
    await tx.run(sqlFor(tx, `${numbers(ENTRIES)} INSERT INTO articles (id, title, slug, views, created_at, updated_at, published_at)
      SELECT ${BASE} + i, 'walk ' || i, 'walk-' || i, i, ?, ?, ? FROM n`), [now, now, now]);
    await tx.run(`UPDATE articles SET published_at = NULL WHERE id > ${BASE} AND id % 10 = 0`);
    const category = (id: number, name: string) => tx.run(sqlFor(tx, 'INSERT INTO categories (id, name, slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?)'), [id, name, `${name.replace(/ /g, '-')}-${id}`, now, now]);
    await category(CATEGORY.spread, 'walk spread');
    await category(CATEGORY.cluster, 'walk cluster');
    await category(CATEGORY.empty, 'walk empty');
    await category(CATEGORY.twinA, 'walk twin');
    await category(CATEGORY.twinB, 'walk twin');
    const link = (category: number, which: string) => tx.run(`INSERT INTO articles_categories_links (article_id, category_id, category_order, article_order)
      SELECT id, ${category}, 1, id FROM articles WHERE id > ${BASE} AND ${which}`);
    await link(CATEGORY.spread, 'id % 3 = 0');
    await link(CATEGORY.cluster, `id > ${BASE + ENTRIES - 200}`);
    await link(CATEGORY.twinA, 'id % 7 = 0');
    await link(CATEGORY.twinB, 'id % 11 = 0');
  });
  const spy = db as unknown as { all: (sql: string, p?: readonly SqlValue[]) => Promise<unknown[]> };
  const all = spy.all.bind(db);
  spy.all = (sql, p) => (seen.push({ sql, params: p ?? [] }), all(sql, p));
}, 120_000);
afterAll(async () => {
  await running?.stop();
});

interface Case {
  name: string;
  /** the categories' condition, in SQL on `c` */
  categories: string;
  /** REST filters for it */
  filters: string;
  drafts?: boolean;
  desc?: boolean;
  page?: number;
  pageSize?: number;
}

/** the page and total v4 answers, read in plain SQL */
async function reference(c: Case): Promise<{ ids: number[]; total: number }> {
  const db = running.app.db;
  const where = `${c.drafts ? '' : 'a.published_at IS NOT NULL AND '}a.id IN (SELECT l.article_id FROM articles_categories_links l JOIN categories c ON c.id = l.category_id WHERE ${c.categories})`;
  const size = c.pageSize ?? 25;
  const rows = await db.all<{ id: number }>(`SELECT a.id FROM articles a WHERE ${where} ORDER BY a.id ${c.desc ? 'DESC' : 'ASC'} LIMIT ${size} OFFSET ${((c.page ?? 1) - 1) * size}`);
  const total = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM articles a WHERE ${where}`);
  return { ids: rows.map((r) => Number(r.id)), total: Number(total?.n) };
}

async function rest(c: Case): Promise<{ ids: number[]; total: number }> {
  const query = [c.filters, c.drafts ? 'publicationState=preview' : '', c.desc ? 'sort=id:desc' : '',
    c.page ? `pagination[page]=${c.page}` : '', c.pageSize ? `pagination[pageSize]=${c.pageSize}` : '', 'fields[0]=title'].filter(Boolean).join('&');
  const r = await fetch(`${running.url}/api/articles?${query}`, { headers: { authorization: `Bearer ${running.token}` } });
  const body = await r.json() as { data: Array<{ id: number }>; meta: { pagination: { total: number } } };
  expect(r.status, query).toBe(200);
  return { ids: body.data.map((e) => e.id), total: body.meta.pagination.total };
}

async function graphql(c: Case): Promise<number[]> {
  const filter = c.categories.includes('c.id =') ? `{ id: { eq: ${/\d+/.exec(c.categories)![0]} } }` : `{ name: { eq: ${JSON.stringify(/'([^']+)'/.exec(c.categories)![1])} } }`;
  const args = [`filters: { categories: ${filter} }`, c.drafts ? 'publicationState: PREVIEW' : '', c.desc ? 'sort: "id:desc"' : '',
    `pagination: { page: ${c.page ?? 1}, pageSize: ${c.pageSize ?? 25} }`].filter(Boolean).join(', ');
  const r = await fetch(`${running.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ articles(${args}) { data { id } } }` }),
  });
  const body = await r.json() as { data?: { articles: { data: Array<{ id: string }> } }; errors?: unknown };
  expect(body.errors, args).toBeUndefined();
  return body.data!.articles.data.map((e) => Number(e.id));
}

const byName = (name: string) => `c.name = '${name}'`;
const CASES: Case[] = [
  { name: 'spread, first page', categories: byName('walk spread'), filters: 'filters[categories][name][$eq]=walk spread' },
  { name: 'spread, page 7 of 10', categories: byName('walk spread'), filters: 'filters[categories][name][$eq]=walk spread', page: 7, pageSize: 10 },
  { name: 'spread, one per page, deep', categories: byName('walk spread'), filters: 'filters[categories][name][$eq]=walk spread', page: 500, pageSize: 1 },
  { name: 'spread, descending, page 3', categories: byName('walk spread'), filters: 'filters[categories][name][$eq]=walk spread', desc: true, page: 3 },
  { name: 'spread, drafts too', categories: byName('walk spread'), filters: 'filters[categories][name][$eq]=walk spread', drafts: true, pageSize: 100, page: 2 },
  { name: 'spread, by id', categories: `c.id = ${CATEGORY.spread}`, filters: `filters[categories][id][$eq]=${CATEGORY.spread}`, page: 2 },
  { name: 'clustered at the end', categories: byName('walk cluster'), filters: 'filters[categories][name][$eq]=walk cluster' },
  { name: 'clustered, its last page', categories: byName('walk cluster'), filters: 'filters[categories][name][$eq]=walk cluster', page: 8 },
  { name: 'clustered, past its end', categories: byName('walk cluster'), filters: 'filters[categories][name][$eq]=walk cluster', page: 9 },
  { name: 'a target without entries', categories: byName('walk empty'), filters: 'filters[categories][name][$eq]=walk empty' },
  { name: 'no target', categories: byName('walk nowhere'), filters: 'filters[categories][name][$eq]=walk nowhere' },
  { name: 'two targets of one name (the other plan)', categories: byName('walk twin'), filters: 'filters[categories][name][$eq]=walk twin', page: 2 },
  { name: 'two targets, descending', categories: byName('walk twin'), filters: 'filters[categories][name][$eq]=walk twin', desc: true },
];

describe('a page of one target\'s entries', () => {
  it.each(CASES)('$name: REST answers the entries and total of a plain reading', async (c) => {
    expect(await rest(c)).toEqual(await reference(c));
  });

  it.each(CASES)('$name: GraphQL answers the same entries', async (c) => {
    expect(await graphql(c)).toEqual((await reference(c)).ids);
  });

  it.skipIf(onPostgres)('SQLite walks the (target, entry) index for one target, for REST and GraphQL', async () => {
    seen = [];
    await graphql(CASES[0]);
    expect(seen.some((s) => / LIMIT CASE WHEN /.test(s.sql)), 'GraphQL\'s page statement').toBe(true);
    seen = [];
    await rest(CASES[0]);
    const page = seen.find((s) => /articles_categories_links/.test(s.sql) && / LIMIT CASE WHEN /.test(s.sql));
    expect(page, 'the walked page statement').toBeDefined();
    const BetterSqlite3 = (await import('better-sqlite3')).default;
    const file = (running.app.db as unknown as { file?: string }).file ?? `${running.dir}/.tmp/data.db`;
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${page!.sql.replace(/tessera_json_value\(/g, 'coalesce(')}`).all(...(page!.params as unknown[])) as Array<{ detail: string }>).map((r) => r.detail);
      expect(plan.join('\n')).toContain(`USING COVERING INDEX ${INDEX} (category_id=?)`);
    } finally {
      db.close();
    }
  });

  it('answers the same without the index (until the next start puts it back)', async () => {
    await running.app.db.exec(`DROP INDEX ${running.app.db.dialect.quote(INDEX)}`);
    for (const c of [CASES[1], CASES[3], CASES[7]]) expect(await rest(c)).toEqual(await reference(c));
  });
});
