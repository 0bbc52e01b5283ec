// List totals are kept while the data is unchanged (storage/count-cache.ts), and no write, by this
// process or by another connection to the same database, leaves a stale total behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Where } from '../../../src/query/types';
import { countEntities } from '../../../src/storage/read-entities';
import type { Database } from '../../../src/storage/dialect';
import { SqliteDatabase } from '../../../src/storage/sqlite/sqlite-database';
import { FIXTURE_DB, fixtureModel } from '../../helpers/fixture-model';
import { onPostgres, openTestDatabase, secondConnection, sqlFor } from '../../helpers/test-database';

const model = fixtureModel();
const articles = model.require('api::article.article');
const LIVE: Where = { publishedAt: { $notNull: true } };

let dir: string;
let file: string;
let db: Database;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-count-cache-'));
  file = path.join(dir, 'data.db');
  fs.copyFileSync(FIXTURE_DB, file);
  fs.chmodSync(file, 0o644);
  db = await openTestDatabase(file);
});
afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const live = () => countEntities(db, model, articles, LIVE);
/** a published_at value as the database stores it */
const at = (ms: number) => db.dialect.datetimeToDb(new Date(ms));

describe('count cache', () => {
  // SQLite tells a changed file by PRAGMA data_version; on PostgreSQL every count reads the table
  it.skipIf(onPostgres)('answers a repeated count without scanning again (SQLite only: PRAGMA data_version)', async () => {
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
    const other = secondConnection(db, file);
    try {
      await other.run(sqlFor(other, 'UPDATE articles SET published_at = ? WHERE id = (SELECT MIN(id) FROM articles WHERE published_at IS NULL)'), [at(1704189600000)]);
    } finally {
      await other.close();
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
      await tx.run(sqlFor(tx, 'UPDATE articles SET published_at = ? WHERE id = (SELECT MIN(id) FROM articles WHERE published_at IS NULL)'), [at(1)]);
    });
    expect(await live()).toBe(n);
  });

  it.skipIf(onPostgres)('an in-memory database (one connection) sees its own commits (SQLite only: `:memory:`)', async () => {
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
