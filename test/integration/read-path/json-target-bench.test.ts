// The JSON compile target against the JavaScript reference on a generated benchmark dataset (bench/
// generate.ts: authors, 1-3 categories, an seo component with an image, links, 2-3 dynamic-zone blocks, a
// cover, drafts): the benchmark's cases and every page and entry with everything populated.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../../bench/generate';
import { DEFAULT_SHAPE } from '../../../bench/lib/content';
import type { Database } from '../../../src/storage/dialect';
import { fixtureModel } from '../../helpers/fixture-model';
import { openTestDatabase } from '../../helpers/test-database';
import { expectSameAnswer, targetsFor, type Targets } from './targets';
import { eachId } from './shapes';

const ARTICLES = 240;
let dir: string;
let db: Database;
let t: Targets;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-json-bench-'));
  const file = path.join(dir, 'bench.db');
  await generateDataset(file, { ...DEFAULT_SHAPE, articles: ARTICLES });
  db = await openTestDatabase(file);
  t = targetsFor(db, fixtureModel());
}, 60_000);
afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const q = (o: Record<string, unknown>) => qs.stringify(o, { encodeValuesOnly: true });

describe('JSON target = JavaScript reference, generated dataset', () => {
  it("the benchmark's read cases", async () => {
    const urls = [
      '/api/articles', '/api/articles?populate=*', `/api/articles?${q({ filters: { title: { $containsi: 'HarBor' } }, sort: 'views:desc' })}`,
      ...[1, 7, 99, 240].map((id) => `/api/articles/${id}?${q({ populate: { author: { populate: 'avatar' }, categories: true } })}`),
      `/api/articles?${q({ filters: { categories: { slug: { $eq: 'category-3' } } } })}`, '/api/articles?pagination[page]=9',
    ];
    for (const url of urls) expect(await expectSameAnswer(t, url), url).toBe('compared');
  });

  it('every page of the list with everything populated, live and preview', async () => {
    for (const state of ['live', 'preview']) {
      for (let page = 1; page <= 11; page++) {
        const url = `/api/articles?populate=*&publicationState=${state}&pagination[page]=${page}`;
        expect(await expectSameAnswer(t, url), url).toBe('compared');
      }
    }
  });

  it('every entry with nested population through relations, components and dynamic zones', async () => {
    const deep = q({
      populate: {
        author: { populate: { avatar: true, articles: { fields: ['title'], sort: 'views:desc', limit: 3 } } },
        categories: { sort: 'name:desc', populate: { articles: { count: true } } },
        seo: { populate: '*' }, links: true, cover: { fields: ['url', 'formats'] },
        blocks: { on: { 'blocks.gallery': { populate: { images: { fields: ['name'] } } }, 'blocks.quote': true, 'blocks.text': { fields: ['body'] } } },
      },
    });
    for (const url of [...eachId('articles', ARTICLES + 2, 'populate=*'), ...eachId('articles', 40, deep)]) {
      expect(await expectSameAnswer(t, url), url).toBe('compared');
    }
  });

  it('authors and categories with their articles populated', async () => {
    const urls = [
      '/api/authors?populate=*&pagination[pageSize]=100', '/api/categories?populate[articles][populate]=*&sort=name:desc',
      `/api/authors?${q({ populate: { articles: { filters: { featured: true }, sort: ['rating:desc', 'title'], start: 1, limit: 5, populate: ['cover', 'categories'] } } })}`,
    ];
    for (const url of urls) expect(await expectSameAnswer(t, url), url).toBe('compared');
  });
});
