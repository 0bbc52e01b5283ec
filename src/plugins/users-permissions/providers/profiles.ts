// The profile each built-in provider gives for an access token: the requests and fields of v4's
// providers-registry (UP:services/providers-registry.js, which uses purest), one function per provider.
// The profile's address can be changed per provider with the grant settings' `profile_url` (a Tessera
// setting; grant reserves the name for the same purpose): GitHub's second request goes to `<profile_url>/emails`,
// LinkedIn's to `emailAddress?...` beside it.
import { NotImplementedError } from '../../../errors';
import { lazyModule } from '../../../lazy-module';
import { providerRequest } from './provider-http';
import type * as Jose from 'jose';

const loadJose = lazyModule('jose', 'Cognito sign-in', () => require('jose') as typeof Jose);

export interface Profile {
  username?: unknown;
  email?: unknown;
  [key: string]: unknown;
}

type GrantEntry = Record<string, any>;

export interface ProfileArgs {
  accessToken: string;
  /** the query of /api/auth/:provider/callback (what grant handed the front end) */
  query: Record<string, any>;
  /** the grant settings of every provider */
  providers: Record<string, GrantEntry>;
}

export type ProfileFn = (args: ProfileArgs) => Promise<Profile>;

/** `profile_url` of the settings, else v4's address; `query` is added to it */
function address(args: ProfileArgs, name: string, fallback: string, query: Record<string, string> = {}): string {
  const configured = args.providers[name]?.profile_url;
  const url = new URL(typeof configured === 'string' && configured ? configured : fallback);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}

const bearer = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
const get = (url: string, headers: Record<string, string>) => providerRequest(url, { headers }) as Promise<any>;
const subdomainOf = (args: ProfileArgs, name: string) => String(args.providers[name]?.subdomain ?? '');

/** An email address that belongs to the token's application only: Google's tokeninfo names the client. */
function assertAudience(info: Record<string, unknown>, key: unknown): void {
  if (typeof key !== 'string' || !key) return;
  const named = ['aud', 'audience', 'issued_to', 'azp'].map((k) => info[k]).filter((v) => typeof v === 'string');
  if (named.length && !named.includes(key)) throw new Error('The access token was not issued to this application');
}

export const PROFILES: Readonly<Record<string, ProfileFn>> = {
  async discord(a) {
    const body = await get(address(a, 'discord', 'https://discord.com/api/users/@me'), bearer(a.accessToken));
    // the username with its discriminator, if it has one other than 0
    const username = body.discriminator && body.discriminator !== '0' ? `${body.username}#${body.discriminator}` : body.username;
    return { username, email: body.email };
  },
  async facebook(a) {
    const body = await get(address(a, 'facebook', 'https://graph.facebook.com/me', { fields: 'name,email' }), bearer(a.accessToken));
    return { username: body.name, email: body.email };
  },
  async google(a) {
    // v4 sends the token as `accessToken` in the query of the tokeninfo endpoint
    const body = await get(address(a, 'google', 'https://accounts.google.com/o/oauth2/tokeninfo', { accessToken: a.accessToken }), {});
    assertAudience(body ?? {}, a.providers.google?.key);
    const email = typeof body?.email === 'string' ? body.email : undefined;
    return { username: email?.split('@')[0], email };
  },
  async github(a) {
    const url = address(a, 'github', 'https://api.github.com/user');
    const headers = bearer(a.accessToken, { 'user-agent': 'strapi' });
    const user = await get(url, headers);
    // the public email of the profile, else the primary one of /user/emails
    if (user.email) return { username: user.login, email: user.email };
    const emails = await get(`${url.replace(/\/+$/, '')}/emails`, headers);
    return { username: user.login, email: Array.isArray(emails) ? emails.find((e) => e?.primary === true)?.email ?? null : null };
  },
  async microsoft(a) {
    const body = await get(address(a, 'microsoft', 'https://graph.microsoft.com/v1.0/me'), bearer(a.accessToken));
    return { username: body.userPrincipalName, email: body.userPrincipalName };
  },
  twitter() {
    throw new NotImplementedError('Sign-in with "twitter" uses OAuth 1.0a, which Tessera does not support (v4 signs its requests with the grant and purest OAuth 1.0a clients)');
  },
  async instagram(a) {
    const body = await get(address(a, 'instagram', 'https://graph.instagram.com/me', { fields: 'id,username' }), bearer(a.accessToken));
    // Instagram gives no email: v4 makes one up
    return { username: body.username, email: `${body.username}@strapi.io` };
  },
  async vk(a) {
    const raw = a.query.raw ?? {};
    const body = await get(address(a, 'vk', 'https://api.vk.com/method/users.get', { id: String(raw.user_id ?? ''), v: '5.122' }), bearer(a.accessToken));
    const person = body?.response?.[0] ?? {};
    return { username: `${person.last_name} ${person.first_name}`, email: raw.email };
  },
  async twitch(a) {
    const body = await get(address(a, 'twitch', 'https://api.twitch.tv/helix/users'), { Authorization: `Bearer ${a.accessToken}`, 'Client-Id': String(a.providers.twitch?.key ?? '') });
    return { username: body?.data?.[0]?.login, email: body?.data?.[0]?.email };
  },
  async linkedin(a) {
    const url = address(a, 'linkedin', 'https://api.linkedin.com/v2/me');
    const me = await get(url, bearer(a.accessToken));
    const emails = await get(new URL('emailAddress?q=members&projection=(elements*(handle~))', url).toString(), bearer(a.accessToken));
    return { username: me.localizedFirstName, email: emails?.elements?.[0]?.['handle~']?.emailAddress };
  },
  async cognito(a) {
    const settings = a.providers.cognito ?? {};
    const jwksUrl = new URL(settings.jwksurl);
    const idToken = String(a.query.id_token ?? '');
    const jose = loadJose();
    let kid: string | undefined;
    let payload: Record<string, unknown> | undefined;
    try {
      kid = jose.decodeProtectedHeader(idToken).kid;
      payload = jose.decodeJwt(idToken);
    } catch { /* reported below */ }
    if (!payload || !kid) throw new Error('The provided token is not valid');
    try {
      const jwks = (await get(jwksUrl.toString(), {})) as Jose.JSONWebKeySet;
      const verified = await jose.jwtVerify(idToken, jose.createLocalJWKSet(jwks), {
        algorithms: ['RS256'],
        // the token must have been issued to this application's client (v4 does not check the audience)
        ...(typeof settings.key === 'string' && settings.key ? { audience: settings.key } : {}),
      });
      return { username: verified.payload['cognito:username'], email: verified.payload.email };
    } catch {
      throw new Error('There was an error verifying the token');
    }
  },
  async reddit(a) {
    const body = await get(address(a, 'reddit', 'https://oauth.reddit.com/api/v1/me'), bearer(a.accessToken, { 'user-agent': 'strapi' }));
    // Reddit gives no email: v4 makes one up
    return { username: body.name, email: `${body.name}@strapi.io` };
  },
  async auth0(a) {
    const body = await get(address(a, 'auth0', `https://${subdomainOf(a, 'auth0')}.auth0.com/userinfo`), bearer(a.accessToken));
    const username = body.username || body.nickname || body.name || (typeof body.email === 'string' ? body.email.split('@')[0] : undefined);
    const email = body.email || (typeof username === 'string' ? `${username.replace(/\s+/g, '.')}@strapi.io` : undefined);
    return { username, email };
  },
  async cas(a) {
    const body = await get(address(a, 'cas', `https://${subdomainOf(a, 'cas')}/oidc/profile`), bearer(a.accessToken));
    // CAS attributes may be nested in `attributes` or flat, depending on the CAS configuration
    const from = body.attributes ?? body;
    return { username: from.strapiusername || body.id || body.sub, email: body.attributes ? from.strapiemail || from.email : body.strapiemail || body.email };
  },
  async patreon(a) {
    const body = await get(address(a, 'patreon', 'https://www.patreon.com/api/oauth2/v2/identity', { 'fields[user]': 'full_name,email' }), bearer(a.accessToken));
    const person = body?.data?.attributes ?? {};
    return { username: person.full_name, email: person.email };
  },
  async keycloak(a) {
    const body = await get(address(a, 'keycloak', `https://${subdomainOf(a, 'keycloak')}/protocol/openid-connect/userinfo`), bearer(a.accessToken));
    return { username: body.preferred_username, email: body.email };
  },
};
