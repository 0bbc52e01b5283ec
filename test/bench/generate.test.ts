// The benchmark's bulk writer (bench/lib/bulk-write.ts) against Tessera's storage layer: the same articles
// written both ways must give the same database, table by table, row by row (ids and order columns included),
// since the bulk-written datasets stand for what Tessera (and real Strapi, bench/verify-seed.ts) would write.
// Also the content's shape the scale cases rely on (issue 22).
import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../bench/generate';
import { DEFAULT_SHAPE, RARE_SEARCH_WORD } from '../../bench/lib/content';
import { parseSize } from '../../bench/lib/size';

const ARTICLES = 1500;
const shape = { ...DEFAULT_SHAPE, articles: ARTICLES };

describe('benchmark dataset generator', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-generate-'));
  const bulkFile = path.join(dir, 'bulk.db');
  const storageFile = path.join(dir, 'storage.db');
  let db: BetterSqlite3.Database;

  beforeAll(async () => {
    await generateDataset(bulkFile, shape);
    await generateDataset(storageFile, shape, { writer: 'storage' });
    db = new BetterSqlite3(bulkFile, { readonly: true });
    db.exec(`ATTACH DATABASE '${storageFile.replace(/'/g, "''")}' AS storage`);
  }, 120_000);
  afterAll(() => {
    db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes in bulk exactly the rows the storage layer writes', () => {
    const tables = db.prepare(`SELECT name FROM main.sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all() as string[];
    expect(tables).toEqual(db.prepare(`SELECT name FROM storage.sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all());
    const differing: string[] = [];
    for (const t of tables) {
      const n = db.prepare(`SELECT COUNT(*) FROM main."${t}"`).pluck().get() as number;
      const extra = db.prepare(`SELECT COUNT(*) FROM (SELECT * FROM main."${t}" EXCEPT SELECT * FROM storage."${t}")`).pluck().get() as number;
      const missing = db.prepare(`SELECT COUNT(*) FROM (SELECT * FROM storage."${t}" EXCEPT SELECT * FROM main."${t}")`).pluck().get() as number;
      if (extra || missing || n !== db.prepare(`SELECT COUNT(*) FROM storage."${t}"`).pluck().get()) differing.push(`${t}: ${extra} rows only in bulk, ${missing} only via storage`);
    }
    expect(differing).toEqual([]);
    // the values' storage classes too (EXCEPT compares 1 and 1.0 as equal)
    const types = (schema: string) => db.prepare(`SELECT typeof(created_at) || typeof(featured) || typeof(big) || typeof(meta) || typeof(scheduled_at) FROM ${schema}.articles ORDER BY id`).pluck().all();
    expect(types('main')).toEqual(types('storage'));
    const orderTypes = (schema: string) => db.prepare(`SELECT typeof("order") FROM ${schema}.files_related_morphs ORDER BY id`).pluck().all();
    expect(orderTypes('main')).toEqual(orderTypes('storage'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare(`SELECT COUNT(*) FROM articles`).pluck().get()).toBe(ARTICLES);
  });

  it('gives every article an author and two categories of 50, and the rare word to one title in 1,000', () => {
    expect(db.prepare(`SELECT COUNT(*) FROM categories`).pluck().get()).toBe(50);
    expect(db.prepare(`SELECT COUNT(DISTINCT article_id) FROM articles_author_links`).pluck().get()).toBe(ARTICLES);
    expect(db.prepare(`SELECT DISTINCT n FROM (SELECT COUNT(*) AS n FROM articles_categories_links GROUP BY article_id)`).pluck().all()).toEqual([2]);
    const rare = db.prepare(`SELECT id FROM articles WHERE title LIKE ?`).pluck().all(`%${RARE_SEARCH_WORD}%`);
    expect(rare).toEqual([7, 1007]);
  });

  it('reads sizes as people write them', () => {
    expect([parseSize('10k'), parseSize('100K'), parseSize('1m'), parseSize('1M'), parseSize('10000'), parseSize('1_000_000'), parseSize('2.5k')]).toEqual([10_000, 100_000, 1_000_000, 1_000_000, 10_000, 1_000_000, 2500]);
    for (const bad of ['', 'ten', '1g', '0', '10.000', '-5']) expect(() => parseSize(bad), bad).toThrow(/not a dataset size/);
  });
});
