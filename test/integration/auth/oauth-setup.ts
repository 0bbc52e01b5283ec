// The fixture app and a loopback OAuth2 server wired together for the provider sign-in tests: the grant
// settings point github, google, keycloak and auth0 at the server, and `signIn` runs the whole flow as a
// browser and a front end would (connect -> authorize -> Tessera's grant callback -> front end -> auth callback).
import { startAuthApp, type AuthApp } from './auth-app';
import { Browser, type Hop } from './oauth-browser';
import { startOAuthServer, type OAuthServer } from './oauth-server';

export type Provider = 'github' | 'google' | 'keycloak' | 'auth0';

export interface OAuthSetup {
  t: AuthApp;
  oauth: OAuthServer;
  store: { get(key: string): Promise<any>; set(key: string, value: unknown): Promise<void> };
  patchGrant(provider: string, patch: Record<string, unknown>): Promise<void>;
  patchAdvanced(patch: Record<string, unknown>): Promise<void>;
  signIn(provider: Provider | string, as: string, o?: SignInOptions): Promise<SignIn>;
  stop(): Promise<void>;
}

export interface SignInOptions {
  deny?: boolean;
  /** change the URL of a hop before it is requested (e.g. the state the provider sends back) */
  edit?: (u: URL) => URL | void;
  browser?: Browser;
  /** query of /api/connect/:provider */
  connectQuery?: string;
}

export interface SignIn {
  hops: Hop[];
  /** the query string the front end received (with its `?`), when the flow reached it */
  frontEnd?: { path: string; search: string };
  /** the answer of GET /api/auth/:provider/callback with that query */
  callback?: { status: number; body: any };
}

export async function startOAuthSetup(): Promise<OAuthSetup> {
  const oauth = await startOAuthServer();
  let t: AuthApp;
  try {
    // many sign-ins from one address: the connect rate limit is not what these tests look at
    t = await startAuthApp({ usersPermissions: { ratelimit: { enabled: false } } });
  } catch (err) {
    await oauth.close();
    throw err;
  }
  // what a deployment sets in config/server.js (`url`): the public address the provider redirects back to
  t.app.strapi.config.set('server.url', t.url);
  const up = t.app.strapi.store({ type: 'plugin', name: 'users-permissions' });
  const store = { get: (key: string) => up.get({ key }) as Promise<any>, set: (key: string, value: unknown) => up.set({ key, value }) };
  const patchGrant = async (provider: string, patch: Record<string, unknown>) => {
    const grant = await store.get('grant');
    await store.set('grant', { ...grant, [provider]: { ...grant[provider], ...patch } });
  };
  for (const p of ['github', 'google', 'keycloak', 'auth0'] as const) await patchGrant(p, oauth.grantEntry(p));
  const patchAdvanced = async (patch: Record<string, unknown>) => store.set('advanced', { ...(await store.get('advanced')), ...patch });

  async function signIn(provider: Provider | string, as: string, o: SignInOptions = {}): Promise<SignIn> {
    const browser = o.browser ?? new Browser();
    const hops = await browser.follow(`${t.url}/api/connect/${provider}${o.connectQuery ?? ''}`, (u) => {
      if (u.origin === oauth.url && u.pathname === '/authorize') {
        u.searchParams.set('as', as);
        if (o.deny) u.searchParams.set('deny', '1');
      }
      return o.edit?.(u);
    });
    const last = hops[hops.length - 1];
    if (last.status !== 200 || !last.url.startsWith(`${oauth.url}/app/`)) return { hops };
    const frontEnd = JSON.parse(last.body) as { path: string; search: string };
    // the front end hands the whole query on, as v4's docs show (`/api/auth/<provider>/callback${location.search}`)
    const r = await t.request('GET', `/api/auth/${provider}/callback${frontEnd.search}`);
    return { hops, frontEnd, callback: { status: r.status, body: r.body } };
  }

  return {
    t, oauth, store, patchGrant, patchAdvanced, signIn,
    async stop() {
      try {
        await t.stop();
      } finally {
        await oauth.close();
      }
    },
  };
}
