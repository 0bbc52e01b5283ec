import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auth } from '../../../src/auth/authenticate';
import { createAuthenticator } from '../../../src/auth/authenticate';
import { createApiTokenService } from '../../../src/auth/api-token-service';
import { createPermissionChecker, isReadScope, type PermissionChecker } from '../../../src/auth/permissions';
import { ApplicationError, ForbiddenError, UnauthorizedError, toErrorBody } from '../../../src/errors';
import { createQueryEngine, type QueryFn, type WriteListener } from '../../../src/query/query-engine';
import { SqliteDatabase } from '../../../src/storage/sqlite/sqlite-database';
import { copyFixtureDb } from '../../helpers/fixture-db';
import { fixtureModel } from '../../helpers/fixture-model';

let db: SqliteDatabase;
let query: QueryFn;
let tmp: ReturnType<typeof copyFixtureDb>;
let checker: PermissionChecker;
const listeners: WriteListener[] = [];

beforeAll(async () => {
  tmp = copyFixtureDb();
  db = new SqliteDatabase(tmp.file);
  query = createQueryEngine(db, fixtureModel(), listeners);
  checker = createPermissionChecker({ query });
  listeners.push(checker.onWrite);
  await checker.load();
});
afterAll(async () => {
  await db.close();
  tmp.cleanup();
});

/** what authorize threw, as the HTTP error body */
function outcome(auth: Auth, action: string, c: PermissionChecker = checker): string {
  try {
    c.authorize(auth, action);
    return 'allowed';
  } catch (err) {
    expect(err).toBeInstanceOf(ApplicationError);
    const { status, body } = toErrorBody(err);
    return `${status} ${body.error.name} ${body.error.message}`;
  }
}

const PUBLIC: Auth = { kind: 'public' };
const token = (type: 'read-only' | 'full-access' | 'custom', permissions: string[] | null = null): Auth =>
  ({ kind: 'api-token', token: { id: 1, type, permissions, expiresAt: null } });

describe('authorize: invalid credentials', () => {
  it('is 401 with the reason', () => {
    expect(outcome({ kind: 'none', reason: 'Missing or invalid credentials' }, 'api::article.article.find')).toBe('401 UnauthorizedError Missing or invalid credentials');
    expect(outcome({ kind: 'none', reason: 'Token expired' }, 'api::article.article.find')).toBe('401 UnauthorizedError Token expired');
    expect(() => checker.authorize({ kind: 'none', reason: 'Token expired' }, 'x')).toThrow(UnauthorizedError);
  });
});

describe('authorize: the Public role (fixture: its actions granted by the app bootstrap)', () => {
  it('loads the Public role actions only', () => {
    const actions = checker.publicActions();
    expect(actions.has('api::article.article.find')).toBe(true);
    expect(actions.has('plugin::users-permissions.auth.register')).toBe(true);
    expect(actions.has('plugin::users-permissions.user.me')).toBe(false); // Authenticated role's
    expect(actions.size).toBe(35);
  });

  it('allows granted actions and forbids the rest with 403 "Forbidden"', () => {
    expect(outcome(PUBLIC, 'api::article.article.find')).toBe('allowed');
    expect(outcome(PUBLIC, 'api::homepage.homepage.find')).toBe('allowed');
    // checked against the running Strapi 4.26.2: GET /api/users without credentials
    expect(outcome(PUBLIC, 'plugin::users-permissions.user.find')).toBe('403 ForbiddenError Forbidden');
    expect(outcome(PUBLIC, 'plugin::users-permissions.user.me')).toBe('403 ForbiddenError Forbidden');
    expect(() => checker.authorize(PUBLIC, 'api::nope.nope.find')).toThrow(ForbiddenError);
  });
});

describe('authorize: API tokens (v4 api-token strategy verify)', () => {
  it('full-access allows everything', () => {
    for (const a of ['api::article.article.delete', 'plugin::users-permissions.user.find', 'plugin::upload.content-api.upload']) {
      expect(outcome(token('full-access'), a)).toBe('allowed');
    }
  });

  it('read-only allows actions ending in find / findOne only', () => {
    expect(outcome(token('read-only'), 'api::article.article.find')).toBe('allowed');
    expect(outcome(token('read-only'), 'api::article.article.findOne')).toBe('allowed');
    expect(outcome(token('read-only'), 'plugin::upload.content-api.find')).toBe('allowed');
    expect(outcome(token('read-only'), 'plugin::users-permissions.user.find')).toBe('allowed');
    for (const a of ['api::article.article.create', 'api::article.article.update', 'api::article.article.delete', 'plugin::users-permissions.user.count', 'plugin::i18n.locales.listLocales', 'plugin::users-permissions.user.me']) {
      expect(outcome(token('read-only'), a)).toBe('403 ForbiddenError Forbidden');
    }
    expect(isReadScope('api::a.a.customfind')).toBe(true); // v4 tests the suffix without the dot
  });

  it('custom allows its own actions only', () => {
    const t = token('custom', ['api::article.article.find', 'api::article.article.create']);
    expect(outcome(t, 'api::article.article.find')).toBe('allowed');
    expect(outcome(t, 'api::article.article.create')).toBe('allowed');
    expect(outcome(t, 'api::article.article.findOne')).toBe('403 ForbiddenError Forbidden');
    expect(outcome(token('custom', null), 'api::article.article.find')).toBe('403 ForbiddenError Forbidden');
  });
});

describe('authorize: Public role changes', () => {
  it('a granted permission is seen after the write (listener + ready)', async () => {
    expect(outcome(PUBLIC, 'plugin::users-permissions.user.find')).toBe('403 ForbiddenError Forbidden');
    const created = await query('plugin::users-permissions.permission').create({ data: { action: 'plugin::users-permissions.user.find', role: 2 } });
    await checker.ready();
    expect(outcome(PUBLIC, 'plugin::users-permissions.user.find')).toBe('allowed');
    await query('plugin::users-permissions.permission').delete({ where: { id: created.id } });
    await checker.ready();
    expect(outcome(PUBLIC, 'plugin::users-permissions.user.find')).toBe('403 ForbiddenError Forbidden');
  });

  it('an authenticator wired to the checker waits for the reload itself', async () => {
    const apiTokens = createApiTokenService({ query, salt: 'x' });
    const authn = createAuthenticator({ query, apiTokens, permissions: checker });
    await query('plugin::users-permissions.permission').create({ data: { action: 'api::author.author.count', role: 2 } });
    const auth = await authn.authenticate(undefined);
    expect(outcome(auth, 'api::author.author.count')).toBe('allowed');
    await query('plugin::users-permissions.permission').deleteMany({ where: { action: 'api::author.author.count' } });
    expect(outcome(await authn.authenticate(undefined), 'api::author.author.count')).toBe('403 ForbiddenError Forbidden');
  });

  it('moving permissions off the Public role counts (role writes invalidate too)', async () => {
    const perm = await query('plugin::users-permissions.permission').create({ data: { action: 'api::page.page.count', role: 2 } });
    await checker.ready();
    expect(outcome(PUBLIC, 'api::page.page.count')).toBe('allowed');
    await query('plugin::users-permissions.role').update({ where: { id: 1 }, data: { permissions: { connect: [perm.id] } } });
    await checker.ready();
    expect(outcome(PUBLIC, 'api::page.page.count')).toBe('403 ForbiddenError Forbidden');
  });

  it('with no Public permission at all the caller is not authenticated: 401, not 403', async () => {
    const { count } = await query('plugin::users-permissions.permission').deleteMany({ where: { role: { type: 'public' } } });
    expect(count).toBeGreaterThan(0);
    await checker.ready();
    expect(checker.publicActions().size).toBe(0);
    expect(outcome(PUBLIC, 'api::article.article.find')).toBe('401 UnauthorizedError Missing or invalid credentials');
    // API tokens are unaffected
    expect(outcome(token('read-only'), 'api::article.article.find')).toBe('allowed');
  });

  it('a stale set is re-read in the background once older than maxAgeMs', async () => {
    let clock = 0;
    const c = createPermissionChecker({ query, maxAgeMs: 1000, now: () => clock }); // not a listener
    await c.load();
    expect(outcome(PUBLIC, 'api::article.article.find', c)).toBe('401 UnauthorizedError Missing or invalid credentials');
    await query('plugin::users-permissions.permission').create({ data: { action: 'api::article.article.find', role: 2 } });
    expect(outcome(PUBLIC, 'api::article.article.find', c)).toBe('401 UnauthorizedError Missing or invalid credentials');
    clock = 2000;
    expect(outcome(PUBLIC, 'api::article.article.find', c)).toBe('401 UnauthorizedError Missing or invalid credentials'); // this one still sees the old set
    await c.ready();
    expect(outcome(PUBLIC, 'api::article.article.find', c)).toBe('allowed');
  });

  it('refuses to guess before it is loaded', () => {
    const c = createPermissionChecker({ query });
    expect(() => c.authorize(PUBLIC, 'api::article.article.find')).toThrow(/not loaded/);
  });
});
