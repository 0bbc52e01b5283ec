// JWT sessions against the fixture app: users real Strapi created log in, a password change or reset ends
// every session opened before it (v4 does not), blocked and deleted users are refused.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_JWT_SECRET, startAuthApp, type AuthApp } from './auth-app';

/** a token as real Strapi (jsonwebtoken, HS256) issues it: no password stamp */
function v4Token(payload: Record<string, unknown>): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${body}.${crypto.createHmac('sha256', FIXTURE_JWT_SECRET).update(body).digest('base64url')}`;
}
const nowS = () => Math.floor(Date.now() / 1000);

let t: AuthApp;
beforeAll(async () => {
  t = await startAuthApp();
});
afterAll(async () => {
  await t?.stop();
});

describe('users and tokens real Strapi made', () => {
  it('the fixture user (hash written by Strapi 4.26.2) logs in, and so does a user Strapi registered into a copy', async () => {
    const jwt = await t.login('reader', 'Reader-pass-1');
    expect((await t.request('GET', '/api/users/me', { jwt })).body.username).toBe('reader');
    // registered through real Strapi 4.26.2 (POST /api/auth/local/register on a copy of the fixture database):
    // the row as Strapi wrote it, password Strapi-made-1
    await t.app.query('plugin::users-permissions.user').create({
      data: { username: 'fromstrapi', email: 'fromstrapi@example.com', provider: 'local', password: '$2a$10$se66duFguBRczGS6E12SCOu7LmH.KtK9RE/xu/wC1pHNbfoxm8wbK', confirmed: true, blocked: false, role: 1 },
    });
    const j2 = await t.login('fromstrapi', 'Strapi-made-1');
    expect((await t.request('GET', '/api/users/me', { jwt: j2 })).body.email).toBe('fromstrapi@example.com');
    expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'fromstrapi', password: 'Strapi-made-2' } })).status).toBe(400);
  });

  it('a token signed as Strapi signs it (no stamp) authenticates', async () => {
    const r = await t.request('GET', '/api/users/me', { jwt: v4Token({ id: 1, iat: nowS() - 60, exp: nowS() + 3600 }) });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(1);
  });
});

describe('a password change ends the sessions opened before it', () => {
  it('change-password: earlier tokens (ours and v4-style) are refused, the new one works', async () => {
    const reg = await t.request('POST', '/api/auth/local/register', { body: { username: 'changer', email: 'changer@example.com', password: 'Changer-pass-1' } });
    expect(reg.status).toBe(200);
    const a = reg.body.jwt as string;
    const b = await t.login('changer', 'Changer-pass-1');
    const legacy = v4Token({ id: reg.body.user.id, iat: nowS() - 10, exp: nowS() + 3600 });
    for (const jwt of [a, b, legacy]) expect((await t.request('GET', '/api/users/me', { jwt })).status).toBe(200);

    const changed = await t.request('POST', '/api/auth/change-password', { jwt: a, body: { currentPassword: 'Changer-pass-1', password: 'Changer-pass-2', passwordConfirmation: 'Changer-pass-2' } });
    expect(changed.status).toBe(200);
    const c = changed.body.jwt as string;
    for (const jwt of [a, b, legacy]) {
      expect(await t.request('GET', '/api/users/me', { jwt })).toMatchObject({ status: 401, body: { error: { name: 'UnauthorizedError', message: 'Invalid credentials' } } });
    }
    expect((await t.request('GET', '/api/users/me', { jwt: c })).status).toBe(200);
    // a v4-style token issued after the change is fine
    expect((await t.request('GET', '/api/users/me', { jwt: v4Token({ id: reg.body.user.id, iat: nowS() + 1, exp: nowS() + 3600 }) })).status).toBe(200);
    // and the old password no longer logs in
    expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'changer', password: 'Changer-pass-1' } })).status).toBe(400);
  });

  it('a password set through PUT /api/users/:id ends the sessions too', async () => {
    const reg = await t.request('POST', '/api/auth/local/register', { body: { username: 'admin-set', email: 'admin-set@example.com', password: 'Adminset-pass-1' } });
    const jwt = reg.body.jwt as string;
    expect((await t.request('PUT', `/api/users/${reg.body.user.id}`, { token: true, body: { password: 'Adminset-pass-2' } })).status).toBe(200);
    expect((await t.request('GET', '/api/users/me', { jwt })).status).toBe(401);
    expect((await t.request('GET', '/api/users/me', { jwt: await t.login('admin-set', 'Adminset-pass-2') })).status).toBe(200);
  });

  it('other updates of the user leave its sessions alone', async () => {
    const reg = await t.request('POST', '/api/auth/local/register', { body: { username: 'renamer', email: 'renamer@example.com', password: 'Renamer-pass-1' } });
    expect((await t.request('PUT', `/api/users/${reg.body.user.id}`, { token: true, body: { username: 'renamed-one' } })).status).toBe(200);
    expect((await t.request('GET', '/api/users/me', { jwt: reg.body.jwt })).body.username).toBe('renamed-one');
  });
});

describe('refused users', () => {
  it('blocked: 401 "Invalid credentials" on every token, login refused; unblocked: back', async () => {
    const reg = await t.request('POST', '/api/auth/local/register', { body: { username: 'blockme', email: 'blockme@example.com', password: 'Blockme-pass-1' } });
    const id = reg.body.user.id as number;
    await t.request('PUT', `/api/users/${id}`, { token: true, body: { blocked: true } });
    expect(await t.request('GET', '/api/users/me', { jwt: reg.body.jwt })).toMatchObject({ status: 401, body: { error: { message: 'Invalid credentials' } } });
    expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'blockme', password: 'Blockme-pass-1' } })).body.error.message).toBe('Your account has been blocked by an administrator');
    await t.request('PUT', `/api/users/${id}`, { token: true, body: { blocked: false } });
    expect((await t.request('GET', '/api/users/me', { jwt: reg.body.jwt })).status).toBe(200);
  });

  it('deleted: 401 "Invalid credentials"; a token for an id that never existed too', async () => {
    const reg = await t.request('POST', '/api/auth/local/register', { body: { username: 'deleteme', email: 'deleteme@example.com', password: 'Deleteme-pass-1' } });
    await t.request('DELETE', `/api/users/${reg.body.user.id}`, { token: true });
    expect((await t.request('GET', '/api/users/me', { jwt: reg.body.jwt })).body.error.message).toBe('Invalid credentials');
    expect((await t.request('GET', '/api/users/me', { jwt: v4Token({ id: 424242, iat: nowS(), exp: nowS() + 60 }) })).body.error.message).toBe('Invalid credentials');
  });

  it('an invalid JWT never falls back to the Public role, even on a public route', async () => {
    const expired = v4Token({ id: 1, iat: nowS() - 7200, exp: nowS() - 3600 });
    expect((await t.request('GET', '/api/categories', {})).status).toBe(200);
    expect(await t.request('GET', '/api/categories', { jwt: expired })).toMatchObject({ status: 401, body: { error: { message: 'Missing or invalid credentials' } } });
  });

  it('a user cannot read or write another user through /api/users without the permission', async () => {
    const jwt = await t.login('reader', 'Reader-pass-1');
    const other = await t.request('POST', '/api/auth/local/register', { body: { username: 'victim', email: 'victim@example.com', password: 'Victim-pass-1' } });
    const id = other.body.user.id as number;
    for (const [method, url, body] of [['GET', `/api/users/${id}`], ['GET', '/api/users'], ['GET', '/api/users/count'], ['PUT', `/api/users/${id}`, { password: 'Stolen-pass-1' }], ['DELETE', `/api/users/${id}`], ['POST', '/api/users', { username: 'x', email: 'x@example.com', password: 'x', role: 1 }]] as const) {
      expect((await t.request(method, url, { jwt, body })).status, `${method} ${url}`).toBe(403);
    }
    expect((await t.request('GET', '/api/users/me', { jwt: other.body.jwt })).status).toBe(200);
    expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'victim', password: 'Victim-pass-1' } })).status).toBe(200);
  });
});
