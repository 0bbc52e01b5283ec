// Rate limiting of /api/auth/* as v4 (10 requests a minute per email-or-unknown, path and client ip), and
// X-Forwarded-For trusted only when config/server.js `proxy` is true.
import { afterEach, describe, expect, it } from 'vitest';
import { createRateLimiter, rateLimitKey } from '../../../src/auth/rate-limit';
import { startAuthApp, type AuthApp } from './auth-app';

let t: AuthApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const login = (app: AuthApp, headers: Record<string, string> = {}) =>
  app.request('POST', '/api/auth/local', { body: { identifier: 'reader', password: 'wrong-pass' }, headers });

describe('the limiter', () => {
  it('builds v4 keys and counts fixed windows', () => {
    expect(rateLimitKey({ email: 'A@Example.com' }, '/api/auth//local', '10.0.0.1')).toBe('a@example.com:/api/auth/local:10.0.0.1');
    expect(rateLimitKey({ identifier: 'reader' }, '/api/auth/local', '::1')).toBe('unknownIdentifier:/api/auth/local:::1');
    let clock = 0;
    const l = createRateLimiter(() => ({ interval: 1000, max: 2 }), { now: () => clock });
    expect(l.hit('k')?.headers['x-ratelimit-remaining']).toBe('1');
    expect(l.hit('k')?.headers['x-ratelimit-remaining']).toBe('0');
    expect(() => l.hit('k')).toThrow('Too many requests, please try again later.');
    expect(() => l.hit('other')).not.toThrow();
    clock = 1000;
    expect(() => l.hit('k')).not.toThrow();
    expect(createRateLimiter(() => ({ enabled: false })).hit('k')).toBeNull();
    // koa2-ratelimit interval objects
    const m = createRateLimiter(() => ({ interval: { min: 1 }, max: 1 }), { now: () => 0 });
    expect(m.hit('k')?.headers['x-ratelimit-reset']).toBe('60');
  });

  it('keeps a bounded number of windows', () => {
    const l = createRateLimiter(() => ({ interval: 60_000, max: 10 }), { maxKeys: 100 });
    for (let i = 0; i < 1000; i++) l.hit(`k${i}`);
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
