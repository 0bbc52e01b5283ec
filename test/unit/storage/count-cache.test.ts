// List totals are kept while the data is unchanged (storage/count-cache.ts), and no write, by this
// process or by another connection to the same file, leaves a stale total behind.
import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Where } from '../../../src/query/types';
import { countEntities } from '../../../src/storage/read-entities';
import { SqliteDatabase } from '../../../src/storage/sqlite/sqlite-database';
import { FIXTURE_DB, fixtureModel } from '../../helpers/fixture-model';

const model = fixtureModel();
const articles = model.require('api::article.article');
const LIVE: Where = { publishedAt: { $notNull: true } };

let dir: string;
let file: string;
let db: SqliteDatabase;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-count-cache-'));
  file = path.join(dir, 'data.db');
  fs.copyFileSync(FIXTURE_DB, file);
  fs.chmodSync(file, 0o644);
  db = new SqliteDatabase(file);
});
afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const live = () => countEntities(db, model, articles, LIVE);

describe('count cache', () => {
  it('answers a repeated count without scanning again', async () => {
    const n = await live();
    const before = db.statementCount;
    expect(await live()).toBe(n);
    expect(db.statementCount - before).toBe(1); // the data version check alone
  });

  it('counts again after a write of this process', async () => {
    const n = await live();
    await db.run('UPDATE articles SET published_at = NULL WHERE id = (SELECT MIN(id) FROM articles WHERE published_at IS NOT NULL)');
    expect(await live()).toBe(n - 1);
  });

  it('counts again after a write by another connection (another process, Strapi on the same file)', async () => {
    const n = await live();
    const other = new BetterSqlite3(file);
    try {
      other.prepare('UPDATE articles SET published_at = 1704189600000 WHERE id = (SELECT MIN(id) FROM articles WHERE published_at IS NULL)').run();
    } finally {
      other.close();
    }
    expect(await live()).toBe(n + 1);
  });

  it('keeps totals apart per condition and parameters', async () => {
    const all = await countEntities(db, model, articles, undefined);
    const featured = await countEntities(db, model, articles, { featured: true });
    const notFeatured = await countEntities(db, model, articles, { featured: false });
    expect(featured + notFeatured).toBeLessThanOrEqual(all);
    expect(await countEntities(db, model, articles, { featured: true })).toBe(featured);
  });

  it('is not used inside a transaction, which sees its own writes', async () => {
    const n = await live();
    await db.transaction(async (tx) => {
      await tx.run('UPDATE articles SET published_at = NULL WHERE id = (SELECT MIN(id) FROM articles WHERE published_at IS NOT NULL)');
      expect(await countEntities(tx, model, articles, LIVE)).toBe(n - 1);
      await tx.run('UPDATE articles SET published_at = 1 WHERE id = (SELECT MIN(id) FROM articles WHERE published_at IS NULL)');
    });
    expect(await live()).toBe(n);
  });

  it('an in-memory database (one connection) sees its own commits', async () => {
    const mem = new SqliteDatabase(':memory:');
    try {
      await mem.exec('CREATE TABLE articles (id integer PRIMARY KEY, published_at datetime)');
      await mem.run('INSERT INTO articles (published_at) VALUES (1), (2)');
      expect(await countEntities(mem, model, articles, LIVE)).toBe(2);
      await mem.run('INSERT INTO articles (published_at) VALUES (3)');
      expect(await countEntities(mem, model, articles, LIVE)).toBe(3);
    } finally {
      await mem.close();
    }
  });
});
