// Writes racing each other. The read-then-write steps of a write (the uniqueness count before the insert,
// inverse order values taken as MAX + 1, upload folder path ids as MAX(path_id) + 1, cron claims) are safe on
// SQLite because it runs one writer at a time; on PostgreSQL transactions run side by side and each step takes a
// transaction lock on what it reads (Executor.lock). Runs on both dialects (the postgres vitest project).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { createCronLock } from '../../../src/core/cron-lock';

let app: RunningApp;

beforeAll(async () => {
  app = await startFixtureApp(true);
});
afterAll(async () => {
  await app?.stop();
});

function post(path: string, data: unknown): Promise<Response> {
  return fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
  });
}

const q = (id: string) => app.app.db.dialect.quote(id);

describe('concurrent writers', () => {
  it('one of many creates with the same unique value wins; the others get v4\'s 400', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => post('/api/categories', { name: 'Raced name' })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(11).fill(400)]);
    for (const r of answers.filter((a) => a.status === 400)) {
      expect((await r.json()).error.message).toBe('This attribute must be unique');
    }
    const rows = await app.app.db.all(`SELECT id FROM ${q('categories')} WHERE ${q('name')} = ${app.app.db.dialect.placeholder(1)}`, ['Raced name']);
    expect(rows).toHaveLength(1);
  });

  it('links created at once to one target get distinct inverse orders, each MAX + 1', async () => {
    const author = await (await post('/api/authors', { name: 'Raced author' })).json();
    const category = await (await post('/api/categories', { name: 'Raced category' })).json();
    const n = 16;
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => post('/api/articles', { title: `raced ${i}`, author: author.data.id, categories: [category.data.id] })));
    expect(answers.map((r) => r.status)).toEqual(Array(n).fill(200));
    const db = app.app.db;
    const ph = db.dialect.placeholder(1);
    const byAuthor = await db.all<{ o: number }>(`SELECT ${q('article_order')} AS o FROM ${q('articles_author_links')} WHERE ${q('author_id')} = ${ph} ORDER BY 1`, [author.data.id]);
    const byCategory = await db.all<{ o: number }>(`SELECT ${q('article_order')} AS o FROM ${q('articles_categories_links')} WHERE ${q('category_id')} = ${ph} ORDER BY 1`, [category.data.id]);
    const oneToN = Array.from({ length: n }, (_, i) => i + 1);
    expect(byAuthor.map((r) => Number(r.o))).toEqual(oneToN);
    expect(byCategory.map((r) => Number(r.o))).toEqual(oneToN);
  });

  it('a cron tick claimed by many callers at once runs once', async () => {
    // several processes' claims meet here as concurrent transactions on one database
    const locks = Array.from({ length: 8 }, () => createCronLock(app.app.db));
    const at = new Date('2030-01-01T00:00:00Z');
    const claims = await Promise.all(locks.map((l) => l.claim('raced-job', at)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await locks[0].claim('raced-job', at)).toBe(false);
    expect(await locks[0].claim('raced-job', new Date(at.getTime() + 1000))).toBe(true);
  });
});
