// The failure cases of the provider sign-in, each answered as v4 answers it (UP:controllers/auth.js,
// services/providers.js, grant's redirects with `?error=`), and where Tessera is stricter (the state is always
// checked and used once) with a clear error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './oauth-browser';
import { startOAuthSetup, type OAuthSetup } from './oauth-setup';

let s: OAuthSetup;
beforeAll(async () => {
  s = await startOAuthSetup();
  s.oauth.people.set('gina', { login: 'gina', email: 'gina@example.com', publicEmail: true });
  s.oauth.people.set('reader', { login: 'reader-gh', email: 'READER@example.com', publicEmail: true });
  s.oauth.people.set('nomail', { login: 'nomail', email: '' });
});
afterAll(async () => {
  await s?.stop();
});

const appError = (message: string, name = 'ApplicationError', details = {}) => ({ status: 400, body: { data: null, error: { status: 400, name, message, details } } });
const userCount = async () => (await s.t.request('GET', '/api/users/count', { token: true })).body as number;
const frontEndQuery = (search: string) => Object.fromEntries(new URLSearchParams(search));

describe('the grant callback (/api/connect/:provider/callback)', () => {
  it('a state that does not match the cookie: no token request, the front end gets grant\'s error, the auth callback answers No access_token.', async () => {
    const before = s.oauth.tokenRequests.length;
    const users = await userCount();
    const r = await s.signIn('github', 'gina', {
      edit: (u) => { if (u.pathname === '/api/connect/github/callback') u.searchParams.set('state', 'f'.repeat(40)); },
    });
    expect(frontEndQuery(r.frontEnd!.search)).toEqual({ error: 'Grant: OAuth2 state mismatch' });
    expect(s.oauth.tokenRequests.length).toBe(before);
    expect(r.callback).toEqual(appError('No access_token.'));
    expect(await userCount()).toBe(users);
  });

  it('without the state cookie (another browser, a forged link): grant\'s missing-session error, redirected to /', async () => {
    const r = await s.t.request('GET', '/api/connect/github/callback?code=abc&state=def');
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('/?error=Grant%3A%20missing%20session%20or%20misconfigured%20provider');
  });

  it('a cookie whose signature does not verify counts as no cookie', async () => {
    const browser = new Browser();
    await browser.get(`${s.t.url}/api/connect/github`);
    const cookie = browser.cookies(s.t.url)['tessera.oauth'];
    const [payload] = cookie.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), s: 'a'.repeat(40) })).toString('base64url');
    const res = await fetch(`${s.t.url}/api/connect/github/callback?code=abc&state=${'a'.repeat(40)}`, { redirect: 'manual', headers: { cookie: `tessera.oauth=${forged}.${cookie.split('.')[1]}` } });
    expect(res.headers.get('location')).toBe('/?error=Grant%3A%20missing%20session%20or%20misconfigured%20provider');
  });

  it('the state cookie is used once: replaying the provider\'s redirect fails', async () => {
    const browser = new Browser();
    const r = await s.signIn('github', 'gina', { browser });
    expect(r.callback!.status).toBe(200);
    const grantCallback = r.hops[2].url;
    const again = await browser.get(grantCallback);
    expect(again.location).toBe('/?error=Grant%3A%20missing%20session%20or%20misconfigured%20provider');
  });

  it('a state cookie of another provider is not accepted', async () => {
    const browser = new Browser();
    const state = new URL((await browser.get(`${s.t.url}/api/connect/github`)).location!).searchParams.get('state');
    const hop = await browser.get(`${s.t.url}/api/connect/google/callback?code=abc&state=${state}`);
    expect(hop.location).toBe('/?error=Grant%3A%20missing%20session%20or%20misconfigured%20provider');
  });

  it('denied consent: the provider\'s error goes to the front end as v4 sends it; the auth callback answers No access_token.', async () => {
    const r = await s.signIn('github', 'gina', { deny: true });
    const q = frontEndQuery(r.frontEnd!.search);
    expect(q).toEqual({ error: 'access_denied', error_description: 'The user denied the request', state: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(r.frontEnd!.search).toContain('error_description=The%20user%20denied%20the%20request');
    expect(r.callback).toEqual(appError('No access_token.'));
  });

  it('an id_token issued for another client: grant\'s OpenID Connect audience error', async () => {
    s.oauth.people.set('kim', { login: 'kim', email: 'kim@example.com', idTokenAudience: 'another-client' });
    const r = await s.signIn('keycloak', 'kim');
    expect(frontEndQuery(r.frontEnd!.search)).toEqual({ error: 'Grant: OpenID Connect invalid id_token audience' });
    expect(r.callback).toEqual(appError('No access_token.'));
  });

  it('a token endpoint error reaches the front end as grant nests it (error[error], error[error_description])', async () => {
    await s.patchGrant('github', { secret: 'wrong-secret' });
    try {
      const r = await s.signIn('github', 'gina');
      expect(r.frontEnd!.search).toBe('?error%5Berror%5D=invalid_grant&error%5Berror_description%5D=The%20code%20is%20not%20valid');
      expect(r.callback).toEqual(appError('No access_token.'));
    } finally {
      await s.patchGrant('github', { secret: 'github-secret' });
    }
  });
});

describe('the auth callback (/api/auth/:provider/callback)', () => {
  it('an email a local account already uses: Email is already taken.', async () => {
    const users = await userCount();
    const r = await s.signIn('github', 'reader');
    expect(r.callback).toEqual(appError('Email is already taken.'));
    expect(await userCount()).toBe(users);
  });

  it('registration disabled: no new account (v4\'s message), an existing provider account still signs in', async () => {
    const first = await s.signIn('github', 'gina');
    expect(first.callback!.status).toBe(200);
    await s.patchAdvanced({ allow_register: false });
    try {
      s.oauth.people.set('hank', { login: 'hank', email: 'hank@example.com', publicEmail: true });
      expect((await s.signIn('github', 'hank')).callback).toEqual(appError('Register action is actually not available.'));
      expect((await s.signIn('github', 'gina')).callback!.body.user.id).toBe(first.callback!.body.user.id);
    } finally {
      await s.patchAdvanced({ allow_register: true });
    }
  });

  it('a blocked account: v4\'s message, no JWT', async () => {
    const first = await s.signIn('github', 'gina');
    const id = first.callback!.body.user.id;
    await s.t.request('PUT', `/api/users/${id}`, { token: true, body: { blocked: true } });
    try {
      expect((await s.signIn('github', 'gina')).callback).toEqual(appError('Your account has been blocked by an administrator'));
    } finally {
      await s.t.request('PUT', `/api/users/${id}`, { token: true, body: { blocked: false } });
    }
  });

  it('no access_token, a token the provider refuses, a profile without email', async () => {
    expect(await s.t.request('GET', '/api/auth/github/callback')).toMatchObject(appError('No access_token.'));
    expect(await s.t.request('GET', '/api/auth/github/callback?access_token=not-a-token')).toMatchObject(appError('401 Unauthorized'));
    expect((await s.signIn('keycloak', 'nomail')).callback).toEqual(appError('Email was not available.'));
  });

  it('google: a token issued to another client is refused', async () => {
    s.oauth.clients.set('someone-else', 'x');
    await s.patchGrant('google', { key: 'someone-else', secret: 'x' });
    let token: string;
    try {
      token = frontEndQuery((await s.signIn('google', 'gina')).frontEnd!.search).access_token;
    } finally {
      await s.patchGrant('google', { key: 'google-client', secret: 'google-secret' });
    }
    expect(await s.t.request('GET', `/api/auth/google/callback?access_token=${token}`)).toMatchObject(appError('The access token was not issued to this application'));
  });
});

describe('providers that are off, unknown or not supported', () => {
  it('a disabled provider answers as v4 on every route', async () => {
    await s.patchGrant('github', { enabled: false });
    try {
      for (const url of ['/api/connect/github', '/api/connect/github/callback?code=x', '/api/auth/github/callback?access_token=x']) {
        expect(await s.t.request('GET', url)).toMatchObject(appError('This provider is disabled'));
      }
    } finally {
      await s.patchGrant('github', { enabled: true });
    }
    expect(await s.t.request('GET', '/api/connect/nope')).toMatchObject(appError('This provider is disabled'));
  });

  it('an invalid ?callback= is refused as v4 refuses it', async () => {
    const evil = 'https://evil.example/app/connect/github/redirect';
    expect(await s.t.request('GET', `/api/connect/github?callback=${encodeURIComponent(evil)}`))
      .toMatchObject(appError('Invalid callback URL provided', 'ValidationError', { callback: evil }));
    const otherPath = `${s.oauth.url}/elsewhere`;
    expect(await s.t.request('GET', `/api/connect/github?callback=${encodeURIComponent(otherPath)}`))
      .toMatchObject(appError('Invalid callback URL provided', 'ValidationError', { callback: otherPath }));
  });

  it('twitter (OAuth 1.0a) answers 501 with the reason', async () => {
    await s.patchGrant('twitter', { enabled: true });
    try {
      const r = await s.t.request('GET', '/api/connect/twitter');
      expect(r.status).toBe(501);
      expect(r.body.error).toMatchObject({ name: 'NotImplementedError', message: expect.stringContaining('OAuth 1.0a') });
    } finally {
      await s.patchGrant('twitter', { enabled: false });
    }
  });
});
