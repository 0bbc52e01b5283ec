// Issue #20 part 3: the auth rate limit is keyed on the matched route, the identifier the handler looks the
// user up by (lower-cased) and the client address as the proxy setting resolves it, plus a per-address ceiling
// across identifiers. v4 4.26.2 keys on the body's `email` (ignored by /api/auth/local) and the raw path, so a
// new `email` value or another spelling of the path gave a new window: unlimited password guessing.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startAuthApp, type AuthApp } from '../integration/auth/auth-app';

let t: AuthApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const login = (app: AuthApp, body: Record<string, unknown>, opts: { path?: string; headers?: Record<string, string> } = {}) =>
  app.request('POST', opts.path ?? '/api/auth/local', { body: { password: 'wrong-pass', ...body }, headers: opts.headers });

describe('login rate limit keys', () => {
  it('a new `email` field in each login body does not open a new window, nor does another spelling of the path', async () => {
    t = await startAuthApp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login(t, { identifier: 'reader', email: `guess${i}@example.com` })).status);
    expect(statuses).toEqual([...Array(10).fill(400), 429, 429]);

    // every spelling of the route reaches the same handler, so the same window
    for (const path of ['/api/auth/local/', '/api/auth/%6cocal', '/api/%61uth/local', '/api/auth/local?x=1']) {
      expect({ path, status: (await login(t, { identifier: 'reader' }, { path })).status }).toEqual({ path, status: 429 });
    }
    // the identifier as the handler compares it (lower-cased), with the right password too
    expect((await login(t, { identifier: 'READER', email: 'other@example.com' })).status).toBe(429);
    expect((await login(t, { identifier: 'reader', password: 'Reader-pass-1' })).status).toBe(429);
    // X-Forwarded-For is not the client address without server.proxy
    expect((await login(t, { identifier: 'reader' }, { headers: { 'x-forwarded-for': '203.0.113.7' } })).status).toBe(429);
    // another identifier has a window of its own
    expect((await login(t, { identifier: 'someone-else' })).status).toBe(400);
  });

  it('the unlimited GET /api/auth/:provider/callback cannot take a password login (a GET body is not read)', async () => {
    t = await startAuthApp();
    const body = JSON.stringify({ identifier: 'reader', password: 'Reader-pass-1' });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${t!.url}/api/auth/local/callback`, { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(400);
  });

  it('forgot-password and register are keyed on the lower-cased email; reset-password on the route alone', async () => {
    t = await startAuthApp({ usersPermissions: { ratelimit: { max: 2, maxPerIp: 100 } } });
    const forgot = (email: string, extra: Record<string, unknown> = {}) => t!.request('POST', '/api/auth/forgot-password', { body: { email, ...extra } });
    expect((await forgot('ghost@example.com')).status).toBe(200);
    expect((await forgot('Ghost@Example.com')).status).toBe(200);
    expect((await forgot('GHOST@example.com')).status).toBe(429);
    expect((await forgot('ghost2@example.com')).status).toBe(200);

    const register = (email: string, username: string) => t!.request('POST', '/api/auth/local/register', { body: { email, username, password: 'x' } });
    await register('new@example.com', 'u1');
    await register('NEW@example.com', 'u2');
    expect((await register('new@Example.com', 'u3')).status).toBe(429);

    // the reset code is what is guessed there: changing it (or an `email` field) never opens a new window
    const reset = (i: number) => t!.request('POST', '/api/auth/reset-password', { body: { code: `c${i}`, email: `e${i}@example.com`, password: 'Aa-123456', passwordConfirmation: 'Aa-123456' } });
    expect((await reset(1)).status).toBe(400);
    expect((await reset(2)).status).toBe(400);
    expect((await reset(3)).status).toBe(429);
  });
});

describe('per-address ceiling across identifiers', () => {
  it('defaults to 5 x max in the same window, per route', async () => {
    t = await startAuthApp({ usersPermissions: { ratelimit: { max: 2, interval: 60_000 } } });
    for (let i = 0; i < 10; i++) expect((await login(t, { identifier: `user${i}` })).status).toBe(400);
    const limited = await login(t, { identifier: 'user10' });
    expect(limited).toMatchObject({ status: 429, body: { data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.' } } });
    expect(limited.headers.get('x-ratelimit-limit')).toBe('10');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await login(t, { identifier: 'reader', password: 'Reader-pass-1' })).status).toBe(429);
    expect((await login(t, { identifier: 'user11' }, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(429);
    // the ceiling is per route
    expect((await t.request('POST', '/api/auth/forgot-password', { body: { email: 'ghost@example.com' } })).status).toBe(200);
  });

  it('follows ratelimit.maxPerIp; 0 turns the ceiling off', async () => {
    t = await startAuthApp({ usersPermissions: { ratelimit: { max: 2, maxPerIp: 3 } } });
    for (let i = 0; i < 3; i++) expect((await login(t, { identifier: `user${i}` })).status).toBe(400);
    expect((await login(t, { identifier: 'user3' })).status).toBe(429);
    await t.stop();
    t = undefined;
    t = await startAuthApp({ usersPermissions: { ratelimit: { max: 1, maxPerIp: 0 } } });
    for (let i = 0; i < 12; i++) expect((await login(t, { identifier: `user${i}` })).status).toBe(400);
  });

  it('with server.proxy the address comes from X-Forwarded-For; IPv6 clients are counted per /64', async () => {
    t = await startAuthApp({ proxy: true, usersPermissions: { ratelimit: { max: 1, maxPerIp: 2 } } });
    const from = (ip: string, identifier: string) => login(t!, { identifier }, { headers: { 'x-forwarded-for': ip } });
    expect((await from('203.0.113.7', 'a')).status).toBe(400);
    expect((await from('203.0.113.7', 'a')).status).toBe(429);
    expect((await from('203.0.113.8', 'a')).status).toBe(400);
    expect((await from('2001:db8:0:1::1', 'a')).status).toBe(400);
    expect((await from('2001:db8:0:1:ffff::2', 'b')).status).toBe(400);
    expect((await from('2001:0db8:0000:0001::3', 'c')).status).toBe(429);
    expect((await from('2001:db8:0:2::1', 'c')).status).toBe(400);
  });
});
