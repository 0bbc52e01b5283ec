// The access check: authorize() over the request's Ability (v4's api-token and users-permissions
// `verify`), and the role abilities it is computed from, cached per role and dropped on permission writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auth } from '../../../src/auth/authenticate';
import { abilityOf, createAbilityCache, FULL_ACCESS, NO_ACCESS, READ_ONLY, type AbilityCache } from '../../../src/auth/abilities';
import { authorize, canFind, isReadScope } from '../../../src/auth/permissions';
import { ApplicationError, ForbiddenError, UnauthorizedError, toErrorBody } from '../../../src/errors';
import { createQueryEngine, type QueryFn, type WriteListener } from '../../../src/query/query-engine';
import type { Database } from '../../../src/storage/dialect';
import { copyFixtureDb } from '../../helpers/fixture-db';
import { openTestDatabase } from '../../helpers/test-database';
import { fixtureModel } from '../../helpers/fixture-model';

let db: Database;
let query: QueryFn;
let tmp: ReturnType<typeof copyFixtureDb>;
let cache: AbilityCache;
const listeners: WriteListener[] = [];

beforeAll(async () => {
  tmp = copyFixtureDb();
  db = await openTestDatabase(tmp.file);
  query = createQueryEngine(db, fixtureModel(), listeners);
  cache = createAbilityCache({ query });
  listeners.push(cache.onWrite);
});
afterAll(async () => {
  await db?.close();
  tmp.cleanup();
});

/** what authorize threw, as the HTTP error body */
function outcome(auth: Auth, action: string): string {
  try {
    authorize(auth, action);
    return 'allowed';
  } catch (err) {
    expect(err).toBeInstanceOf(ApplicationError);
    const { status, body } = toErrorBody(err);
    return `${status} ${body.error.name} ${body.error.message}`;
  }
}

const publicAuth = async (): Promise<Auth> => ({ kind: 'public', ability: await cache.forPublic() });
const token = (type: 'read-only' | 'full-access' | 'custom', permissions: string[] | null = null): Auth => ({
  kind: 'api-token',
  token: { id: 1, type, permissions, expiresAt: null },
  ability: type === 'full-access' ? FULL_ACCESS : type === 'read-only' ? READ_ONLY : abilityOf(permissions ?? []),
});
const user = (actions: string[]): Auth => ({ kind: 'user', user: { id: 1 }, ability: abilityOf(actions) });

describe('authorize: invalid credentials', () => {
  it('is 401 with the reason, whatever the action', () => {
    expect(outcome({ kind: 'none', reason: 'Missing or invalid credentials' }, 'api::article.article.find')).toBe('401 UnauthorizedError Missing or invalid credentials');
    expect(outcome({ kind: 'none', reason: 'Token expired' }, 'api::article.article.find')).toBe('401 UnauthorizedError Token expired');
    expect(outcome({ kind: 'none', reason: 'Invalid credentials' }, 'plugin::users-permissions.user.me')).toBe('401 UnauthorizedError Invalid credentials');
    expect(() => authorize({ kind: 'none', reason: 'Token expired' }, 'x')).toThrow(UnauthorizedError);
  });
});

describe('authorize: the Public role (fixture: its actions granted by the app bootstrap)', () => {
  it('loads the Public role actions only', async () => {
    const ability = await cache.forPublic();
    expect(ability.can('api::article.article.find')).toBe(true);
    expect(ability.can('plugin::users-permissions.auth.register')).toBe(true);
    expect(ability.can('plugin::users-permissions.user.me')).toBe(false); // Authenticated role's
    expect(ability.size).toBe(35);
  });

  it('allows granted actions and forbids the rest with 403 "Forbidden"', async () => {
    const pub = await publicAuth();
    expect(outcome(pub, 'api::article.article.find')).toBe('allowed');
    expect(outcome(pub, 'plugin::users-permissions.user.find')).toBe('403 ForbiddenError Forbidden');
    expect(() => authorize(pub, 'api::nope.nope.find')).toThrow(ForbiddenError);
  });

  it('with no permission at all the caller is not authenticated: 401, not 403 (v4)', () => {
    expect(outcome({ kind: 'public', ability: NO_ACCESS }, 'api::article.article.find')).toBe('401 UnauthorizedError Missing or invalid credentials');
  });
});

describe('authorize: API tokens (v4 api-token strategy verify)', () => {
  it('full-access allows everything', () => {
    for (const a of ['api::article.article.delete', 'plugin::users-permissions.user.find', 'plugin::upload.content-api.upload']) expect(outcome(token('full-access'), a)).toBe('allowed');
  });

  it('read-only allows actions ending in find / findOne only', () => {
    expect(outcome(token('read-only'), 'api::article.article.find')).toBe('allowed');
    expect(outcome(token('read-only'), 'api::article.article.findOne')).toBe('allowed');
    expect(outcome(token('read-only'), 'plugin::users-permissions.user.find')).toBe('allowed');
    for (const a of ['api::article.article.create', 'api::article.article.update', 'api::article.article.delete', 'plugin::users-permissions.user.count', 'plugin::users-permissions.user.me']) {
      expect(outcome(token('read-only'), a)).toBe('403 ForbiddenError Forbidden');
    }
    expect(isReadScope('api::a.a.customfind')).toBe(true); // v4 tests the suffix without the dot
  });

  it('custom allows its own actions only, and no token type falls back to 401', () => {
    const t = token('custom', ['api::article.article.find', 'api::article.article.create']);
    expect(outcome(t, 'api::article.article.find')).toBe('allowed');
    expect(outcome(t, 'api::article.article.create')).toBe('allowed');
    expect(outcome(t, 'api::article.article.findOne')).toBe('403 ForbiddenError Forbidden');
    expect(outcome(token('custom', []), 'api::article.article.find')).toBe('403 ForbiddenError Forbidden');
  });
});

describe('authorize: users (JWT)', () => {
  it('their role decides, 403 otherwise (an empty role is still authenticated)', () => {
    expect(outcome(user(['plugin::users-permissions.user.me']), 'plugin::users-permissions.user.me')).toBe('allowed');
    expect(outcome(user(['plugin::users-permissions.user.me']), 'plugin::users-permissions.user.find')).toBe('403 ForbiddenError Forbidden');
    expect(outcome(user([]), 'api::article.article.find')).toBe('403 ForbiddenError Forbidden');
  });
});

describe('canFind: what a request reaches indirectly', () => {
  it('asks for `<uid>.find` of the Ability', async () => {
    expect(canFind(await publicAuth(), 'api::article.article')).toBe(true);
    expect(canFind(await publicAuth(), 'plugin::users-permissions.role')).toBe(false);
    expect(canFind(token('read-only'), 'plugin::users-permissions.role')).toBe(true);
    expect(canFind(token('custom', ['api::article.article.findOne']), 'api::article.article')).toBe(false);
    expect(canFind(user(['api::category.category.find']), 'api::category.category')).toBe(true);
    expect(canFind({ kind: 'none', reason: 'Token expired' }, 'api::category.category')).toBe(false);
  });
});

describe('role abilities: cached per role, invalidated by permission and role writes', () => {
  it('reads each role once while nothing changes', async () => {
    const c = createAbilityCache({ query });
    await c.forRole(1);
    const before = db.statementCount;
    for (let i = 0; i < 5; i++) expect((await c.forRole(1)).can('plugin::users-permissions.user.me')).toBe(true);
    expect(db.statementCount - before).toBe(0);
  });

  it('a granted permission is seen by the next request', async () => {
    expect((await cache.forRole(1)).can('api::article.article.find')).toBe(false);
    const created = await query('plugin::users-permissions.permission').create({ data: { action: 'api::article.article.find', role: 1 } });
    expect((await cache.forRole(1)).can('api::article.article.find')).toBe(true);
    await query('plugin::users-permissions.permission').delete({ where: { id: created.id } });
    expect((await cache.forRole(1)).can('api::article.article.find')).toBe(false);
  });

  it('moving a permission to another role counts (role writes invalidate too)', async () => {
    const perm = await query('plugin::users-permissions.permission').create({ data: { action: 'api::page.page.count', role: 2 } });
    expect((await cache.forPublic()).can('api::page.page.count')).toBe(true);
    await query('plugin::users-permissions.role').update({ where: { id: 1 }, data: { permissions: { connect: [perm.id] } } });
    expect((await cache.forPublic()).can('api::page.page.count')).toBe(false);
    expect((await cache.forRole(1)).can('api::page.page.count')).toBe(true);
  });

  it('a change made elsewhere (no listener) shows up once the entry is older than maxAgeMs', async () => {
    let clock = 0;
    const c = createAbilityCache({ query, maxAgeMs: 1000, now: () => clock }); // not a listener
    expect((await c.forRole(1)).can('api::author.author.find')).toBe(false);
    await query('plugin::users-permissions.permission').create({ data: { action: 'api::author.author.find', role: 1 } });
    expect((await c.forRole(1)).can('api::author.author.find')).toBe(false);
    clock = 1001;
    expect((await c.forRole(1)).can('api::author.author.find')).toBe(true);
  });

  it('with every Public permission removed the Public ability is empty', async () => {
    const { count } = await query('plugin::users-permissions.permission').deleteMany({ where: { role: { type: 'public' } } });
    expect(count).toBeGreaterThan(0);
    expect((await cache.forPublic()).size).toBe(0);
    expect(outcome(await publicAuth(), 'api::article.article.find')).toBe('401 UnauthorizedError Missing or invalid credentials');
  });
});
