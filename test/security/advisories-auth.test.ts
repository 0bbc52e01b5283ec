// Issue #18 part 1, the advisory suite (who may do what): forged JWTs (CVE-2023-22893), the auth rate limit
// against forwarded-address headers and GraphQL aliases (CVE-2025-64526), sessions surviving a password reset
// (CVE-2026-22706), a Public role without permissions, a read-only API token writing, and mass assignment of
// `role`, `confirmed`, `blocked`, `provider`, `id` and creators. Each through REST and GraphQL where both exist.
// Covered in depth elsewhere (one representative request here): JWT verification (test/unit/auth/jwt.test.ts),
// sessions after change-password and blocked or deleted users (test/integration/auth/jwt-sessions.test.ts), the
// rate limit's keys (test/security/auth-rate-limit.test.ts), token types (test/integration/auth/access.test.ts),
// creators never written by the Content API (test/integration/customization/creator-fields.test.ts), relations
// to unreadable types dropped from writes (test/security/relation-input-sanitize.test.ts).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTokenService } from '../../src/auth/api-token-service';
import { gql } from '../helpers/gql';
import { startSmtpServer, type SmtpServer } from '../helpers/smtp-server';
import { FIXTURE_JWT_SECRET, startAuthApp, type AuthApp } from '../integration/auth/auth-app';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const nowS = () => Math.floor(Date.now() / 1000);
/** a JWT with this header and payload, signed by HMAC `hash` with `key` (v4's HS256 with the app's secret by default) */
function signed(payload: Record<string, unknown>, o: { header?: Record<string, unknown>; hash?: string; key?: string } = {}): string {
  const body = `${b64(o.header ?? { alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${body}.${crypto.createHmac(o.hash ?? 'sha256', o.key ?? FIXTURE_JWT_SECRET).update(body).digest('base64url')}`;
}

let t: AuthApp;
let smtp: SmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  // register may take extra fields, even the dangerous ones a careless project would list (v4 then writes `blocked`)
  t = await startAuthApp({ smtpPort: smtp.port, usersPermissions: { register: { allowedFields: ['role', 'confirmed', 'blocked', 'provider', 'confirmationToken', 'resetPasswordToken', 'id'] } } });
});
afterAll(async () => {
  await t?.stop();
  await smtp?.close();
});

const register = async (name: string, extra: Record<string, unknown> = {}) => {
  const r = await t.request('POST', '/api/auth/local/register', { body: { username: name, email: `${name}@example.com`, password: 'Advisory-pass-1', ...extra } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { jwt: string; user: { id: number } };
};
/** the user row as stored */
const userRow = async (id: number) => (await t.app.query('plugin::users-permissions.user').findOne({ where: { id }, populate: ['role'] })) as Record<string, any>;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('forged and dead JWTs are refused everywhere, never read as the Public role (CVE-2023-22893)', () => {
  it('alg none, a wrong key, another algorithm, a tampered payload, expired, a deleted and a blocked user: 401 on REST and GraphQL', async () => {
    const claims = { id: 1, iat: nowS() - 10, exp: nowS() + 3600 };
    const honest = signed(claims);
    const [h, p, s] = honest.split('.');
    const deleted = await register('adv-deleted');
    await t.request('DELETE', `/api/users/${deleted.user.id}`, { token: true });
    const blocked = await register('adv-blocked');
    await t.request('PUT', `/api/users/${blocked.user.id}`, { token: true, body: { blocked: true } });
    const forged: Record<string, string> = {
      'alg none, empty signature': `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`,
      'alg none, no signature part': `${b64({ alg: 'none', typ: 'JWT' })}.${p}`,
      'alg NoNe': `${b64({ alg: 'NoNe', typ: 'JWT' })}.${p}.`,
      'alg none, the honest signature kept': `${b64({ alg: 'none', typ: 'JWT' })}.${p}.${s}`,
      'HS256 with a wrong key': signed(claims, { key: 'guessed-secret' }),
      'HS256 with an empty key': signed(claims, { key: '' }),
      'HS512 with the right key': signed(claims, { header: { alg: 'HS512', typ: 'JWT' }, hash: 'sha512' }),
      'RS256 header over an HMAC signature (key confusion)': signed(claims, { header: { alg: 'RS256', typ: 'JWT' } }),
      'payload changed to another user under the old signature': `${h}.${b64({ ...claims, id: 2 })}.${s}`,
      expired: signed({ id: 1, iat: nowS() - 7200, exp: nowS() - 3600 }),
      'a deleted user': deleted.jwt,
      'a blocked user': blocked.jwt,
    };
    expect((await t.request('GET', '/api/users/me', { jwt: honest })).status).toBe(200);
    for (const [what, jwt] of Object.entries(forged)) {
      expect((await t.request('GET', '/api/users/me', { jwt })).status, what).toBe(401);
      // a route the Public role may read: still 401, the bad bearer is not dropped
      expect((await t.request('GET', '/api/categories', { jwt })).status, what).toBe(401);
      const me = await gql(t.url, '{ me { id } }', { token: jwt });
      expect(me.status, what).toBe(401);
      expect(me.body.data ?? null, what).toBeNull();
      expect((await gql(t.url, '{ categories { data { id } } }', { token: jwt })).status, what).toBe(401);
    }
  });
});

describe('the auth rate limit is not bypassed by forwarded-address headers or GraphQL (CVE-2025-64526)', () => {
  const HEADERS = ['x-forwarded-for', 'x-real-ip', 'forwarded', 'x-client-ip', 'true-client-ip', 'cf-connecting-ip', 'x-cluster-client-ip'];
  const spoof = (i: number): Record<string, string> => Object.fromEntries(HEADERS.map((name) => [name, name === 'forwarded' ? `for=203.0.113.${i}` : `203.0.113.${i}`]));

  it('REST, proxy off: a new address in every forwarded header on each guess still gets 429 after 10', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await t.request('POST', '/api/auth/local', { body: { identifier: 'adv-guessed', password: `guess-${i}` }, headers: spoof(i) })).status);
    expect(statuses).toEqual([...Array(10).fill(400), 429, 429]);
  });

  it('GraphQL: login mutations share the REST window, in batches and aliased in one document', async () => {
    const login = (identifier: string, i: number, alias = 'g') => `${alias}: login(input: { identifier: "${identifier}", password: "guess-${i}" }) { jwt }`;
    const batch = async (documents: string[]) => {
      const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...spoof(7) }, body: JSON.stringify(documents.map((query) => ({ query }))) });
      return ((await res.json()) as Array<{ errors?: Array<{ message: string }> }>).map((a) => a.errors?.[0]?.message);
    };
    const guesses = Array.from({ length: 12 }, (_v, i) => `mutation { ${login('adv-gql-guessed', i)} }`);
    expect(await batch(guesses.slice(0, 10))).toEqual(Array(10).fill('Invalid identifier or password'));
    expect(await batch(guesses.slice(10))).toEqual(Array(2).fill('Too many requests, please try again later.'));
    // the REST route is in the same window, whatever the forwarded headers say
    expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'adv-gql-guessed', password: 'guess-x' }, headers: spoof(99) })).status).toBe(429);
    // aliases: a failed login ends the document (its payload is non-null), so one document is one guess
    const aliased = await gql(t.url, `mutation { ${Array.from({ length: 12 }, (_v, i) => login('adv-gql-aliased', i, `g${i}`)).join(' ')} }`);
    expect(aliased.body).toMatchObject({ data: null, errors: [{ message: 'Invalid identifier or password' }] });
    expect(aliased.body.errors).toHaveLength(1);
  });
});

describe('a password reset ends every earlier session (CVE-2026-22706)', () => {
  it('REST reset-password: tokens issued before, ours and v4-style, are refused on REST and GraphQL', async () => {
    const reg = await register('adv-reset');
    const before = [reg.jwt, await t.login('adv-reset', 'Advisory-pass-1'), signed({ id: reg.user.id, iat: nowS() - 10, exp: nowS() + 3600 })];
    for (const jwt of before) expect((await t.request('GET', '/api/users/me', { jwt })).status).toBe(200);
    // the code a forgot-password mail carries
    await t.app.query('plugin::users-permissions.user').update({ where: { id: reg.user.id }, data: { resetPasswordToken: 'adv-reset-code' } });
    const reset = await t.request('POST', '/api/auth/reset-password', { body: { code: 'adv-reset-code', password: 'Advisory-pass-2', passwordConfirmation: 'Advisory-pass-2' } });
    expect(reset.status).toBe(200);
    for (const jwt of before) {
      expect((await t.request('GET', '/api/users/me', { jwt })).status).toBe(401);
      expect((await gql(t.url, '{ me { id } }', { token: jwt })).status).toBe(401);
    }
    expect((await t.request('GET', '/api/users/me', { jwt: reset.body.jwt })).status).toBe(200);
  });

  it('GraphQL resetPassword: the same', async () => {
    const reg = await register('adv-gql-reset');
    await t.app.query('plugin::users-permissions.user').update({ where: { id: reg.user.id }, data: { resetPasswordToken: 'adv-gql-reset-code' } });
    const reset = await gql(t.url, 'mutation { resetPassword(code: "adv-gql-reset-code", password: "Advisory-pass-3", passwordConfirmation: "Advisory-pass-3") { jwt } }');
    expect(reset.body.errors).toBeUndefined();
    expect((await t.request('GET', '/api/users/me', { jwt: reg.jwt })).status).toBe(401);
    expect((await t.request('GET', '/api/users/me', { jwt: (reset.body.data!.resetPassword as { jwt: string }).jwt })).status).toBe(200);
  });
});

describe('operators in auth bodies and queries never reach storage (CVE-2026-27886)', () => {
  it('an object or list where the auth routes expect a string is a 400 ValidationError, and nothing happens', async () => {
    const rows = async () => t.app.query('plugin::users-permissions.user').findOne({ where: { username: 'reader' } }) as Promise<Record<string, unknown>>;
    await t.app.query('plugin::users-permissions.user').update({ where: { username: 'reader' }, data: { resetPasswordToken: 'adv-live-code', confirmationToken: 'adv-live-confirm' } });
    const before = await rows();
    const reset = { password: 'Advisory-pass-9', passwordConfirmation: 'Advisory-pass-9' };
    for (const [url, body, field] of [
      ['/api/auth/local', { identifier: { $ne: '' }, password: 'Reader-pass-1' }, 'identifier'],
      ['/api/auth/local', { identifier: ['reader'], password: 'Reader-pass-1' }, 'identifier'],
      ['/api/auth/local', { identifier: 'reader', password: { $ne: '' } }, 'password'],
      ['/api/auth/forgot-password', { email: { $ne: null } }, 'email'],
      ['/api/auth/send-email-confirmation', { email: { $startsWith: 'r' } }, 'email'],
      ['/api/auth/reset-password', { code: { $ne: null }, ...reset }, 'code'],
      ['/api/auth/reset-password', { code: { $startsWith: 'adv' }, ...reset }, 'code'],
      ['/api/auth/reset-password', { code: ['adv-live-code'], ...reset }, 'code'],
    ] as const) {
      const r = await t.request('POST', url, { body });
      expect({ url, field, status: r.status, name: r.body.error?.name, path: r.body.error?.details?.errors?.[0]?.path }).toEqual({ url, field, status: 400, name: 'ValidationError', path: [field] });
    }
    for (const q of ['confirmation[$ne]=x', 'confirmation[$startsWith]=adv', 'confirmation[0]=adv-live-confirm']) {
      expect((await t.request('GET', `/api/auth/email-confirmation?${q}`)).body.error, q).toMatchObject({ status: 400, name: 'ValidationError' });
    }
    // GraphQL's auth inputs are String-typed: an object is a validation error
    expect((await gql(t.url, 'mutation { resetPassword(code: { ne: null }, password: "Advisory-pass-9", passwordConfirmation: "Advisory-pass-9") { jwt } }')).status).toBe(400);
    expect(await rows()).toEqual(before);
    expect(await t.login('reader', 'Reader-pass-1')).toMatch(/^ey/);
  });
});

describe('mass assignment: fields a caller may not set', () => {
  it('register (REST and GraphQL) never sets role, confirmed, blocked, provider, tokens or id, even listed in register.allowedFields', async () => {
    const roles = t.app.strapi.plugin('users-permissions').service('role') as { createRole(p: unknown): Promise<void>; find(): Promise<Array<{ id: number; type: string }>> };
    await roles.createRole({ name: 'Adv Admin', permissions: { 'plugin::users-permissions': { controllers: { user: { find: { enabled: true }, update: { enabled: true } } } } } });
    const powerful = (await roles.find()).find((r) => r.type === 'adv_admin')!;
    const store = t.app.strapi.store({ type: 'plugin', name: 'users-permissions' });
    const advanced = (await store.get({ key: 'advanced' })) as Record<string, unknown>;
    await store.set({ key: 'advanced', value: { ...advanced, email_confirmation: true } });
    try {
      const forced = { role: powerful.id, confirmed: true, blocked: true, provider: 'github', confirmationToken: 'chosen-token', resetPasswordToken: 'chosen-reset', id: 1 };
      const reg = await t.request('POST', '/api/auth/local/register', { body: { username: 'adv-mass', email: 'adv-mass@example.com', password: 'Advisory-pass-1', ...forced } });
      // a clean 400 would do too; Tessera ignores them
      expect(reg.status).toBe(200);
      await smtp.next();
      const row = await userRow(reg.body.user.id);
      expect(reg.body.user.id).not.toBe(1);
      expect(row).toMatchObject({ username: 'adv-mass', confirmed: false, blocked: false, provider: 'local', resetPasswordToken: null, role: { type: 'authenticated' } });
      expect(row.confirmationToken).not.toBe('chosen-token');
      expect((await userRow(1)).username).toBe('reader');
      // unconfirmed: no login, and the chosen token confirms nothing
      expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'adv-mass', password: 'Advisory-pass-1' } })).status).toBe(400);
      expect((await t.request('GET', '/api/auth/email-confirmation?confirmation=chosen-token')).status).toBe(400);

      // GraphQL's register input has only username, email and password
      const answer = await gql(t.url, `mutation { register(input: { username: "adv-mass-gql", email: "adv-mass-gql@example.com", password: "Advisory-pass-1", role: ${powerful.id}, confirmed: true }) { jwt } }`);
      expect(answer.status).toBe(400);
      expect(answer.body.errors!.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_VALIDATION_FAILED']);
      expect(await t.app.query('plugin::users-permissions.user').count({ where: { username: 'adv-mass-gql' } })).toBe(0);
    } finally {
      await store.set({ key: 'advanced', value: advanced });
    }
  });

  it('a user cannot change its own role, blocked or confirmed state without the permission: PUT /api/users/:id, /api/users/me, GraphQL', async () => {
    const reg = await register('adv-self');
    const jwt = reg.jwt;
    const change = { role: 99, blocked: false, confirmed: true, provider: 'github', username: 'adv-self-renamed' };
    expect((await t.request('PUT', `/api/users/${reg.user.id}`, { jwt, body: change })).status).toBe(403);
    // no such route in v4
    expect((await t.request('PUT', '/api/users/me', { jwt, body: change })).status).toBe(405);
    const answer = await gql(t.url, `mutation { updateUsersPermissionsUser(id: ${reg.user.id}, data: { role: 1, blocked: false, username: "adv-self-gql" }) { data { id } } }`, { token: jwt });
    expect(answer.body.errors?.[0]?.message).toBe('Forbidden access');
    expect(await userRow(reg.user.id)).toMatchObject({ username: 'adv-self', provider: 'local', role: { type: 'authenticated' } });
  });

  it('entries: `id`, `createdBy` and `updatedBy` in a body (REST and GraphQL) set nothing', async () => {
    const created = await t.request('POST', '/api/categories?populate=*', { body: { data: { name: 'adv-mass-entry', id: 1, createdBy: 1, updatedBy: 1 } } });
    expect(created.status).toBe(200);
    expect(created.body.data.id).not.toBe(1);
    const row = (await t.app.query('api::category.category').findOne({ where: { id: created.body.data.id }, populate: ['createdBy', 'updatedBy'] })) as Record<string, unknown>;
    expect(row).toMatchObject({ name: 'adv-mass-entry', createdBy: null, updatedBy: null });
    expect(await t.app.query('api::category.category').findOne({ where: { id: 1 } })).not.toMatchObject({ name: 'adv-mass-entry' });
    // GraphQL's input types have no such fields
    const answer = await gql(t.url, 'mutation { createCategory(data: { name: "adv-gql-entry", createdBy: 1 }) { data { id } } }');
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

// last: it takes every permission away from the Public role (register included)
describe('permissions: nothing without them', () => {
  it('a read-only API token cannot write, through REST, uploads or GraphQL; nothing changes', async () => {
    const ro = (await (t.app.strapi.service('admin::api-token') as ApiTokenService).create({ name: 'adv-read-only', type: 'read-only' })).accessKey;
    const before = await t.request('GET', '/api/categories/1', { token: true });
    for (const [method, url, body] of [
      ['POST', '/api/categories', { data: { name: 'ro-made' } }], ['PUT', '/api/categories/1', { data: { name: 'ro-renamed' } }], ['DELETE', '/api/categories/1'],
      ['PUT', '/api/homepage', { data: { title: 'ro' } }], ['PUT', '/api/users/1', { username: 'ro' }], ['DELETE', '/api/upload/files/1'],
    ] as const) {
      expect((await t.request(method, url, { jwt: ro, body })).status, `${method} ${url}`).toBe(403);
    }
    const upload = new FormData();
    upload.append('files', new Blob(['x'], { type: 'text/plain' }), 'ro.txt');
    expect((await fetch(`${t.url}/api/upload`, { method: 'POST', headers: bearer(ro), body: upload })).status).toBe(403);
    for (const mutation of ['createCategory(data: { name: "ro-gql" }) { data { id } }', 'updateCategory(id: 1, data: { name: "ro-gql" }) { data { id } }', 'deleteCategory(id: 1) { data { id } }']) {
      const answer = await gql(t.url, `mutation { ${mutation} }`, { token: ro });
      expect(answer.body.errors?.[0]?.message, mutation).toBe('Forbidden access');
    }
    expect(await t.request('GET', '/api/categories/1', { token: true })).toMatchObject({ status: 200, body: before.body });
    expect((await t.request('GET', '/api/categories?filters[name][$startsWith]=ro-', { token: true })).body.data).toEqual([]);
  });

  it('a Public role with no permission reads nothing, through REST or GraphQL, also what it read (and the cache kept) before', async () => {
    const publicRole = (await t.app.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } })) as { id: number };
    const rest = ['/api/articles', '/api/articles/1', '/api/articles?populate=*', '/api/authors', '/api/categories/1', '/api/pages', '/api/homepage', '/api/upload/files', '/api/upload/files/1', '/api/users', '/api/users/1', '/api/i18n/locales'];
    const graphql = ['{ articles { data { id } } }', '{ article(id: 1) { data { id } } }', '{ authors { data { id } } }', '{ homepage { data { id } } }', '{ uploadFiles { data { id } } }', '{ usersPermissionsUsers { data { id } } }', '{ i18NLocales { data { id } } }'];
    // warm the response cache with the answers the Public role had
    expect((await t.request('GET', '/api/articles')).status).toBe(200);
    expect((await gql(t.url, graphql[0])).body.errors).toBeUndefined();

    // every permission taken away through the users-permissions roles API
    const role = await t.request('GET', `/api/users-permissions/roles/${publicRole.id}`, { token: true });
    expect(role.status).toBe(200);
    const cleared = JSON.parse(JSON.stringify(role.body.role.permissions), (_k, v) => (v && typeof v === 'object' && 'enabled' in v ? { ...v, enabled: false } : v));
    expect((await t.request('PUT', `/api/users-permissions/roles/${publicRole.id}`, { token: true, body: { permissions: cleared } })).status).toBe(200);
    const left = await t.app.query('plugin::users-permissions.permission').count({ where: { role: { id: publicRole.id } } });
    expect(left).toBe(0);

    // v4: a Public role without any permission authenticates nobody: 401 (403 when it has some, not this one)
    const unauthorized = { status: 401, body: { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } } };
    for (const url of rest) expect(await t.request('GET', url), url).toMatchObject(unauthorized);
    for (const [method, url, body] of [['POST', '/api/categories', { data: { name: 'public-made' } }], ['PUT', '/api/categories/1', { data: { name: 'x' } }], ['DELETE', '/api/categories/1']] as const) {
      expect(await t.request(method, url, { body }), `${method} ${url}`).toMatchObject(unauthorized);
    }
    for (const query of graphql) {
      const answer = await gql(t.url, query);
      expect(answer.body.errors?.[0]?.message, query).toBe('Forbidden access');
      expect(Object.values(answer.body.data ?? {}).every((v) => v === null), query).toBe(true);
    }
    expect((await gql(t.url, 'mutation { createCategory(data: { name: "public-gql" }) { data { id } } }')).body.errors?.[0]?.message).toBe('Forbidden access');
    // registering is a permission too (auth.register)
    expect(await t.request('POST', '/api/auth/local/register', { body: { username: 'adv-nobody', email: 'adv-nobody@example.com', password: 'Advisory-pass-1' } })).toMatchObject(unauthorized);
    expect(await t.app.query('plugin::users-permissions.user').count({ where: { username: 'adv-nobody' } })).toBe(0);
  });
});
