// Substring filters on a large table (issue 22, part 5): 20k articles written in plain SQL before Tessera starts
// (the `auto` size rule then gives `articles` its substring index). `$containsi` and `_q` are answered through it
// (SQLite: EXPLAIN QUERY PLAN reads the FTS table and the articles by id, never the whole table; PostgreSQL:
// EXPLAIN uses the trigram index), with the scan's answer; writes through REST and, on SQLite, through a second
// connection (as real Strapi writes) keep it right; and a table rebuilt behind Tessera's back (its triggers gone,
// as real Strapi's schema sync on SQLite leaves it) gives the scan's answers until the index is made again.
import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixtureApp, startCopy, type RunningApp } from '../../helpers/fixture-app';
import { onPostgres } from '../../helpers/test-database';
import type { SqlValue } from '../../../src/storage/dialect';
import { ensureSubstringIndexes } from '../../../src/storage/schema/tessera-search';

const ARTICLES = 20_000;
const RARE = 'zephyrine';
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

let running: RunningApp;
let seen: Array<{ sql: string; params: readonly SqlValue[] }> = [];
let file: string;

beforeAll(async () => {
  const dir = copyFixtureApp(true);
  file = path.join(dir, '.tmp/data.db');
  try {
    const db = new BetterSqlite3(file);
    try {
      const insert = db.prepare('INSERT INTO articles (title, slug, body, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?, ?)');
      db.transaction(() => {
        for (let i = 1; i <= ARTICLES; i++) {
          const title = `Article ${i} ${WORDS[i % WORDS.length]}${i % 2000 === 0 ? ` ${RARE.toUpperCase()}` : ''}`;
          insert.run(title, `article-${i}`, i % 3 ? null : `body of ${i}`, 1_700_000_000_000, 1_700_000_000_000, i % 10 === 3 ? null : 1_700_000_000_000 + i);
        }
      })();
    } finally {
      db.close();
    }
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // the cost of building an answer: the response cache would answer a repeated request without any statement
  running = await startCopy(dir, { env: { TESSERA_RESPONSE_CACHE: 'off' } });
  const db = running.app.db as unknown as { all: (sql: string, p?: readonly SqlValue[]) => Promise<unknown[]>; get: (sql: string, p?: readonly SqlValue[]) => Promise<unknown> };
  const all = db.all.bind(db);
  const get = db.get.bind(db);
  db.all = (sql, p) => (seen.push({ sql, params: p ?? [] }), all(sql, p));
  db.get = (sql, p) => (seen.push({ sql, params: p ?? [] }), get(sql, p));
  if (onPostgres) await running.app.db.run('ANALYZE articles');
}, 180_000);
afterAll(async () => {
  await running?.stop();
});

interface Page {
  ids: number[];
  total: number;
}

/** the statements of the last search() */
let statements: typeof seen = [];

async function search(query: Record<string, unknown>): Promise<Page> {
  seen = [];
  const res = await running.app.server.inject({ method: 'GET', url: `/api/articles?${qs.stringify({ ...query, fields: ['title'], pagination: { pageSize: 100 } }, { encodeValuesOnly: true })}` });
  expect(res.statusCode, res.body).toBe(200);
  statements = seen;
  const body = res.json() as { data: Array<{ id: number }>; meta: { pagination: { total: number } } };
  return { ids: body.data.map((e) => e.id), total: body.meta.pagination.total };
}

/** the scan's answer, in plain SQL on the app's database: published articles whose title has `word` in any case */
async function scanned(word: string): Promise<Page> {
  const rows = await running.app.db.all<{ id: number }>(
    `SELECT id FROM articles WHERE lower(title) LIKE ${running.app.db.dialect.placeholder(1)} AND published_at IS NOT NULL ORDER BY published_at DESC, id ASC`,
    [`%${word.toLowerCase()}%`],
  );
  return { ids: rows.slice(0, 100).map((r) => r.id), total: rows.length };
}

const containsi = (word: string) => search({ filters: { title: { $containsi: word } }, sort: 'publishedAt:desc' });

/** SQLite's plan lines for the SELECTs the last request ran */
function sqlitePlans(): string[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return statements.filter((st) => /^\s*(SELECT|WITH)\b/i.test(st.sql)).flatMap(({ sql, params }) =>
      // the app's own JSON function is not needed to plan
      (db.prepare(`EXPLAIN QUERY PLAN ${sql.replace(/tessera_json_value\(/g, 'coalesce(')}`).all(...(params as unknown[])) as Array<{ detail: string }>).map((r) => r.detail));
  } finally {
    db.close();
  }
}

/** PostgreSQL's plans for the SELECTs the last request ran */
async function postgresPlans(): Promise<string[]> {
  const out: string[] = [];
  for (const { sql, params } of statements.filter((st) => /^\s*(SELECT|WITH)\b/i.test(st.sql))) {
    const rows = await running.app.db.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
    out.push(...rows.map((r) => r['QUERY PLAN']));
  }
  return out;
}

function expectIndexUsed(plans: string[]): void {
  expect(plans.filter((p) => /^SCAN tessera_articles_search VIRTUAL TABLE\b/.test(p)), plans.join('\n')).not.toEqual([]);
  expect(plans.filter((p) => /^SCAN t0\b/.test(p))).toEqual([]);
}

describe(`substring filters on ${ARTICLES.toLocaleString('en-US')} articles`, () => {
  it('$containsi on a rare word: the scan\'s answer, read through the substring index', async () => {
    const got = await containsi(RARE);
    expect(got.total).toBe(ARTICLES / 2000);
    expect(got).toEqual(await scanned(RARE));
    if (onPostgres) {
      const plans = await postgresPlans();
      expect(plans.some((p) => p.includes('tessera_articles_title_trgmi')), plans.join('\n')).toBe(true);
    } else {
      expectIndexUsed(sqlitePlans());
    }
  });

  it('_q too (a text no id contains searches the text attributes only)', async () => {
    const got = await search({ _q: RARE, sort: 'publishedAt:desc' });
    expect(got).toEqual(await scanned(RARE));
    if (!onPostgres) expectIndexUsed(sqlitePlans());
  });

  it('a value under three characters, % and _ in the value: the scan\'s answers', async () => {
    for (const word of ['ZE', 'e 1', '%', '_', 'rticle 19']) expect(await containsi(word), word).toEqual(await scanned(word.replace(/[%_]/g, '\\$&')));
  });

  it('writes through REST keep it right', async () => {
    const auth = { authorization: `Bearer ${running.token}` };
    const created = await running.app.server.inject({ method: 'POST', url: '/api/articles', headers: auth, payload: { data: { title: 'A quillwort story', slug: 'quillwort-1' } } });
    expect(created.statusCode, created.body).toBe(200);
    const id = (created.json() as { data: { id: number } }).data.id;
    const renamed = await running.app.server.inject({ method: 'PUT', url: '/api/articles/5', headers: auth, payload: { data: { title: 'Now about QUILLWORT' } } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await containsi('quillwort')).ids.sort()).toEqual([5, id].sort());
    const removed = await running.app.server.inject({ method: 'DELETE', url: `/api/articles/${id}`, headers: auth });
    expect(removed.statusCode, removed.body).toBe(200);
    await running.app.server.inject({ method: 'PUT', url: '/api/articles/5', headers: auth, payload: { data: { title: 'Plain again' } } });
    expect(await containsi('quillwort')).toEqual({ ids: [], total: 0 });
    expect(await containsi('plain again')).toEqual(await scanned('plain again'));
  });
});

describe.skipIf(onPostgres)('SQLite: other writers', () => {
  it('writes through another connection (as real Strapi writes) keep it right', async () => {
    const other = new BetterSqlite3(file);
    try {
      other.prepare(`INSERT INTO articles (title, published_at) VALUES ('the marshwort one', 1800000000000)`).run();
      other.prepare(`UPDATE articles SET title = 'a MarshWort too' WHERE id = 6`).run();
      expect(await containsi('marshwort')).toEqual(await scanned('marshwort'));
      expect((await containsi('marshwort')).total).toBe(2);
      other.prepare(`DELETE FROM articles WHERE title = 'the marshwort one'`).run();
      other.prepare(`UPDATE articles SET title = 'plain' WHERE id = 6`).run();
      expect(await containsi('marshwort')).toEqual({ ids: [], total: 0 });
    } finally {
      other.close();
    }
  });

  it('its tables are in v4\'s persisted tables, so that real Strapi\'s schema sync keeps them', async () => {
    const row = await running.app.db.get<{ value: string }>(`SELECT value FROM strapi_core_store_settings WHERE key = 'core_persisted_tables'`);
    expect(JSON.parse(row!.value)).toEqual(expect.arrayContaining(['tessera_articles_search', 'tessera_articles_search_data', 'tessera_articles_search_idx', 'tessera_articles_search_config']));
    // the size rule: a small table gets none
    expect(await running.app.db.all(`SELECT name FROM sqlite_schema WHERE name LIKE 'tessera_authors_search%'`)).toEqual([]);
  });

  it('a table rebuilt behind Tessera\'s back (triggers gone): the scan\'s answers, then the index made again', async () => {
    const other = new BetterSqlite3(file);
    try {
      // what knex does when real Strapi alters a table on SQLite: a copy, the old table dropped, the copy renamed
      const sql = (other.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'articles'`).get() as { sql: string }).sql;
      other.pragma('foreign_keys = OFF');
      other.transaction(() => {
        other.exec(sql.replace('CREATE TABLE "articles"', 'CREATE TABLE "_knex_temp_alter111"'));
        other.exec('INSERT INTO "_knex_temp_alter111" SELECT * FROM articles');
        other.exec('DROP TABLE articles');
        other.exec('ALTER TABLE "_knex_temp_alter111" RENAME TO articles');
      })();
      // writes the index does not see
      other.prepare(`INSERT INTO articles (title, published_at) VALUES ('the sedgewort one', 1800000000000)`).run();
      other.prepare(`UPDATE articles SET title = 'Sedgewort as well' WHERE id = 7`).run();
      other.prepare(`UPDATE articles SET title = 'no longer rare' WHERE title LIKE '%${RARE}%' AND id IN (SELECT id FROM articles WHERE title LIKE '%${RARE}%' LIMIT 1)`).run();
    } finally {
      other.close();
    }
    expect(await containsi('sedgewort')).toEqual(await scanned('sedgewort'));
    expect((await containsi('sedgewort')).total).toBe(2);
    expect(await containsi(RARE)).toEqual(await scanned(RARE));
    // made again at the next start (here: the start's step run again on the running app)
    expect(await ensureSubstringIndexes(running.app.db, running.app.model, { warn: () => undefined })).toEqual(['tessera_articles_search']);
    expect(await containsi('sedgewort')).toEqual(await scanned('sedgewort'));
    expect(await containsi(RARE)).toEqual(await scanned(RARE));
    expectIndexUsed(sqlitePlans());
  });
});
