import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryEngine, type QueryFn } from '../../src/query/query-engine';
import type { Database } from '../../src/storage/dialect';
import { copyFixtureDb } from '../helpers/fixture-db';
import { openTestDatabase, sqlFor } from '../helpers/test-database';
import { fixtureModel } from '../helpers/fixture-model';

let db: Database;
let query: QueryFn;
let tmp: ReturnType<typeof copyFixtureDb>;

beforeAll(async () => {
  tmp = copyFixtureDb();
  db = await openTestDatabase(tmp.file);
  query = createQueryEngine(db, fixtureModel());
});
afterAll(async () => {
  await db?.close();
  tmp.cleanup();
});

describe('query engine on a database written by Strapi 4.26.2', () => {
  it('reads scalars as v4 returns them', async () => {
    const a = await query('api::article.article').findOne({ where: { id: 1 } });
    expect(a).toMatchObject({ id: 1, title: 'jade ember 0', featured: true, big: '1000000000000', publishDate: '2025-01-01', scheduledAt: '2026-01-15T08:00:00.000Z', meta: { i: 0, tags: ['pearl'] } });
  });
  it('filters through relations with a subquery, without duplicating rows', async () => {
    const rows = await query('api::article.article').findMany({ where: { categories: { slug: { $startsWith: 'cat' } } }, select: ['title'] });
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    const total = await query('api::article.article').count({ where: { categories: { id: { $notNull: true } } } });
    expect(total).toBe(rows.length);
  });
  it('populates relations, components, dynamic zones and media in one statement per attribute', async () => {
    const before = db.statementCount;
    const rows = await query('api::article.article').findMany({ limit: 10, populate: { author: true, categories: true, seo: { populate: { shareImage: true } }, links: true, blocks: true, cover: true } });
    const statements = db.statementCount - before;
    // 1 page + author + categories + seo + shareImage + links + 3 dz components + cover
    expect(statements).toBe(10);
    expect(rows.some((r) => Array.isArray(r.blocks) && (r.blocks as unknown[]).length > 1)).toBe(true);
    const withBlocks = rows.find((r) => Array.isArray(r.blocks) && (r.blocks as unknown[]).length)!;
    expect((withBlocks.blocks as Array<{ __component: string }>)[0].__component).toMatch(/^blocks\./);
  });
  it('same statement count for 50 rows as for 10 (no N+1)', async () => {
    const before = db.statementCount;
    await query('api::article.article').findMany({ limit: 50, populate: { author: true, categories: true, seo: { populate: { shareImage: true } }, links: true, blocks: true, cover: true } });
    expect(db.statementCount - before).toBe(10);
  });
  it('sorts by a relation field and breaks ties on id', async () => {
    const rows = await query('api::article.article').findMany({ orderBy: [{ author: { name: 'desc' } }], select: ['title'], populate: { author: { select: ['name'] } } });
    const names = rows.map((r) => (r.author as { name: string } | null)?.name ?? '');
    const withAuthor = names.filter(Boolean);
    expect(withAuthor).toEqual([...withAuthor].sort().reverse());
  });
  it('writes relations with order columns and deletes cleanly in one transaction', async () => {
    const cat = await query('api::category.category').create({ data: { name: 'Test cat', slug: 'test-cat', articles: [3, 1, 2] }, populate: { articles: { select: ['id'] } } });
    expect((cat.articles as Array<{ id: number }>).map((a) => a.id).sort()).toEqual([1, 2, 3]);
    const art = await query('api::article.article').create({ data: { title: 'x', seo: { metaTitle: 'm' }, blocks: [{ __component: 'blocks.quote', text: 'q' }], categories: [cat.id] }, populate: { seo: true, blocks: true } });
    expect(art.seo).toMatchObject({ metaTitle: 'm' });
    await query('api::article.article').delete({ where: { id: art.id } });
    expect(await db.get(sqlFor(db, 'SELECT COUNT(*) AS n FROM articles_components WHERE entity_id = ?'), [art.id])).toEqual({ n: 0 });
    expect(await db.get('SELECT COUNT(*) AS n FROM articles_categories_links WHERE article_id = ?', [art.id])).toEqual({ n: 0 });
    await query('api::category.category').delete({ where: { id: cat.id } });
  });
  it('rolls a failed write back completely', async () => {
    const before = await query('api::article.article').count();
    await expect(query('api::article.article').create({ data: { title: 'x', blocks: [{ __component: 'nope.nope' }] } })).rejects.toThrow();
    expect(await query('api::article.article').count()).toBe(before);
  });
});
