import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiTokenService, type ApiTokenService } from '../../../src/auth/api-token-service';
import { createAuthenticator, extractBearer, type Auth } from '../../../src/auth/authenticate';
import { createAbilityCache, FULL_ACCESS, READ_ONLY, type AbilityCache } from '../../../src/auth/abilities';
import { createQueryEngine, type QueryApi, type QueryFn, type WriteListener } from '../../../src/query/query-engine';
import type { Database } from '../../../src/storage/dialect';
import { copyFixtureDb } from '../../helpers/fixture-db';
import { openTestDatabase, sqlFor, storedMs } from '../../helpers/test-database';
import { FIXTURE_APP, fixtureModel } from '../../helpers/fixture-model';

const SALT = 'peer-api-token-salt-not-for-production';
const FIXTURE_TOKEN = fs.readFileSync(path.join(FIXTURE_APP, 'fixture-data/token.txt'), 'utf8').trim();
const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

let db: Database;
let query: QueryFn;
let tmp: ReturnType<typeof copyFixtureDb>;
let tokens: ApiTokenService;
let abilities: AbilityCache;
const listeners: WriteListener[] = [];

beforeAll(async () => {
  tmp = copyFixtureDb();
  db = await openTestDatabase(tmp.file);
  query = createQueryEngine(db, fixtureModel(), listeners);
  tokens = createApiTokenService({ query, salt: SALT });
  abilities = createAbilityCache({ query });
  listeners.push(abilities.onWrite);
});
afterAll(async () => {
  await db?.close();
  tmp.cleanup();
});

/** an authenticator registered as a write listener, as the app wires it */
function authenticator(opts: Partial<Parameters<typeof createAuthenticator>[0]> = {}) {
  const a = createAuthenticator({ query, apiTokens: tokens, abilities, log: { error: vi.fn() }, ...opts });
  listeners.push(a.onWrite);
  return a;
}

const lastUsedAt = async (id: number) => storedMs((await db.get<{ v: unknown }>(sqlFor(db, 'SELECT last_used_at AS v FROM strapi_api_tokens WHERE id = ?'), [id]))!.v);

describe('extractBearer (v4 extractToken)', () => {
  it('takes exactly two whitespace-separated parts with a case-insensitive bearer scheme', () => {
    expect(extractBearer('Bearer abc')).toBe('abc');
    expect(extractBearer('bEaReR abc')).toBe('abc');
    expect(extractBearer('Bearer  \t abc')).toBe('abc');
    expect(extractBearer(undefined)).toBeNull();
    expect(extractBearer('')).toBeNull();
    expect(extractBearer('Bearer')).toBeNull();
    expect(extractBearer('Bearer a b')).toBeNull();
    expect(extractBearer('Basic abc')).toBeNull();
    expect(extractBearer('abc')).toBeNull();
    expect(extractBearer(' Bearer abc')).toBeNull();
    expect(extractBearer('Bearer ')).toBe(''); // an empty bearer is still a bearer: v4 answers 401
  });
});

describe('authenticate', () => {
  it('the fixture database token is a full-access API token', async () => {
    const a = authenticator();
    const auth = await a.authenticate(`Bearer ${FIXTURE_TOKEN}`);
    const token = { id: 1, name: 'peer-full-access', type: 'full-access', permissions: null, expiresAt: null };
    // v4's `strategy` and `credentials` (the token) beside Tessera's own members
    expect(auth).toEqual({ kind: 'api-token', token, ability: FULL_ACCESS, strategy: { name: 'api-token' }, credentials: token });
    await a.close();
  });

  it('a header that is not `Bearer <token>` means no credentials: public', async () => {
    const a = authenticator();
    for (const h of [undefined, '', 'Basic dXNlcjpwYXNz', `Bearer ${FIXTURE_TOKEN} extra`, 'Bearer', FIXTURE_TOKEN]) {
      const auth = await a.authenticate(h);
      expect(auth.kind).toBe('public');
      expect((auth as Extract<Auth, { kind: 'public' }>).ability.can('api::article.article.find')).toBe(true);
    }
  });

  it('a bearer that is no API token is invalid credentials, never public', async () => {
    const a = authenticator();
    expect(await a.authenticate('Bearer not-a-token')).toEqual({ kind: 'none', reason: 'Missing or invalid credentials' });
    expect(await a.authenticate('bearer eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.x')).toEqual({ kind: 'none', reason: 'Missing or invalid credentials' });
    expect(await a.authenticate('Bearer ')).toEqual({ kind: 'none', reason: 'Missing or invalid credentials' });
  });

  it('without a salt no bearer can be an API token', async () => {
    const noSalt = createApiTokenService({ query, salt: '' });
    const a = createAuthenticator({ query, apiTokens: noSalt, abilities });
    expect(await a.authenticate(`Bearer ${FIXTURE_TOKEN}`)).toEqual({ kind: 'none', reason: 'Missing or invalid credentials' });
  });

  it('an expired token is 401 "Token expired"', async () => {
    const t = await tokens.create({ name: 'expiring', type: 'read-only', lifespan: 7 * DAY });
    const a = authenticator();
    expect((await a.authenticate(`Bearer ${t.accessKey}`)).kind).toBe('api-token');
    // a week and a bit later (same cached lookup: expiry is checked on every request)
    const later = createAuthenticator({ query, apiTokens: tokens, abilities, now: () => Date.now() + 7 * DAY + 1000 });
    expect(await later.authenticate(`Bearer ${t.accessKey}`)).toEqual({ kind: 'none', reason: 'Token expired' });
    // and stored in the past
    await query('admin::api-token').update({ where: { id: t.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await a.authenticate(`Bearer ${t.accessKey}`)).toEqual({ kind: 'none', reason: 'Token expired' });
    await a.close();
  });

  it('custom tokens carry their actions; read-only tokens none', async () => {
    const c = await tokens.create({ name: 'auth-custom', type: 'custom', permissions: ['api::article.article.find'] });
    const r = await tokens.create({ name: 'auth-ro', type: 'read-only', lifespan: 30 * DAY });
    const a = authenticator();
    const custom = await a.authenticate(`Bearer ${c.accessKey}`);
    expect(custom).toMatchObject({ kind: 'api-token', token: { id: c.id, type: 'custom', permissions: ['api::article.article.find'], expiresAt: null } });
    expect((custom as Extract<Auth, { kind: 'api-token' }>).ability.can('api::article.article.find')).toBe(true);
    expect((custom as Extract<Auth, { kind: 'api-token' }>).ability.can('api::article.article.findOne')).toBe(false);
    const roToken = { id: r.id, name: 'auth-ro', type: 'read-only', permissions: null, expiresAt: r.expiresAt };
    expect(await a.authenticate(`Bearer ${r.accessKey}`)).toEqual({ kind: 'api-token', token: roToken, ability: READ_ONLY, strategy: { name: 'api-token' }, credentials: roToken });
    // permission changes reach the cached token
    await tokens.update(c.id, { permissions: ['api::page.page.find'] });
    expect(await a.authenticate(`Bearer ${c.accessKey}`)).toMatchObject({ token: { permissions: ['api::page.page.find'] } });
    await a.close();
  });

  it('caches lookups: a repeated bearer costs no statement', async () => {
    const t = await tokens.create({ name: 'cached', type: 'full-access' });
    const a = authenticator();
    await a.authenticate(`Bearer ${t.accessKey}`);
    await a.close(); // the first use writes lastUsedAt in the background
    await a.authenticate(`Bearer ${t.accessKey}`); // re-read once after that write
    const before = db.statementCount;
    for (let i = 0; i < 5; i++) expect((await a.authenticate(`Bearer ${t.accessKey}`)).kind).toBe('api-token');
    for (let i = 0; i < 5; i++) expect((await a.authenticate('Bearer unknown-one')).kind).toBe('none');
    expect(db.statementCount - before).toBe(1); // the unknown bearer, once
  });

  it('the cache is bounded', async () => {
    const a = authenticator({ cacheSize: 3 });
    for (let i = 0; i < 10; i++) await a.authenticate(`Bearer unknown-${i}`);
    expect(a.cacheSize).toBe(3);
  });

  it('revoking a token takes effect at once (write listener)', async () => {
    const t = await tokens.create({ name: 'revoked', type: 'full-access' });
    const a = authenticator();
    expect((await a.authenticate(`Bearer ${t.accessKey}`)).kind).toBe('api-token');
    await a.close();
    expect((await a.authenticate(`Bearer ${t.accessKey}`)).kind).toBe('api-token');
    await tokens.revoke(t.id);
    expect(await a.authenticate(`Bearer ${t.accessKey}`)).toEqual({ kind: 'none', reason: 'Missing or invalid credentials' });
  });

  it('regenerating a token invalidates the old secret at once', async () => {
    const t = await tokens.create({ name: 'regen-auth', type: 'full-access' });
    const a = authenticator();
    expect((await a.authenticate(`Bearer ${t.accessKey}`)).kind).toBe('api-token');
    const r = await tokens.regenerate(t.id);
    expect((await a.authenticate(`Bearer ${t.accessKey}`)).kind).toBe('none');
    expect((await a.authenticate(`Bearer ${r.accessKey}`)).kind).toBe('api-token');
    await a.close();
  });

  it('a change made elsewhere (no listener) shows up after the cache TTL', async () => {
    const t = await tokens.create({ name: 'elsewhere', type: 'full-access' });
    let clock = Date.now();
    const a = createAuthenticator({ query, apiTokens: tokens, abilities, cacheTtlMs: 1000, now: () => clock }); // not registered
    expect((await a.authenticate(`Bearer ${t.accessKey}`)).kind).toBe('api-token');
    await a.close();
    await tokens.revoke(t.id);
    expect((await a.authenticate(`Bearer ${t.accessKey}`)).kind).toBe('api-token');
    clock += 1001;
    expect((await a.authenticate(`Bearer ${t.accessKey}`)).kind).toBe('none');
  });
});

describe('lastUsedAt', () => {
  it('is written on first use and then at most once a minute', async () => {
    const t = await tokens.create({ name: 'usage', type: 'full-access' });
    let clock = Date.now();
    const a = authenticator({ now: () => clock });
    expect(await lastUsedAt(t.id)).toBeNull();
    await a.authenticate(`Bearer ${t.accessKey}`);
    await a.close();
    expect(await lastUsedAt(t.id)).toBe(clock);
    const first = clock;
    clock += 59 * 1000;
    await a.authenticate(`Bearer ${t.accessKey}`);
    await a.close();
    expect(await lastUsedAt(t.id)).toBe(first);
    clock = first + MINUTE;
    await a.authenticate(`Bearer ${t.accessKey}`);
    await a.close();
    expect(await lastUsedAt(t.id)).toBe(first + MINUTE);
    // a fresh process (empty memory) reads the stored value and does not write again within the minute
    const b = createAuthenticator({ query, apiTokens: tokens, abilities, now: () => first + MINUTE + 30 * 1000 });
    await b.authenticate(`Bearer ${t.accessKey}`);
    await b.close();
    expect(await lastUsedAt(t.id)).toBe(first + MINUTE);
  });

  it('is written off the request path, and a failed write is only logged', async () => {
    const t = await tokens.create({ name: 'slow-write', type: 'full-access' });
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const slowQuery = ((uid: string) => {
      const api = query(uid);
      return { ...api, update: async (p) => { await gate; throw new Error(`disk full ${String(p.where?.id)}`); } } as QueryApi;
    }) as QueryFn;
    const error = vi.fn();
    const a = createAuthenticator({ query: slowQuery, apiTokens: tokens, abilities, log: { error } });
    const auth = await a.authenticate(`Bearer ${t.accessKey}`); // resolves while the write is held
    expect(auth.kind).toBe('api-token');
    expect(error).not.toHaveBeenCalled();
    // the same token again within the minute: no second write queued
    await a.authenticate(`Bearer ${t.accessKey}`);
    release();
    await a.close();
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0][1]).toMatch(/lastUsedAt/);
  });
});
