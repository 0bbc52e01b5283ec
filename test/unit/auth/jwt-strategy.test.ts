// The users-permissions strategy on the fixture database: what a JWT request costs once warm (nothing),
// and what it refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAbilityCache } from '../../../src/auth/abilities';
import { createJwtStrategy } from '../../../src/auth/jwt-strategy';
import { signJwt } from '../../../src/auth/jwt';
import { createCoreStore } from '../../../src/auth/core-store';
import { createPasswordChanges } from '../../../src/auth/password-changes';
import { passwordStamp } from '../../../src/auth/passwords';
import { createQueryEngine, type QueryFn, type WriteListener } from '../../../src/query/query-engine';
import type { Database } from '../../../src/storage/dialect';
import { copyFixtureDb } from '../../helpers/fixture-db';
import { openTestDatabase } from '../../helpers/test-database';
import { fixtureModel } from '../../helpers/fixture-model';

const SECRET = 'unit-test-secret';
let db: Database;
let query: QueryFn;
let tmp: ReturnType<typeof copyFixtureDb>;
const listeners: WriteListener[] = [];

beforeAll(async () => {
  tmp = copyFixtureDb();
  db = await openTestDatabase(tmp.file);
  query = createQueryEngine(db, fixtureModel(), listeners);
});
afterAll(async () => {
  await db?.close();
  tmp.cleanup();
});

function strategy(emailConfirmation = false) {
  const abilities = createAbilityCache({ query });
  const passwordChanges = createPasswordChanges(db, createCoreStore(db));
  const s = createJwtStrategy({
    query, abilities, passwordChanges, secret: () => SECRET, options: () => ({ expiresIn: '1h' }),
    emailConfirmation: async () => emailConfirmation, privateFields: ['password', 'resetPasswordToken', 'confirmationToken'],
  });
  listeners.push(s.onWrite, abilities.onWrite);
  return { s, passwordChanges };
}

const readerHash = async () => (await query('plugin::users-permissions.user').findOne({ where: { id: 1 } }))!.password;

describe('createJwtStrategy', () => {
  it('authenticates the user with its role and Ability, without private attributes', async () => {
    const { s, passwordChanges } = strategy();
    await passwordChanges.ensureTable();
    const jwt = signJwt({ id: 1, pwv: passwordStamp(await readerHash(), SECRET) }, SECRET, { expiresIn: '1h' });
    const auth = await s.authenticate(jwt);
    expect(auth.kind).toBe('user');
    if (auth.kind !== 'user') return;
    expect(auth.user).toMatchObject({ id: 1, username: 'reader', role: { type: 'authenticated' } });
    expect(Object.keys(auth.user)).not.toContain('password');
    expect(auth.ability.can('plugin::users-permissions.user.me')).toBe(true);
    expect(auth.ability.can('plugin::users-permissions.user.find')).toBe(false);
  });

  it('costs no statement once warm: token, user and role ability are cached', async () => {
    const { s } = strategy();
    const jwt = signJwt({ id: 1 }, SECRET, { expiresIn: '1h' });
    await s.authenticate(jwt);
    const before = db.statementCount;
    for (let i = 0; i < 10; i++) expect((await s.authenticate(jwt)).kind).toBe('user');
    expect(db.statementCount - before).toBe(0);
    // a write to the user drops the cached user
    await query('plugin::users-permissions.user').update({ where: { id: 1 }, data: { blocked: true } });
    expect(await s.authenticate(jwt)).toEqual({ kind: 'none', reason: 'Invalid credentials' });
    await query('plugin::users-permissions.user').update({ where: { id: 1 }, data: { blocked: false } });
    expect((await s.authenticate(jwt)).kind).toBe('user');
  });

  it('refuses: bad tokens (missing credentials), unknown users, stale stamps, unconfirmed users when required', async () => {
    const { s } = strategy();
    expect(await s.authenticate('garbage')).toEqual({ kind: 'none', reason: 'Missing or invalid credentials' });
    expect(await s.authenticate(signJwt({ nope: 1 }, SECRET))).toEqual({ kind: 'none', reason: 'Missing or invalid credentials' });
    expect(await s.authenticate(signJwt({ id: 1 }, 'other-secret'))).toEqual({ kind: 'none', reason: 'Missing or invalid credentials' });
    expect(await s.authenticate(signJwt({ id: 4242 }, SECRET))).toEqual({ kind: 'none', reason: 'Invalid credentials' });
    expect(await s.authenticate(signJwt({ id: { $ne: 0 } }, SECRET))).toEqual({ kind: 'none', reason: 'Invalid credentials' });
    expect(await s.authenticate(signJwt({ id: 1, pwv: 'stale' }, SECRET))).toEqual({ kind: 'none', reason: 'Invalid credentials' });
    await query('plugin::users-permissions.user').update({ where: { id: 1 }, data: { confirmed: false } });
    expect(await strategy(true).s.authenticate(signJwt({ id: 1 }, SECRET))).toEqual({ kind: 'none', reason: 'Invalid credentials' });
    expect((await strategy(false).s.authenticate(signJwt({ id: 1 }, SECRET))).kind).toBe('user');
    await query('plugin::users-permissions.user').update({ where: { id: 1 }, data: { confirmed: true } });
  });

  it('a user without a role is not authenticated (v4: its strategy fails on `user.role.id`)', async () => {
    const { s } = strategy();
    const u = await query('plugin::users-permissions.user').create({ data: { username: 'roleless', email: 'roleless@example.com', provider: 'local', confirmed: true } });
    expect(await s.authenticate(signJwt({ id: u.id }, SECRET))).toEqual({ kind: 'none', reason: 'Missing or invalid credentials' });
  });

  it('tokens without a stamp issued before a recorded password change are refused', async () => {
    const { s, passwordChanges } = strategy();
    const old = signJwt({ id: 1 }, SECRET, {}, Date.now() - 10_000);
    expect((await s.authenticate(old)).kind).toBe('user');
    await passwordChanges.record(1);
    s.onWrite('plugin::users-permissions.user');
    expect(await s.authenticate(old)).toEqual({ kind: 'none', reason: 'Invalid credentials' });
    expect((await s.authenticate(signJwt({ id: 1 }, SECRET, {}, Date.now() + 1000))).kind).toBe('user');
  });
});
