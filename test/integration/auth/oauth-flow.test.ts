// Sign-in through OAuth providers end to end (v4's grant flow): /api/connect/:provider redirects to the
// provider with a state, the provider's redirect back is exchanged for an access token, the front end gets it
// in its query and calls /api/auth/:provider/callback, which creates or matches the user and answers { jwt, user }.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthSetup, type OAuthSetup } from './oauth-setup';

let s: OAuthSetup;
beforeAll(async () => {
  s = await startOAuthSetup();
  s.oauth.people.set('alice', { login: 'octo-alice', email: 'Alice@Example.com' });
  s.oauth.people.set('bob', { login: 'bob', email: 'bob@example.com', publicEmail: true });
  s.oauth.people.set('carol', { login: 'carol-k', email: 'carol@example.com' });
});
afterAll(async () => {
  await s?.stop();
});

/** a user with its role (read with the full-access token: /users/me does not show roles) */
const frontEndQuery = (search: string) => Object.fromEntries(new URLSearchParams(search));
const withRole = async (id: number) => (await s.t.request('GET', `/api/users/${id}?populate=role`, { token: true })).body;

describe('GET /api/connect/:provider', () => {
  it('redirects to the provider authorize URL with client_id, redirect_uri, scope and a state, and sets a state cookie', async () => {
    const r = await s.t.request('GET', '/api/connect/github');
    expect(r.status).toBe(302);
    const to = new URL(r.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(`${s.oauth.url}/authorize`);
    expect(Object.fromEntries(to.searchParams)).toEqual({
      client_id: 'github-client', response_type: 'code', redirect_uri: `${s.t.url}/api/connect/github/callback`,
      scope: 'user,user:email', state: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('tessera.oauth='))!;
    expect(cookie).toMatch(/; Path=\/api\/connect; Max-Age=600; HttpOnly; SameSite=Lax$/);
    // the state is in the signed cookie, not readable as such
    expect(cookie).not.toContain(to.searchParams.get('state'));
  });

  it("uses the provider's scope delimiter (google: a space)", async () => {
    const to = new URL((await s.t.request('GET', '/api/connect/google')).headers.get('location')!);
    expect(to.searchParams.get('scope')).toBe('email');
    await s.patchGrant('google', { scope: ['email', 'profile'] });
    expect(new URL((await s.t.request('GET', '/api/connect/google')).headers.get('location')!).searchParams.get('scope')).toBe('email profile');
    await s.patchGrant('google', { scope: ['email'] });
  });
});

describe('a first sign-in creates the user, the next ones find it', () => {
  it('github: the primary email from /user/emails, provider github, confirmed, the default role', async () => {
    const first = await s.signIn('github', 'alice');
    // browser hops: connect -> authorize -> grant callback -> front end
    expect(first.hops.map((h) => h.status)).toEqual([302, 302, 302, 200]);
    const back = new URL(first.hops[2].url);
    expect(`${back.origin}${back.pathname}`).toBe(`${s.t.url}/api/connect/github/callback`);
    expect(back.searchParams.get('code')).toBeTruthy();
    const query = new URLSearchParams(first.frontEnd!.search);
    expect(first.frontEnd!.path).toBe('/app/connect/github/redirect');
    expect(query.get('access_token')).toMatch(/^[0-9a-f]{32}$/);
    expect(query.get('raw[access_token]')).toBe(query.get('access_token'));
    expect(query.get('raw[token_type]')).toBe('bearer');
    // the token request grant makes: form fields, with the same redirect_uri
    expect(s.oauth.tokenRequests.at(-1)).toMatchObject({ grant_type: 'authorization_code', client_id: 'github-client', client_secret: 'github-secret', redirect_uri: `${s.t.url}/api/connect/github/callback` });
    expect(first.callback!.status).toBe(200);
    expect(first.callback!.body.jwt).toMatch(/^eyJ/);
    expect(first.callback!.body.user).toEqual({
      id: expect.any(Number), username: 'octo-alice', email: 'alice@example.com', provider: 'github', confirmed: true, blocked: false,
      createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    // the JWT signs the user in
    expect((await s.t.request('GET', '/api/users/me', { jwt: first.callback!.body.jwt })).body).toMatchObject({ id: first.callback!.body.user.id, provider: 'github' });
    expect(await withRole(first.callback!.body.user.id)).toMatchObject({ provider: 'github', confirmed: true, role: { type: 'authenticated' } });

    const second = await s.signIn('github', 'alice');
    expect(second.callback!.status).toBe(200);
    expect(second.callback!.body.user.id).toBe(first.callback!.body.user.id);
    const same = await s.t.request('GET', '/api/users?filters[email][$eq]=alice@example.com', { token: true });
    expect(same.body).toHaveLength(1);
  });

  it('github: a public profile email is used as it is', async () => {
    const r = await s.signIn('github', 'bob');
    expect(r.callback!.body.user).toMatchObject({ username: 'bob', email: 'bob@example.com', provider: 'github' });
  });

  it('google: the email of tokeninfo, the username its local part', async () => {
    const r = await s.signIn('google', 'carol');
    expect(r.callback!.status).toBe(200);
    expect(r.callback!.body.user).toMatchObject({ username: 'carol', email: 'carol@example.com', provider: 'google', confirmed: true });
  });

  it('the same email through another provider is refused while unique_email is on, and is a second account without it', async () => {
    const r = await s.signIn('keycloak', 'carol');
    expect(r.callback).toEqual({ status: 400, body: { data: null, error: { status: 400, name: 'ApplicationError', message: 'Email is already taken.', details: {} } } });
    await s.patchAdvanced({ unique_email: false });
    try {
      const k = await s.signIn('keycloak', 'carol');
      expect(k.callback!.body.user).toMatchObject({ username: 'carol-k', email: 'carol@example.com', provider: 'keycloak' });
    } finally {
      await s.patchAdvanced({ unique_email: true });
    }
  });

  it('PKCE (grant setting pkce: true): the challenge goes to the provider, the verifier with the code', async () => {
    await s.patchGrant('github', { pkce: true });
    try {
      s.oauth.people.set('ivy', { login: 'ivy', email: 'ivy@example.com', publicEmail: true });
      const r = await s.signIn('github', 'ivy');
      expect(new URL(r.hops[0].location!).searchParams.get('code_challenge_method')).toBe('S256');
      expect(s.oauth.tokenRequests.at(-1)!.code_verifier).toMatch(/^[0-9a-f]{80}$/);
      expect(r.callback!.body.user).toMatchObject({ username: 'ivy', provider: 'github' });
    } finally {
      await s.patchGrant('github', { pkce: false });
    }
  });

  it('OpenID Connect (keycloak, scope openid): the id_token goes to the front end; its nonce is checked when one was sent', async () => {
    await s.patchGrant('keycloak', { nonce: true });
    try {
      s.oauth.people.set('jo', { login: 'jo-k', email: 'jo@example.com' });
      const r = await s.signIn('keycloak', 'jo');
      expect(new URL(r.hops[0].location!).searchParams.get('nonce')).toMatch(/^[0-9a-f]{40}$/);
      expect(frontEndQuery(r.frontEnd!.search).id_token).toMatch(/^[\w-]+\.[\w-]+\.sig$/);
      expect(r.callback!.body.user).toMatchObject({ username: 'jo-k', email: 'jo@example.com', provider: 'keycloak' });
    } finally {
      await s.patchGrant('keycloak', { nonce: false });
    }
  });

  it("a provider the project adds to v4's providers-registry service signs in the same way", async () => {
    const registry = s.t.app.strapi.plugin('users-permissions').service('providers-registry') as { add(name: string, p: object): void };
    const github = s.oauth.grantEntry('github');
    registry.add('acme', {
      enabled: false, icon: '', grantConfig: {},
      async authCallback({ accessToken }: { accessToken: string }) {
        const res = await fetch(String(github.profile_url), { headers: { authorization: `Bearer ${accessToken}` } });
        const body = await res.json();
        return { username: `acme-${body.login}`, email: body.email };
      },
    });
    await s.patchGrant('acme', { ...github, oauth: 2, callback: `${s.oauth.url}/app/connect/acme/redirect` });
    s.oauth.people.set('lee', { login: 'lee', email: 'lee@example.com', publicEmail: true });
    const r = await s.signIn('acme', 'lee');
    expect(r.callback!.body.user).toMatchObject({ username: 'acme-lee', email: 'lee@example.com', provider: 'acme', confirmed: true });
  });

  it('auth0: the nickname as username', async () => {
    s.oauth.people.set('dave', { login: 'dave-nick', email: 'dave@example.com' });
    const r = await s.signIn('auth0', 'dave');
    expect(r.callback!.body.user).toMatchObject({ username: 'dave-nick', email: 'dave@example.com', provider: 'auth0' });
  });

  it('new users get the default role of the advanced settings', async () => {
    await s.t.request('POST', '/api/users-permissions/roles', { token: true, body: { name: 'Member' } });
    await s.patchAdvanced({ default_role: 'member' });
    try {
      s.oauth.people.set('erin', { login: 'erin', email: 'erin@example.com', publicEmail: true });
      const r = await s.signIn('github', 'erin');
      expect((await withRole(r.callback!.body.user.id)).role).toMatchObject({ type: 'member' });
    } finally {
      await s.patchAdvanced({ default_role: 'authenticated' });
    }
  });

  it('?callback= on connect sends the front end to that URL when origin and path match the configured callback', async () => {
    s.oauth.people.set('fay', { login: 'fay', email: 'fay@example.com', publicEmail: true });
    const custom = `${s.oauth.url}/app/connect/github/redirect?from=signup`;
    const r = await s.signIn('github', 'fay', { connectQuery: `?callback=${encodeURIComponent(custom)}` });
    // v4 (grant) appends a second `?`; Tessera continues the query with `&` (docs/compatibility.md)
    expect(r.frontEnd!.search.startsWith('?from=signup&access_token=')).toBe(true);
    expect(r.callback!.status).toBe(200);
  });
});
