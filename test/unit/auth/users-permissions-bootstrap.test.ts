import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreStore } from '../../../src/auth/core-store';
import { ensureUsersPermissions } from '../../../src/auth/users-permissions-bootstrap';
import { createQueryEngine, type QueryFn } from '../../../src/query/query-engine';
import type { Database } from '../../../src/storage/dialect';
import { copyFixtureDb } from '../../helpers/fixture-db';
import { FIXTURE_DB, fixtureModel } from '../../helpers/fixture-model';
import { openTestDatabase, storedMs, type TestDatabaseOptions } from '../../helpers/test-database';

/** the tables real Strapi 4.26.2 created for the fixture app on PostgreSQL (pg_dump --schema-only) */
const V4_POSTGRES_SCHEMA = path.resolve(__dirname, '../../fixtures/strapi4-pg/schema.sql');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Env { db: Database; query: QueryFn; store: ReturnType<typeof createCoreStore> }

async function open(file: string, cleanup: () => void, opts?: TestDatabaseOptions): Promise<Env> {
  cleanups.push(cleanup);
  const db = await openTestDatabase(file, opts);
  cleanups.push(() => db.close());
  return { db, query: createQueryEngine(db, fixtureModel()), store: createCoreStore(db) };
}

/** An empty database with exactly the tables real Strapi 4.26.2 created for the fixture app (on each database). */
function emptyV4Db(): Promise<Env> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-up-'));
  const file = path.join(dir, 'data.db');
  const src = new BetterSqlite3(FIXTURE_DB, { readonly: true });
  const ddl = src.prepare(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY CASE type WHEN 'table' THEN 0 ELSE 1 END, rowid`).all() as { sql: string }[];
  src.close();
  const dst = new BetterSqlite3(file);
  for (const { sql } of ddl) dst.exec(sql);
  dst.close();
  return open(file, () => fs.rmSync(dir, { recursive: true, force: true }), { postgresScript: V4_POSTGRES_SCHEMA });
}

function fixtureCopy(): Promise<Env> {
  const tmp = copyFixtureDb();
  return open(tmp.file, tmp.cleanup);
}

const fixtureRows = (sql: string) => {
  const src = new BetterSqlite3(FIXTURE_DB, { readonly: true });
  try { return src.prepare(sql).all(); } finally { src.close(); }
};

const ROLES_SQL = 'SELECT id, name, description, type FROM up_roles ORDER BY id';
const PERMS_SQL = 'SELECT p.id, p.action, l.role_id, l.permission_order FROM up_permissions p JOIN up_permissions_role_links l ON l.permission_id = p.id ORDER BY p.id';
const STORE_SQL = `SELECT key, value, type, environment, tag FROM strapi_core_store_settings WHERE key LIKE 'plugin_users-permissions_%' ORDER BY key`;

async function snapshot(db: Database) {
  return { roles: await db.all(ROLES_SQL), perms: await db.all(PERMS_SQL), store: await db.all(STORE_SQL) };
}

describe('ensureUsersPermissions on an empty v4 database', () => {
  it('creates what v4 creates on first start: roles, default permissions, plugin settings', async () => {
    const { db, query, store } = await emptyV4Db();
    const result = await ensureUsersPermissions({ query, store });
    expect(result).toEqual({ createdRoles: ['authenticated', 'public'], createdPermissions: 9, createdSettings: ['grant', 'email', 'advanced'] });

    // the same rows real Strapi wrote (the fixture's first nine permissions are v4's defaults)
    expect(await db.all(ROLES_SQL)).toEqual(fixtureRows(ROLES_SQL));
    expect(await db.all(PERMS_SQL)).toEqual((fixtureRows(PERMS_SQL) as Array<{ action: string }>).slice(0, 9));
    // the settings byte for byte, environment and tag NULL
    expect(await db.all(STORE_SQL)).toEqual(fixtureRows(STORE_SQL));
    expect(await store({ type: 'plugin', name: 'users-permissions' }).get({ key: 'advanced' })).toEqual({
      unique_email: true, allow_register: true, email_confirmation: false, email_reset_password: null, email_confirmation_redirection: null, default_role: 'authenticated',
    });
    const roles = await db.all<{ created_at: unknown; updated_at: unknown }>('SELECT created_at, updated_at FROM up_roles');
    for (const r of roles) expect(storedMs(r.created_at)).toBeGreaterThan(0);
  });

  it('is idempotent', async () => {
    const { db, query, store } = await emptyV4Db();
    await ensureUsersPermissions({ query, store });
    const before = await snapshot(db);
    const again = await ensureUsersPermissions({ query, store });
    expect(again).toEqual({ createdRoles: [], createdPermissions: 0, createdSettings: [] });
    expect(await snapshot(db)).toEqual(before);
  });

  it('without a store only roles and permissions are set up', async () => {
    const { db, query } = await emptyV4Db();
    const result = await ensureUsersPermissions({ query });
    expect(result.createdSettings).toEqual([]);
    expect((await db.all(STORE_SQL)).length).toBe(0);
    expect((await db.all(ROLES_SQL)).length).toBe(2);
  });

  it('follows v4: roles exist but no permission at all -> the defaults for each role type', async () => {
    const { db, query } = await emptyV4Db();
    await query('plugin::users-permissions.role').create({ data: { name: 'Public', description: 'mine', type: 'public' } });
    const result = await ensureUsersPermissions({ query });
    expect(result.createdRoles).toEqual([]); // v4 creates roles only when there is none
    const perms = await db.all<{ action: string; role_id: number }>(PERMS_SQL);
    expect(perms.map((p) => p.action)).toEqual([
      'plugin::users-permissions.auth.callback', 'plugin::users-permissions.auth.connect', 'plugin::users-permissions.auth.forgotPassword',
      'plugin::users-permissions.auth.resetPassword', 'plugin::users-permissions.auth.register', 'plugin::users-permissions.auth.emailConfirmation',
      'plugin::users-permissions.auth.sendEmailConfirmation',
    ]);
  });

  it('keeps stored settings and only adds missing built-in grant providers', async () => {
    const { query, store } = await emptyV4Db();
    const up = store({ type: 'plugin', name: 'users-permissions' });
    await up.set({ key: 'advanced', value: { unique_email: false, allow_register: false, default_role: 'authenticated' } });
    await up.set({ key: 'grant', value: { email: { icon: 'envelope', enabled: false }, mine: { enabled: true } } });
    const result = await ensureUsersPermissions({ query, store });
    expect(result.createdSettings).toEqual(['grant', 'email']);
    expect(await up.get({ key: 'advanced' })).toEqual({ unique_email: false, allow_register: false, default_role: 'authenticated' });
    const grant = (await up.get({ key: 'grant' })) as Record<string, { enabled: boolean }>;
    expect(grant.email.enabled).toBe(false);
    expect(grant.mine).toEqual({ enabled: true });
    expect(grant.github).toMatchObject({ enabled: false, callbackUrl: 'api/auth/github/callback' });
  });
});

describe('ensureUsersPermissions on the database real Strapi 4.26.2 bootstrapped', () => {
  it('changes nothing', async () => {
    const { db, query, store } = await fixtureCopy();
    const before = await snapshot(db);
    const result = await ensureUsersPermissions({ query, store });
    expect(result).toEqual({ createdRoles: [], createdPermissions: 0, createdSettings: [] });
    expect(await snapshot(db)).toEqual(before);
  });
});

describe('ensureUsersPermissions after schema sync', () => {
  it('works on a database Tessera created itself', async () => {
    let syncSchema: typeof import('../../../src/storage/schema/sync-schema').syncSchema;
    try {
      ({ syncSchema } = await import('../../../src/storage/schema/sync-schema'));
    } catch {
      return; // schema sync not available in this checkout
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-up-sync-'));
    const { db, query, store } = await open(path.join(dir, 'data.db'), () => fs.rmSync(dir, { recursive: true, force: true }));
    await syncSchema(db, fixtureModel(), { info: () => undefined, warn: () => undefined });
    expect((await ensureUsersPermissions({ query, store })).createdPermissions).toBe(9);
    const before = await snapshot(db);
    expect(await ensureUsersPermissions({ query, store })).toEqual({ createdRoles: [], createdPermissions: 0, createdSettings: [] });
    expect(await snapshot(db)).toEqual(before);
    expect(before.store).toEqual(fixtureRows(STORE_SQL));
  });
});
