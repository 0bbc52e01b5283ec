// Rate limiting of /api/auth/* (10 requests a minute per route, identifier and client ip, as v4 counts them), and
// X-Forwarded-For trusted only when config/server.js `proxy` is true. What the windows are keyed on, and the
// per-address ceiling, are tested as attacks in test/security/auth-rate-limit.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { clientOf, createRateLimiter, identifierOf } from '../../../src/auth/rate-limit';
import { startAuthApp, type AuthApp } from './auth-app';

let t: AuthApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const login = (app: AuthApp, headers: Record<string, string> = {}) =>
  app.request('POST', '/api/auth/local', { body: { identifier: 'reader', password: 'wrong-pass' }, headers });

const req = (identifier: string, ip = '10.0.0.1') => ({ route: 'POST /auth/local', identifier, ip });

describe('the limiter', () => {
  it('reads identifiers and addresses as the windows need them', () => {
    expect(identifierOf({ email: 'A@Example.com', identifier: 'Reader' }, 'identifier')).toBe('reader');
    expect(identifierOf({ email: 'A@Example.com' }, 'email')).toBe('a@example.com');
    expect(identifierOf({ identifier: 42 }, 'identifier')).toBe('42');
    expect(identifierOf({ identifier: { $ne: 1 } }, 'identifier')).toBe('');
    expect(identifierOf(undefined, 'email')).toBe('');
    expect(clientOf('10.0.0.1')).toBe('10.0.0.1');
    expect(clientOf('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientOf('2001:0DB8:0:0:ffff::2')).toBe('2001:db8:0:0::/64');
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientOf('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('counts fixed windows', () => {
    let clock = 0;
    const l = createRateLimiter(() => ({ interval: 1000, max: 2 }), { now: () => clock });
    expect(l.hit(req('k'))?.headers['x-ratelimit-remaining']).toBe('1');
    expect(l.hit(req('k'))?.headers['x-ratelimit-remaining']).toBe('0');
    expect(() => l.hit(req('k'))).toThrow('Too many requests, please try again later.');
    expect(() => l.hit(req('other'))).not.toThrow();
    expect(() => l.hit(req('k', '10.0.0.2'))).not.toThrow();
    clock = 1000;
    expect(() => l.hit(req('k'))).not.toThrow();
    expect(createRateLimiter(() => ({ enabled: false })).hit(req('k'))).toBeNull();
    // koa2-ratelimit interval objects
    const m = createRateLimiter(() => ({ interval: { min: 1 }, max: 1 }), { now: () => 0 });
    expect(m.hit(req('k'))?.headers['x-ratelimit-reset']).toBe('60');
  });

  it('has a per-address ceiling of 5 x max across identifiers, reported once it is the closer limit', () => {
    const l = createRateLimiter(() => ({ interval: 60_000, max: 10 }), { now: () => 0 });
    // each identifier has 9 left in its own window; the shared one reports once it has fewer (after 42 requests)
    for (let i = 0; i < 41; i++) expect(l.hit(req(`u${i}`))?.headers['x-ratelimit-limit']).toBe('10');
    expect(l.hit(req('u41'))?.headers).toMatchObject({ 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '8' });
    for (let i = 42; i < 50; i++) l.hit(req(`u${i}`));
    expect(() => l.hit(req('u50'))).toThrow('Too many requests');
    expect(() => l.hit({ ...req('u50'), route: 'POST /auth/forgot-password' })).not.toThrow();
  });

  it('keeps a bounded number of windows', () => {
    const l = createRateLimiter(() => ({ interval: 60_000, max: 10, maxPerIp: 0 }), { maxKeys: 100 });
    for (let i = 0; i < 1000; i++) l.hit(req(`k${i}`));
    expect(l.size).toBeLessThanOrEqual(100);
  });
});

describe('/api/auth/local', () => {
  it('answers 429 RateLimitError after 10 attempts, and X-Forwarded-For does not reset it without server.proxy', async () => {
    t = await startAuthApp();
    for (let i = 0; i < 10; i++) {
      const r = await login(t);
      expect(r.status).toBe(400);
      expect(r.headers.get('x-ratelimit-remaining')).toBe(String(9 - i));
    }
    const limited = await login(t);
    expect(limited).toMatchObject({ status: 429, body: { data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} } } });
    expect(limited.headers.get('x-ratelimit-limit')).toBe('10');
    expect((await login(t, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(429);
    // the correct password does not get through either
    expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'reader', password: 'Reader-pass-1' } })).status).toBe(429);
    // other routes and other emails have their own windows
    expect((await t.request('POST', '/api/auth/forgot-password', { body: { email: 'ghost@example.com' } })).status).toBe(200);
  });

  it('with server.proxy true the client ip comes from X-Forwarded-For', async () => {
    t = await startAuthApp({ proxy: true });
    for (let i = 0; i < 10; i++) await login(t, { 'x-forwarded-for': '203.0.113.7' });
    expect((await login(t, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(429);
    expect((await login(t, { 'x-forwarded-for': '203.0.113.8' })).status).toBe(400);
  });

  it('follows users-permissions.config.ratelimit', async () => {
    t = await startAuthApp({ usersPermissions: { ratelimit: { max: 2, interval: 60_000 } } });
    await login(t);
    await login(t);
    expect((await login(t)).status).toBe(429);
  });
});
