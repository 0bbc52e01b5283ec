// The response cache's own rules (src/cache/): validity against this process's commits and the others' token,
// the byte bound, ETags and If-None-Match, caller keys, the tables an answer can read, and its configuration.
import { afterEach, describe, expect, it } from 'vitest';
import { abilityOf, FULL_ACCESS, READ_ONLY } from '../../../src/auth/abilities';
import { answerTables } from '../../../src/cache/answer-tables';
import { responseCacheConfig } from '../../../src/cache/cache-config';
import { etagOf, matchesIfNoneMatch, permissionsKey, ResponseCache, type Snapshot } from '../../../src/cache/response-cache';
import { SqliteDatabase } from '../../../src/storage/sqlite/sqlite-database';
import { fixtureModel } from '../../helpers/fixture-model';

let db: SqliteDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

async function memoryDb(): Promise<SqliteDatabase> {
  db = new SqliteDatabase(':memory:');
  await db.exec('CREATE TABLE a (id integer); CREATE TABLE b (id integer)');
  return db;
}

const miss = (r: unknown): Snapshot => (r as { miss: Snapshot }).miss;

describe('ResponseCache', () => {
  it('serves an entry until a commit writes one of its tables', async () => {
    const d = await memoryDb();
    const cache = new ResponseCache(d, { enabled: true, maxBytes: 1 << 20, cacheControl: 'no-cache' });
    const at = miss(cache.lookup('k'));
    cache.store('k', at, ['a'], 200, 'application/json', '{"x":1}');
    expect(cache.lookup('k')).toMatchObject({ hit: { status: 200 } });
    await d.transaction((tx) => tx.run('INSERT INTO b VALUES (1)'));
    expect(cache.lookup('k')).toHaveProperty('hit');
    await d.transaction((tx) => tx.run('INSERT INTO a VALUES (1)'));
    expect(cache.lookup('k')).toHaveProperty('miss');
  });

  it('an answer built while a commit happened is never served (it was noted before the commit)', async () => {
    const d = await memoryDb();
    const cache = new ResponseCache(d, { enabled: true, maxBytes: 1 << 20, cacheControl: false });
    const at = miss(cache.lookup('k'));
    await d.transaction((tx) => tx.run('INSERT INTO a VALUES (1)'));
    cache.store('k', at, ['a'], 200, 'application/json', '{"old":true}');
    expect(cache.lookup('k')).toHaveProperty('miss');
  });

  it('a rolled back transaction changes nothing', async () => {
    const d = await memoryDb();
    const cache = new ResponseCache(d, { enabled: true, maxBytes: 1 << 20, cacheControl: false });
    cache.store('k', miss(cache.lookup('k')), ['a'], 200, 'application/json', '{}');
    await expect(d.transaction(async (tx) => {
      await tx.run('INSERT INTO a VALUES (1)');
      throw new Error('no');
    })).rejects.toThrow('no');
    expect(cache.lookup('k')).toHaveProperty('hit');
  });

  it('keeps at most maxBytes, least recently used out first', async () => {
    const d = await memoryDb();
    const cache = new ResponseCache(d, { enabled: true, maxBytes: 8_000, cacheControl: false });
    const body = 'x'.repeat(600);
    for (let i = 0; i < 20; i++) cache.store(`k${i}`, miss(cache.lookup(`k${i}`)), ['a'], 200, 'text/plain', body);
    expect(cache.size.bytes).toBeLessThanOrEqual(8_000);
    expect(cache.lookup('k19')).toHaveProperty('hit');
    expect(cache.lookup('k0')).toHaveProperty('miss');
    // bigger than an eighth of the whole: sent, not kept
    cache.store('big', miss(cache.lookup('big')), ['a'], 200, 'text/plain', 'y'.repeat(2_000));
    expect(cache.lookup('big')).toHaveProperty('miss');
  });
});

describe('ETags', () => {
  it('are strong digests of the body, compared as If-None-Match compares them', () => {
    const tag = etagOf(Buffer.from('{"data":[]}'));
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(etagOf(Buffer.from('{"data":[1]}'))).not.toBe(tag);
    expect(matchesIfNoneMatch(tag, tag)).toBe(true);
    expect(matchesIfNoneMatch(`W/${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch(`"a", ${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch('*', tag)).toBe(true);
    expect(matchesIfNoneMatch('"a"', tag)).toBe(false);
    expect(matchesIfNoneMatch(undefined, tag)).toBe(false);
  });
});

describe('caller keys', () => {
  it('are the same for the same permissions, whoever holds them', () => {
    expect(permissionsKey(abilityOf(['b', 'a']))).toBe(permissionsKey(abilityOf(['a', 'b'])));
    expect(permissionsKey(abilityOf(['a']))).not.toBe(permissionsKey(abilityOf(['a', 'b'])));
    expect(permissionsKey(FULL_ACCESS)).toBe('full');
    expect(permissionsKey(READ_ONLY)).toBe('read');
    expect(permissionsKey({ size: 1, can: () => true })).toBeNull();
  });
});

describe('answerTables', () => {
  it('reaches the link tables, relations, components and media of a type, and no bookkeeping table', () => {
    const tables = answerTables(fixtureModel(), ['api::article.article']);
    for (const t of ['articles', 'articles_author_links', 'authors', 'articles_categories_links', 'categories', 'files', 'files_related_morphs', 'i18n_locale']) expect(tables).toContain(t);
    for (const t of ['strapi_api_tokens', 'strapi_core_store_settings', 'strapi_webhooks', 'strapi_database_schema']) expect(tables).not.toContain(t);
    expect(answerTables(fixtureModel(), ['api::article.article'])).toEqual(tables);
  });
});

describe('responseCacheConfig', () => {
  it('defaults to on, 64 MB, no-cache; the switch overrides enabled; bad values stop start-up', () => {
    expect(responseCacheConfig(undefined, undefined, 'f')).toEqual({ enabled: true, maxBytes: 64 * 1024 * 1024, cacheControl: 'no-cache' });
    expect(responseCacheConfig(false, undefined, 'f').enabled).toBe(false);
    expect(responseCacheConfig({ cacheControl: 'private, max-age=0' }, 'off', 'f')).toMatchObject({ enabled: false, cacheControl: 'private, max-age=0' });
    expect(responseCacheConfig({ enabled: false }, 'on', 'f').enabled).toBe(true);
    expect(() => responseCacheConfig({ maxBytes: -1 }, undefined, 'f')).toThrow(/maxBytes/);
    expect(() => responseCacheConfig('yes', undefined, 'f')).toThrow(/responseCache/);
  });
});
