// Totals kept by delta (issue 22 part 3, src/storage/schema/tessera-counts.ts, src/storage/kept-totals.ts): the
// triggers keep each collection type's row figures per publication state and locale, in the writer's own
// transaction, whoever writes (this server, or another connection as real Strapi or a script would); every list
// total equals a fresh COUNT(*) after every write; a total is read from the figures (not counted) where the list
// has no other condition; triggers gone behind Tessera's back never give a stale total, and the next start puts
// them back. Runs on both dialects (the postgres vitest project).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { secondConnection, onPostgres, sqlFor } from '../../helpers/test-database';
import { seededRandom } from '../../../bench/lib/seeded-random';
import type { Database } from '../../../src/storage/dialect';
import { createCoreStore } from '../../../src/auth/core-store';
import { COUNTS_TABLE, countedTables, ensureTesseraCounts, presentTriggers, triggerNames } from '../../../src/storage/schema/tessera-counts';

let app: RunningApp;
let other: Database;

beforeAll(async () => {
  app = await startFixtureApp(true, { env: { TESSERA_RESPONSE_CACHE: 'off' } });
  other = secondConnection(app.app.db, path.join(app.dir, '.tmp/data.db'));
});
afterAll(async () => {
  await other?.close();
  await app?.stop();
});

const auth = () => ({ authorization: `Bearer ${app.token}`, 'content-type': 'application/json' });

async function total(url: string): Promise<number> {
  const r = await fetch(app.url + url, { headers: auth() });
  const body = await r.json() as { meta?: { pagination?: { total?: number } } };
  expect(r.status, url).toBe(200);
  return body.meta!.pagination!.total!;
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return Number((await other.get<{ n: number | string }>(sqlFor(other, sql), params as never))?.n);
}

/** every list the figures answer, with the COUNT(*) it must equal */
const CHECKS: Array<[string, string]> = [
  ['/api/articles', 'SELECT COUNT(*) AS n FROM articles WHERE published_at IS NOT NULL'],
  ['/api/articles?publicationState=preview', 'SELECT COUNT(*) AS n FROM articles'],
  ['/api/authors', 'SELECT COUNT(*) AS n FROM authors'],
  ['/api/pages', "SELECT COUNT(*) AS n FROM pages WHERE published_at IS NOT NULL AND locale = 'en'"],
  ['/api/pages?locale=fr', "SELECT COUNT(*) AS n FROM pages WHERE published_at IS NOT NULL AND locale = 'fr'"],
  ['/api/pages?locale=fr&publicationState=preview', "SELECT COUNT(*) AS n FROM pages WHERE locale = 'fr'"],
  ['/api/pages?locale=all&publicationState=preview', 'SELECT COUNT(*) AS n FROM pages'],
  ['/api/pages?locale=all', 'SELECT COUNT(*) AS n FROM pages WHERE published_at IS NOT NULL'],
  // a condition the figures cannot answer: counted, and still right
  ['/api/articles?filters[title][$containsi]=a', "SELECT COUNT(*) AS n FROM articles WHERE published_at IS NOT NULL AND lower(title) LIKE '%a%'"],
];

async function expectTotalsRight(step: string): Promise<void> {
  for (const [url, sql] of CHECKS) expect(await total(url), `${step}: ${url}`).toBe(await count(sql));
}

const now = () => app.app.db.dialect.datetimeToDb(new Date());

describe('totals kept by triggers', () => {
  it('every counted table has its triggers and figures after start, and the table is kept by real Strapi', async () => {
    const tables = countedTables(app.app.model).map((t) => t.table).sort();
    expect(tables).toEqual(['articles', 'authors', 'categories', 'pages']);
    for (const t of countedTables(app.app.model)) {
      const names = triggerNames(t, app.app.db.dialect.name);
      expect([...await presentTriggers(other, t.table, names)].sort()).toEqual([...names].sort());
    }
    expect(await count(`SELECT COALESCE(SUM(n), 0) AS n FROM ${COUNTS_TABLE} WHERE table_name = 'articles'`)).toBe(await count('SELECT COUNT(*) AS n FROM articles'));
    const persisted = await createCoreStore(other).get({ type: 'core', key: 'persisted_tables' });
    expect(persisted).toContain(COUNTS_TABLE);
    await expectTotalsRight('start');
  });

  it('a total without other conditions is read from the figures, not counted', async () => {
    await other.run(sqlFor(other, `UPDATE ${COUNTS_TABLE} SET n = n + 1000 WHERE table_name = 'authors' AND published >= 0`));
    try {
      expect(await total('/api/authors')).toBe(await count('SELECT COUNT(*) AS n FROM authors') + 1000);
    } finally {
      await other.run(sqlFor(other, `UPDATE ${COUNTS_TABLE} SET n = n - 1000 WHERE table_name = 'authors' AND published >= 0`));
    }
  });

  it('stays right through writes of every kind, from this server and from another connection', async () => {
    const random = seededRandom(22);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
    const ids = async (table: string) => (await other.all<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`)).map((r) => Number(r.id));
    const ops: Array<[string, () => Promise<void>]> = [
      ['REST create, published', async () => {
        const r = await fetch(`${app.url}/api/articles`, { method: 'POST', headers: auth(), body: JSON.stringify({ data: { title: `kept ${random()}` } }) });
        expect(r.status).toBe(200);
      }],
      ['REST create, draft', async () => {
        const r = await fetch(`${app.url}/api/articles`, { method: 'POST', headers: auth(), body: JSON.stringify({ data: { title: `draft ${random()}`, publishedAt: null } }) });
        expect(r.status).toBe(200);
      }],
      ['REST unpublish or publish', async () => {
        const id = pick(await ids('articles'));
        const published = await count('SELECT COUNT(*) AS n FROM articles WHERE id = ? AND published_at IS NOT NULL', [id]);
        const r = await fetch(`${app.url}/api/articles/${id}`, { method: 'PUT', headers: auth(), body: JSON.stringify({ data: { publishedAt: published ? null : new Date().toISOString() } }) });
        expect(r.status).toBe(200);
      }],
      ['REST delete', async () => {
        const list = await ids('articles');
        if (list.length > 3) expect((await fetch(`${app.url}/api/articles/${pick(list)}`, { method: 'DELETE', headers: auth() })).status).toBe(200);
      }],
      ['REST create an author', async () => {
        expect((await fetch(`${app.url}/api/authors`, { method: 'POST', headers: auth(), body: JSON.stringify({ data: { name: `a ${random()}` } }) })).status).toBe(200);
      }],
      ['SQL insert pages in a locale', async () => {
        const locale = pick(['en', 'fr', 'fr', null]);
        await other.run(sqlFor(other, 'INSERT INTO pages (title, locale, published_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?)'), [`p ${random()}`, locale, random() < 0.5 ? now() : null, now(), now()]);
      }],
      ['SQL move a page to another locale', async () => {
        const list = await ids('pages');
        if (list.length) await other.run(sqlFor(other, 'UPDATE pages SET locale = ? WHERE id = ?'), [pick(['en', 'fr', null]), pick(list)]);
      }],
      ['SQL publish or unpublish pages, several rows at once', async () => {
        await other.run(sqlFor(other, `UPDATE pages SET published_at = ${random() < 0.5 ? 'NULL' : '?'} WHERE id % 3 = ?`), random() < 0.5 ? [Math.floor(random() * 3)] : [now(), Math.floor(random() * 3)]);
      }],
      ['SQL delete articles', async () => {
        const list = await ids('articles');
        if (list.length > 3) await other.run(sqlFor(other, 'DELETE FROM articles WHERE id = ?'), [pick(list)]);
      }],
      ['SQL rollback', async () => {
        await other.transaction(async (tx) => {
          await tx.run(sqlFor(tx, 'INSERT INTO authors (name, created_at, updated_at) VALUES (?, ?, ?)'), ['gone', now(), now()]);
          throw new Error('rolled back');
        }).catch(() => undefined);
      }],
      ['SQL update without a bucket change', async () => {
        const list = await ids('articles');
        if (list.length) await other.run(sqlFor(other, 'UPDATE articles SET title = ? WHERE id = ?'), [`t ${random()}`, pick(list)]);
      }],
    ];
    for (let step = 0; step < 40; step++) {
      const [name, op] = pick(ops);
      await op();
      await expectTotalsRight(`step ${step} (${name})`);
    }
  });

  it('triggers gone behind its back (a table rebuilt by real Strapi) give counted totals, and the next start puts them back', async () => {
    const authors = countedTables(app.app.model).find((t) => t.table === 'authors')!;
    const on = app.app.db.dialect.name === 'sqlite' ? '' : ' ON authors';
    await other.run(`DROP TRIGGER ${authors.triggers.insert}${on}`);
    await other.run(sqlFor(other, 'INSERT INTO authors (name, created_at, updated_at) VALUES (?, ?, ?)'), ['behind', now(), now()]);
    expect(await total('/api/authors')).toBe(await count('SELECT COUNT(*) AS n FROM authors'));
    // the figures are now behind: a total must not come from them again while the trigger is missing
    await other.run(sqlFor(other, 'INSERT INTO authors (name, created_at, updated_at) VALUES (?, ?, ?)'), ['behind 2', now(), now()]);
    expect(await total('/api/authors')).toBe(await count('SELECT COUNT(*) AS n FROM authors'));

    // the figures emptied (the table re-created, or rows copied in while the triggers were off): not trusted either
    await other.run(sqlFor(other, `DELETE FROM ${COUNTS_TABLE} WHERE table_name = 'categories'`));
    expect(await total('/api/categories')).toBe(await count('SELECT COUNT(*) AS n FROM categories'));

    // what the next start does: the triggers re-created and the figures recounted in one transaction
    const recounted = await ensureTesseraCounts(app.app.db, app.app.model, (m) => { throw new Error(m); });
    expect(recounted.sort()).toEqual(['authors', 'categories']);
    expect(await count(`SELECT COALESCE(SUM(n), 0) AS n FROM ${COUNTS_TABLE} WHERE table_name = 'authors'`)).toBe(await count('SELECT COUNT(*) AS n FROM authors'));
    await other.run(sqlFor(other, `UPDATE ${COUNTS_TABLE} SET n = n + 7 WHERE table_name = 'authors' AND published >= 0`));
    expect(await total('/api/authors')).toBe(await count('SELECT COUNT(*) AS n FROM authors') + 7);
    await other.run(sqlFor(other, `UPDATE ${COUNTS_TABLE} SET n = n - 7 WHERE table_name = 'authors' AND published >= 0`));
    await expectTotalsRight('after re-creation');
  });

  it.runIf(onPostgres)('PostgreSQL: the figures table dropped behind its back fails no write, totals are counted, the next start recounts', async () => {
    await other.run(`DROP TABLE ${COUNTS_TABLE}`);
    try {
      const r = await fetch(`${app.url}/api/authors`, { method: 'POST', headers: auth(), body: JSON.stringify({ data: { name: 'no figures' } }) });
      expect(r.status).toBe(200);
      await other.run(sqlFor(other, 'INSERT INTO articles (title, published_at, created_at, updated_at) VALUES (?, ?, ?, ?)'), ['no figures', now(), now(), now()]);
      await expectTotalsRight('figures table dropped');
    } finally {
      const recounted = await ensureTesseraCounts(app.app.db, app.app.model, (m) => { throw new Error(m); });
      expect(recounted.sort()).toEqual(['articles', 'authors', 'categories', 'pages']);
    }
    await expectTotalsRight('figures table re-created');
  });

  it.runIf(onPostgres)('PostgreSQL: the triggers fire in replica mode (bulk copies), and TRUNCATE empties the figures', async () => {
    await other.transaction(async (tx) => {
      await tx.run("SET LOCAL session_replication_role = 'replica'");
      await tx.run(sqlFor(tx, 'INSERT INTO categories (name, created_at, updated_at) VALUES (?, ?, ?)'), ['replica', now(), now()]);
    });
    expect(await total('/api/categories')).toBe(await count('SELECT COUNT(*) AS n FROM categories'));
    await other.run('TRUNCATE categories CASCADE');
    expect(await total('/api/categories')).toBe(0);
    await expectTotalsRight('after TRUNCATE');
  });
});
