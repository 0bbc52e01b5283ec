// The signed cookie that carries a provider sign-in's state from /api/connect/:provider to the provider's
// redirect back (src/plugins/users-permissions/providers/state-cookie.ts).
import { describe, expect, it } from 'vitest';
import { createStateCookie, STATE_MAX_AGE_S } from '../../../src/plugins/users-permissions/providers/state-cookie';

const opts = { path: '/api/connect', secure: false };
const valueOf = (setCookie: string) => setCookie.split(';')[0];

describe('oauth state cookie', () => {
  it('reads back what it issued, until it expires', () => {
    let now = 1_000_000_000_000;
    const c = createStateCookie(() => ['k1'], () => now);
    const cookie = valueOf(c.issue({ p: 'github', s: 'abc' }, opts));
    expect(c.read(cookie)).toMatchObject({ p: 'github', s: 'abc' });
    now += STATE_MAX_AGE_S * 1000 + 1;
    expect(c.read(cookie)).toBeUndefined();
  });

  it('verifies with any of the app keys (rotation), not with another key', () => {
    const old = createStateCookie(() => ['old']);
    const cookie = valueOf(old.issue({ p: 'github', s: 'abc' }, opts));
    expect(createStateCookie(() => ['new', 'old']).read(cookie)).toMatchObject({ s: 'abc' });
    expect(createStateCookie(() => ['other']).read(cookie)).toBeUndefined();
  });

  it('a changed payload, a missing signature or garbage is no state', () => {
    const c = createStateCookie(() => 'k1,k2');
    const [payload, sig] = valueOf(c.issue({ p: 'github', s: 'abc' }, opts)).split('=')[1].split('.');
    const changed = Buffer.from(JSON.stringify({ p: 'google', s: 'abc', e: 9e9 })).toString('base64url');
    expect(c.read(`tessera.oauth=${changed}.${sig}`)).toBeUndefined();
    expect(c.read(`tessera.oauth=${payload}`)).toBeUndefined();
    expect(c.read('tessera.oauth=%%%.***')).toBeUndefined();
    expect(c.read(undefined)).toBeUndefined();
    // among other cookies
    expect(c.read(`a=1; tessera.oauth=${payload}.${sig}; b=2`)).toMatchObject({ p: 'github' });
  });

  it('without app keys, a per-process key still signs', () => {
    const c = createStateCookie(() => undefined);
    expect(c.read(valueOf(c.issue({ p: 'x', s: 'y' }, opts)))).toMatchObject({ p: 'x' });
  });

  it('cookie attributes: path, lifetime, HttpOnly, SameSite=Lax, Secure over https; clear removes it', () => {
    const c = createStateCookie(() => ['k']);
    expect(c.issue({ p: 'x', s: 'y' }, { path: '/api/connect', secure: true })).toMatch(/; Path=\/api\/connect; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
    expect(c.clear(opts)).toBe('tessera.oauth=; Path=/api/connect; Max-Age=0; HttpOnly; SameSite=Lax');
  });
});
