// The entity reader (storage/entity-reader.ts) is kept per (content type, field SET): requests naming the
// same fields in another order share it, and the number kept is capped (least recently used out), so a
// client sending endless field orders or sets cannot grow it. Answers list the fields in the order the
// request names them, as v4 does (its rows carry the columns in select order): bodies recorded from real
// Strapi 4.26.2 on the fixture data, compared as text, through both read paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITY_READERS_PER_TYPE, entityReaderCount } from '../../../src/storage/entity-reader';
import { findEntities } from '../../../src/storage/read-entities';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { expectSameAnswer, targetsFor, type Targets } from '../read-path/targets';

let running: RunningApp;
let t: Targets;

beforeAll(async () => {
  running = await startFixtureApp(true);
  t = targetsFor(running.app.db, running.app.model);
});
afterAll(async () => {
  await running?.stop();
});

/** request -> real Strapi 4.26.2's body (API token, fixture data) */
const V4: Array<[string, string]> = [
  ['/api/articles?fields[0]=views&fields[1]=title&fields[2]=slug&pagination[pageSize]=1',
    '{"data":[{"id":1,"attributes":{"views":2646,"title":"jade ember 0","slug":"art-0"}}],"meta":{"pagination":{"page":1,"pageSize":1,"pageCount":53,"total":53}}}'],
  ['/api/articles?fields[0]=title&fields[1]=views&pagination[pageSize]=1',
    '{"data":[{"id":1,"attributes":{"title":"jade ember 0","views":2646}}],"meta":{"pagination":{"page":1,"pageSize":1,"pageCount":53,"total":53}}}'],
  ['/api/articles?fields[0]=views&fields[1]=title&fields[2]=views&pagination[pageSize]=1',
    '{"data":[{"id":1,"attributes":{"views":2646,"title":"jade ember 0"}}],"meta":{"pagination":{"page":1,"pageSize":1,"pageCount":53,"total":53}}}'],
  ['/api/articles/3?fields[0]=views&fields[1]=title', '{"data":{"id":3,"attributes":{"views":4013,"title":"jade harbor 2"}},"meta":{}}'],
  ['/api/articles/2?fields[0]=publishDate&fields[1]=createdAt&fields[2]=title',
    '{"data":{"id":2,"attributes":{"publishDate":"2025-02-02","createdAt":"2026-11-22T05:40:05.077Z","title":"dune dune 1"}},"meta":{}}'],
  ['/api/articles/2?fields[0]=views&fields[1]=title&populate[author][fields][0]=email&populate[author][fields][1]=name',
    '{"data":{"id":2,"attributes":{"views":151,"title":"dune dune 1","author":{"data":{"id":1,"attributes":{"email":"author0@example.com","name":"Author amber"}}}}},"meta":{}}'],
  ['/api/articles/2?fields[0]=views&populate[seo][fields][0]=metaDescription&populate[seo][fields][1]=metaTitle',
    '{"data":{"id":2,"attributes":{"views":151,"seo":{"id":1,"metaDescription":"Desc 1","metaTitle":"SEO 1"}}},"meta":{}}'],
  ['/api/articles/2?fields[0]=views&populate[seo][fields][0]=metaTitle&populate[seo][fields][1]=id&populate[seo][fields][2]=metaDescription',
    '{"data":{"id":2,"attributes":{"views":151,"seo":{"id":1,"metaTitle":"SEO 1","metaDescription":"Desc 1"}}},"meta":{}}'],
  ['/api/articles/2?fields[0]=views&populate[blocks][on][blocks.quote][fields][0]=by&populate[blocks][on][blocks.quote][fields][1]=text',
    '{"data":{"id":2,"attributes":{"views":151,"blocks":[{"id":1,"__component":"blocks.quote","by":"Someone","text":"Quote 1"}]}},"meta":{}}'],
];

describe('field order', () => {
  it.each(V4)('%s answers as v4 does, key order included', async (url, v4) => {
    const res = await running.app.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${running.token}` } });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(JSON.parse(res.body))).toBe(v4);
    await expectSameAnswer(t, url); // the JavaScript path and the JSON path alike
  });
});

/** a seeded permutation of `xs` */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = xs.slice();
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('the reader cache', () => {
  const FIELDS = ['title', 'slug', 'body', 'views', 'rating', 'price', 'featured', 'kind', 'publishDate', 'scheduledAt', 'meta', 'big'];

  it('10,000 distinct field orders share one reader per field set, and answer in their own order', async () => {
    const ct = running.app.model.require('api::article.article');
    const db = running.app.db;
    const before = entityReaderCount(ct);
    const seen = new Set<string>();
    for (let i = 0; seen.size < 10_000; i++) {
      const order = shuffled(FIELDS, i + 1);
      const key = order.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      const [row] = await findEntities(db, running.app.model, ct, { select: order, where: { id: 2 } });
      expect(Object.keys(row)).toEqual(['id', ...order]);
    }
    expect(entityReaderCount(ct)).toBeLessThanOrEqual(before + 1);
  });

  it('distinct field sets past the cap evict the least recently used: the count stays at the cap', async () => {
    const ct = running.app.model.require('api::article.article');
    const db = running.app.db;
    // every non-empty subset of 12 fields: 4,095 sets
    for (let mask = 1; mask < 1 << FIELDS.length; mask++) {
      const set = FIELDS.filter((_, i) => mask & (1 << i));
      const [row] = await findEntities(db, running.app.model, ct, { select: set, where: { id: 2 } });
      expect(Object.keys(row)).toEqual(['id', ...set]);
      expect(entityReaderCount(ct)).toBeLessThanOrEqual(ENTITY_READERS_PER_TYPE);
    }
    expect(entityReaderCount(ct)).toBe(ENTITY_READERS_PER_TYPE);
  });
});
