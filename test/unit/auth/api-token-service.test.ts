import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiTokenService, type ApiTokenService } from '../../../src/auth/api-token-service';
import { NotFoundError, ValidationError } from '../../../src/errors';
import { createQueryEngine, type QueryFn } from '../../../src/query/query-engine';
import type { Database } from '../../../src/storage/dialect';
import { copyFixtureDb } from '../../helpers/fixture-db';
import { openTestDatabase, sqlFor, storedMs } from '../../helpers/test-database';
import { FIXTURE_APP, fixtureModel } from '../../helpers/fixture-model';

const SALT = 'peer-api-token-salt-not-for-production';
const FIXTURE_TOKEN = fs.readFileSync(path.join(FIXTURE_APP, 'fixture-data/token.txt'), 'utf8').trim();
const DAY = 24 * 60 * 60 * 1000;

let db: Database;
let query: QueryFn;
let tmp: ReturnType<typeof copyFixtureDb>;
let tokens: ApiTokenService;

beforeAll(async () => {
  tmp = copyFixtureDb();
  db = await openTestDatabase(tmp.file);
  query = createQueryEngine(db, fixtureModel());
  tokens = createApiTokenService({ query, salt: SALT });
});
afterAll(async () => {
  await db?.close();
  tmp.cleanup();
});

const row = (sql: string, params: unknown[] = []) => db.get<Record<string, unknown>>(sqlFor(db, sql), params as never);

describe('admin::api-token service on a database written by Strapi 4.26.2', () => {
  it('hashes as v4 does: the fixture token matches the stored access_key', async () => {
    const stored = await row('SELECT access_key FROM strapi_api_tokens WHERE id = 1');
    expect(tokens.hash(FIXTURE_TOKEN)).toBe(stored!.access_key);
    expect(tokens.hash(FIXTURE_TOKEN)).toBe(crypto.createHmac('sha512', SALT).update(FIXTURE_TOKEN).digest('hex'));
    const found = await tokens.getBy({ accessKey: tokens.hash(FIXTURE_TOKEN) });
    expect(found).toMatchObject({ id: 1, name: 'peer-full-access', type: 'full-access', expiresAt: null, lifespan: null, permissions: [] });
    expect(found).not.toHaveProperty('accessKey');
  });

  it('getByName / getById / exists return v4 SELECT_FIELDS plus flattened permissions, never the key', async () => {
    const t = await tokens.getByName('peer-full-access');
    expect(Object.keys(t!).sort()).toEqual(['createdAt', 'description', 'expiresAt', 'id', 'lastUsedAt', 'lifespan', 'name', 'permissions', 'type', 'updatedAt']);
    expect(await tokens.getById(1)).toEqual(t);
    expect(await tokens.getByName('nope')).toBeNull();
    expect(await tokens.getBy({})).toBeNull();
    expect(await tokens.exists({ name: 'peer-full-access' })).toBe(true);
  });

  it('create: a 256-hex secret shown once, its HMAC stored, expiry from the lifespan', async () => {
    const before = Date.now();
    const t = await tokens.create({ name: 'ro-7', description: 'seven days', type: 'read-only', lifespan: 7 * DAY });
    expect(t.accessKey).toMatch(/^[0-9a-f]{256}$/);
    expect(Object.keys(t).sort()).toEqual(['accessKey', 'createdAt', 'description', 'expiresAt', 'id', 'lastUsedAt', 'lifespan', 'name', 'permissions', 'type', 'updatedAt']);
    expect(t).toMatchObject({ name: 'ro-7', description: 'seven days', type: 'read-only', lastUsedAt: null, lifespan: String(7 * DAY), permissions: [] });
    const exp = new Date(t.expiresAt!).getTime();
    expect(exp).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(exp).toBeLessThanOrEqual(Date.now() + 7 * DAY);
    const stored = await row('SELECT access_key, lifespan, expires_at FROM strapi_api_tokens WHERE id = ?', [t.id]);
    expect({ ...stored, lifespan: Number(stored!.lifespan), expires_at: storedMs(stored!.expires_at) }).toEqual({ access_key: tokens.hash(t.accessKey), lifespan: 7 * DAY, expires_at: exp });
    // the listing never shows it again
    const listed = (await tokens.list()).find((x) => x.id === t.id)!;
    expect(listed).not.toHaveProperty('accessKey');
  });

  it('create: unlimited by default, default description and type from the schema', async () => {
    const t = await tokens.create({ name: 'plain' });
    expect(t).toMatchObject({ type: 'read-only', description: '', lifespan: null, expiresAt: null });
  });

  it('create: custom tokens store their actions as admin::api-token-permission rows', async () => {
    const t = await tokens.create({ name: 'custom-1', type: 'custom', permissions: ['api::article.article.find', 'api::article.article.findOne', 'api::article.article.find'] });
    expect(t.permissions).toEqual(['api::article.article.find', 'api::article.article.findOne']);
    const links = await db.all<{ action: string }>(sqlFor(db, 'SELECT p.action FROM strapi_api_token_permissions p JOIN strapi_api_token_permissions_token_links l ON l.api_token_permission_id = p.id WHERE l.api_token_id = ? ORDER BY p.id'), [t.id]);
    expect(links.map((l) => l.action)).toEqual(['api::article.article.find', 'api::article.article.findOne']);
    expect(await tokens.permissionsOf(t)).toEqual(['api::article.article.find', 'api::article.article.findOne']);
    expect((await tokens.getById(t.id))!.permissions).toEqual(['api::article.article.find', 'api::article.article.findOne']);
  });

  it('create: v4 validation of type, permissions and lifespan', async () => {
    await expect(tokens.create({ name: 'x1', type: 'read-only', permissions: ['api::article.article.find'] })).rejects.toThrow(new ValidationError('Non-custom tokens should not reference permissions'));
    await expect(tokens.create({ name: 'x2', type: 'custom' })).rejects.toThrow(new ValidationError('Missing permissions attribute for custom token'));
    await expect(tokens.create({ name: 'x3', type: 'full-access', lifespan: 12345 })).rejects.toBeInstanceOf(ValidationError);
    await expect(tokens.create({ name: 'x3', type: 'full-access', lifespan: 12345 })).rejects.toThrow(/^lifespan must be one of the following values: \n {6}, 604800000, 2592000000, 7776000000$/); // v4 joins UNLIMITED (null) too
    await expect(tokens.create({ name: '', type: 'full-access' })).rejects.toBeInstanceOf(ValidationError);
    await expect(tokens.create({ name: 'x4', type: 'admin' as never })).rejects.toBeInstanceOf(ValidationError);
    const strict = createApiTokenService({ query, salt: SALT, validActions: () => ['api::article.article.find'] });
    await expect(strict.create({ name: 'x5', type: 'custom', permissions: ['api::nope.nope.find'] })).rejects.toThrow('Unknown permissions provided: api::nope.nope.find');
    expect(await tokens.getByName('x1')).toBeNull();
  });

  it('list: by name, flattened permissions', async () => {
    const all = await tokens.list();
    const names = all.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(all.find((t) => t.name === 'custom-1')!.permissions).toEqual(['api::article.article.find', 'api::article.article.findOne']);
  });

  it('regenerate: a new secret, the old one no longer matches', async () => {
    const t = await tokens.create({ name: 'regen', type: 'full-access' });
    const r = await tokens.regenerate(t.id);
    expect(r.id).toBe(t.id);
    expect(r.accessKey).toMatch(/^[0-9a-f]{256}$/);
    expect(r.accessKey).not.toBe(t.accessKey);
    expect(await tokens.getBy({ accessKey: tokens.hash(t.accessKey) })).toBeNull();
    expect((await tokens.getBy({ accessKey: tokens.hash(r.accessKey) }))!.id).toBe(t.id);
    await expect(tokens.regenerate(99999)).rejects.toThrow(new NotFoundError('The provided token id does not exist'));
  });

  it('update: permissions follow the type; unknown id is a NotFoundError', async () => {
    const t = await tokens.create({ name: 'upd', type: 'custom', permissions: ['api::article.article.find'] });
    const u1 = await tokens.update(t.id, { permissions: ['api::article.article.findOne', 'api::page.page.find'] });
    expect([...u1.permissions as string[]].sort()).toEqual(['api::article.article.findOne', 'api::page.page.find']);
    const u2 = await tokens.update(t.id, { type: 'read-only', description: 'now read-only' });
    expect(u2).toMatchObject({ type: 'read-only', description: 'now read-only', permissions: [] });
    expect(await tokens.permissionsOf(t)).toEqual([]);
    await expect(tokens.update(t.id, { type: 'custom' })).rejects.toThrow(new ValidationError('Missing permissions attribute for custom token'));
    await expect(tokens.update(99999, { name: 'x' })).rejects.toThrow(new NotFoundError('Token not found'));
  });

  it('revoke: deletes and returns the token as it was', async () => {
    const t = await tokens.create({ name: 'to-revoke', type: 'custom', permissions: ['api::page.page.find'] });
    const gone = await tokens.revoke(t.id);
    expect(gone).toMatchObject({ id: t.id, name: 'to-revoke', type: 'custom' });
    expect(await tokens.getById(t.id)).toBeNull();
    expect(await tokens.revoke(t.id)).toBeNull();
  });

  it('without a salt nothing can be hashed', () => {
    const none = createApiTokenService({ query, salt: '' });
    expect(() => none.checkSaltIsDefined()).toThrow(/^Missing apiToken\.salt/);
    expect(() => none.hash('x')).toThrow(/Missing apiToken\.salt/);
    expect(() => tokens.checkSaltIsDefined()).not.toThrow();
  });
});
