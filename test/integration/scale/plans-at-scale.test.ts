// SQLite's plans at scale (issue 22, parts 2, 4 and 6). Filters through relations and components use an index: on 100k articles, each with
// an author, two categories and an seo component, every filter shape (to-one, to-many, a component, nested
// relations, $not, $or, $null on a relation) is compiled by Tessera, and SQLite's plan for the statements it
// runs must search the big tables (articles, their link tables, the components) through an index, never scan
// them; and a new link's position at the end of its target's list (MAX of the order column) is a seek on
// Tessera's (target, order) index, not a read of every link of the target; and a deep page skips its entries on
// Tessera's narrow (id, published_at) index, not on the rows. SQLite's plans: EXPLAIN QUERY PLAN on the app's own file (PostgreSQL chooses plans from statistics, which
// a plan test cannot pin down; the benchmark at scale measures it there).
import BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { onPostgres } from '../../helpers/test-database';
import type { Executor, SqlValue } from '../../../src/storage/dialect';
import { createRelationLinks } from '../../../src/storage/write-relations';
import type { RelationAttribute } from '../../../src/model/types';

const ARTICLES = 100_000;
/** the tables that grow with the articles: a plan must never read them whole */
const BIG = new Set(['articles', 'articles_author_links', 'articles_categories_links', 'articles_components', 'components_shared_seos']);

let running: RunningApp;
let seen: Array<{ sql: string; params: readonly SqlValue[] }> = [];

/** n rows, one per i in 1..n (a recursive CTE: 100k rows in well under a second) */
const numbers = (n: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;

beforeAll(async () => {
  // the statements of building an answer: the response cache would answer a repeated request without any
  running = await startFixtureApp(true, { env: { TESSERA_RESPONSE_CACHE: 'off' } });
  if (onPostgres) return;
  const base = 1_000_000;
  await running.app.db.transaction(async (tx) => {
    await tx.run(`${numbers(ARTICLES)} INSERT INTO articles (id, title, slug, views, created_at, updated_at, published_at)
      SELECT ${base} + i, 'bulk ' || i, 'bulk-' || i, i % 1000, 1700000000000, 1700000000000, 1700000000000 FROM n`);
    await tx.run(`INSERT INTO articles_author_links (article_id, author_id, article_order) SELECT id, 1 + id % 8, id FROM articles WHERE id > ${base}`);
    await tx.run(`INSERT INTO articles_categories_links (article_id, category_id, category_order, article_order)
      SELECT id, 1 + id % 6, 1, id FROM articles WHERE id > ${base} UNION ALL SELECT id, 1 + (id + 1) % 6, 2, id FROM articles WHERE id > ${base}`);
    await tx.run(`${numbers(ARTICLES)} INSERT INTO components_shared_seos (id, meta_title) SELECT ${base} + i, 'seo ' || i FROM n`);
    await tx.run(`INSERT INTO articles_components (entity_id, component_id, component_type, field, "order") SELECT id, id, 'shared.seo', 'seo', NULL FROM articles WHERE id > ${base}`);
  });
  // observe the statements of each request (the real database still answers)
  const db = running.app.db as unknown as { all: (sql: string, p?: readonly SqlValue[]) => Promise<unknown[]>; get: (sql: string, p?: readonly SqlValue[]) => Promise<unknown> };
  const all = db.all.bind(db);
  const get = db.get.bind(db);
  db.all = (sql, p) => (seen.push({ sql, params: p ?? [] }), all(sql, p));
  db.get = (sql, p) => (seen.push({ sql, params: p ?? [] }), get(sql, p));
}, 120_000);
afterAll(async () => {
  await running?.stop();
});

/** the table behind each alias of a statement (`FROM \`articles\` t0`, `JOIN \`categories\` t2`) */
function aliases(sql: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of sql.matchAll(/`([\w]+)` (t\d+)\b/g)) out.set(m[2], m[1]);
  return out;
}

/**
 * plan lines that read a big table whole: `SCAN t3` (a covering-index scan too: every row), and a "search" whose
 * only constraint is an open range (`(article_id>?)`: what `article_id IS NOT NULL` made of it, the whole index)
 */
function bigScans(file: string, statements: typeof seen): string[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const found: string[] = [];
    for (const { sql, params } of statements) {
      if (!/^\s*(SELECT|WITH)\b/i.test(sql)) continue;
      const tables = aliases(sql);
      // the app's own JSON function is not needed to plan
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql.replace(/tessera_json_value\(/g, 'coalesce(')}`).all(...(params as unknown[])) as Array<{ detail: string }>;
      for (const { detail } of plan) {
        const m = /^SCAN (t\d+)\b/.exec(detail) ?? /^SEARCH (t\d+) USING .*\(\w+[<>]\?\)$/.exec(detail);
        if (m && BIG.has(tables.get(m[1]) ?? '')) found.push(`${detail} (${tables.get(m[1])})`);
      }
    }
    return found;
  } finally {
    db.close();
  }
}

const SHAPES: Array<[string, Record<string, unknown>]> = [
  ['to-one', { author: { name: { $eq: 'Author amber' } } }],
  ['to-many', { categories: { name: { $eq: 'Cat moss' } } }],
  ['to-many by id', { categories: { id: { $in: [2, 3] } } }],
  ['a component', { seo: { metaTitle: { $eq: 'seo 77' } } }],
  ['nested relations', { author: { articles: { categories: { slug: { $eq: 'cat-moss' } } } } }],
  ['$or of relations', { $or: [{ author: { name: { $eq: 'Author amber' } } }, { categories: { name: { $eq: 'Cat kelp' } } }] }],
];
// Not here: negations (`$not`, `$ne` inside a relation: articles with SOME category not named X) and `$null` /
// `$notNull` on a relation (articles without, or with, any author) match most entries or need every entry
// checked: no index spares reading the link table for them.

describe.skipIf(onPostgres)(`relation filters on ${ARTICLES.toLocaleString('en-US')} articles`, () => {
  it.each(SHAPES)('%s: no statement scans a big table', async (_name, filters) => {
    const url = `/api/articles?${qs.stringify({ filters, sort: 'id:desc', fields: ['title'] }, { encodeValuesOnly: true })}`;
    seen = [];
    const res = await running.app.server.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    expect(seen.length).toBeGreaterThan(0);
    expect(bigScans(path.join(running.dir, '.tmp/data.db'), seen)).toEqual([]);
  });
});

describe.skipIf(onPostgres)(`new links on ${ARTICLES.toLocaleString('en-US')} articles`, () => {
  it('a new article\'s position in each category\'s list is found through an index', async () => {
    const statements: typeof seen = [];
    const ct = running.app.model.require('api::article.article');
    const attr = ct.attributes.categories as RelationAttribute;
    // the write path's statements, recorded; rolled back at the end (the data stays as the other tests want it)
    await expect(running.app.db.transaction(async (tx) => {
      const recorded: Executor = {
        dialect: tx.dialect, lock: (keys) => tx.lock(keys), insert: (sql, p) => tx.insert(sql, p), run: (sql, p) => tx.run(sql, p),
        all: (sql, p) => (statements.push({ sql, params: p ?? [] }), tx.all(sql, p)),
        get: (sql, p) => (statements.push({ sql, params: p ?? [] }), tx.get(sql, p)),
      };
      await createRelationLinks(recorded, ct, attr, [{ entityId: 1, op: { kind: 'set', ids: [2, 3] } as never }]);
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    // one MAX per target (a correlated subquery: SQLite's min/max optimization makes it one index seek), through
    // Tessera's (category_id, article_order) index; a MAX over a GROUP BY would read every link of the category
    const max = statements.find((st) => /MAX\(/.test(st.sql));
    expect(max?.sql).toMatch(/\(SELECT MAX\(`article_order`\) FROM `articles_categories_links` WHERE `category_id` = l\.value\)/);
    const db = new BetterSqlite3(path.join(running.dir, '.tmp/data.db'), { readonly: true });
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${max!.sql}`).all(...(max!.params as unknown[])) as Array<{ detail: string }>).map((r) => r.detail);
      expect(plan).toContain('SEARCH articles_categories_links USING COVERING INDEX tessera_articles_categories_links_inv_order (category_id=?)');
    } finally {
      db.close();
    }
  });
});

describe.skipIf(onPostgres)(`deep pages on ${ARTICLES.toLocaleString('en-US')} articles`, () => {
  it('skip the entries before the page, and count them, on Tessera\'s covering index instead of the rows', async () => {
    seen = [];
    const res = await running.app.server.inject({ method: 'GET', url: '/api/articles?pagination[page]=3000&pagination[pageSize]=25' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: Array<{ id: number }> }).data[0].id).toBeGreaterThan(1_000_000);
    const db = new BetterSqlite3(path.join(running.dir, '.tmp/data.db'), { readonly: true });
    try {
      const plans = seen.filter((st) => /^\s*SELECT/i.test(st.sql)).flatMap(({ sql, params }) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql.replace(/tessera_json_value\(/g, 'coalesce(')}`).all(...(params as unknown[])) as Array<{ detail: string }>).map((r) => r.detail));
      expect(plans).toContain('SCAN t0 USING COVERING INDEX tessera_articles_page');
      expect(plans.filter((p) => /^SCAN t0$/.test(p))).toEqual([]);
    } finally {
      db.close();
    }
  });
});
