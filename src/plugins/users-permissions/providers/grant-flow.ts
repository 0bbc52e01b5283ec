// GET /api/connect/:provider and /api/connect/:provider/callback: v4's `auth.connect` controller with the
// OAuth 2 code flow of grant 5 (the library v4 hands the request to), implemented directly.
//   connect:  302 to the provider's authorize URL (client_id, response_type=code, redirect_uri, scope, state)
//             with the flow's state in a signed cookie (state-cookie.ts)
//   callback: the state checked against the cookie, the code exchanged for tokens at the provider's access URL,
//             302 to the front end (the grant settings' `callback`, else `/`) with grant's query:
//             `access_token`, `refresh_token`, `id_token`, `raw[...]`; or `error=...` when anything failed.
// Stricter than v4: a state is always sent and checked (v4's default grant settings send none), the cookie
// is used once and only for the provider that set it, and a front-end URL with a query gets `&` instead of a
// second `?`.
import crypto from 'node:crypto';
import _ from 'lodash';
import qs from 'qs';
import { ApplicationError, NotImplementedError, ValidationError } from '../../../errors';
import type { RequestContext } from '../../../rest/context';
import type { Settings } from '../settings';
import { OAUTH_ENDPOINTS } from './oauth-endpoints';
import { providerRequest, ProviderHttpError } from './provider-http';
import { redirect } from '../../../rest/redirect';
import type { FlowState, StateCookie } from './state-cookie';

type Entry = Record<string, any>;
type Output = Record<string, unknown>;

export interface GrantFlowDeps {
  settings: Settings;
  cookie: StateCookie;
  apiPrefix: string;
  /** v4's providers.buildRedirectUri: <absolute server url><prefix>/connect/<provider>/callback */
  redirectUri(provider: string): string;
  /** config/server.js `url` as configured (v4 warns when it is not absolute) */
  configuredServerUrl(): string;
  /** `users-permissions.config.callback.validate` (v4's default: same origin and path as the settings' callback) */
  validateCallback(callback: unknown, provider: Entry): unknown;
  log: { warn(msg: string): void };
}

const random = () => crypto.randomBytes(20).toString('hex');

/** grant's setting formats: an empty string is no value; `key`/`client_id`, scope arrays joined by the delimiter */
function endpoint(name: string, entry: Entry) {
  const set = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : v);
  const defaults = OAUTH_ENDPOINTS[name];
  const subdomain = set(entry.subdomain) as string | undefined;
  const url = (v: unknown) => (typeof v === 'string' && subdomain ? v.replace('[subdomain]', subdomain) : (v as string | undefined));
  const delimiter = (set(entry.scope_delimiter) ?? defaults?.scope_delimiter ?? ',') as string;
  const scope = Array.isArray(entry.scope) ? entry.scope.filter(Boolean).join(delimiter) || undefined
    : entry.scope && typeof entry.scope === 'object' ? JSON.stringify(entry.scope) : set(entry.scope);
  return {
    oauth: Number(set(entry.oauth) ?? defaults?.oauth) || undefined,
    authorize: url(set(entry.authorize_url) ?? defaults?.authorize_url),
    access: url(set(entry.access_url) ?? defaults?.access_url),
    key: (set(entry.key) ?? set(entry.client_id)) as string | undefined,
    secret: (set(entry.secret) ?? set(entry.client_secret)) as string | undefined,
    scope: scope as string | undefined,
    callback: set(entry.callback) === undefined ? undefined : String(entry.callback),
  };
}

export function createGrantFlow(d: GrantFlowDeps) {
  let warned = false;

  async function connect(ctx: RequestContext): Promise<string> {
    const [provider = '', override] = String(ctx.params['*'] ?? '').split('/');
    const grant = await d.settings.grant();
    const entry: Entry | undefined = Object.hasOwn(grant, provider) ? grant[provider] : undefined;
    if (!_.get(entry, 'enabled')) throw new ApplicationError('This provider is disabled');
    if (!warned && !d.configuredServerUrl().startsWith('http')) {
      warned = true;
      d.log.warn('You are using a third party provider for login. Make sure to set an absolute url in config/server.js. More info here: https://docs.strapi.io/developer-docs/latest/plugins/users-permissions.html#setting-up-the-server-url');
    }
    const cookieOptions = { path: `${d.apiPrefix}/connect`, secure: ctx.raw?.req.protocol === 'https' };
    const session = override === 'callback' ? d.cookie.read(ctx.get('cookie')) : undefined;
    // a custom front-end callback: from this request's query, else the one connect was given (v4: the session)
    const custom = ctx.query.callback ?? session?.c;
    const settings: Entry = { ...entry };
    if (custom !== undefined) {
      try {
        await d.validateCallback(custom, settings);
      } catch {
        throw new ValidationError('Invalid callback URL provided', { callback: custom });
      }
      settings.callback = custom;
    }
    const e = endpoint(provider, settings);
    if (e.oauth === 1) throw new NotImplementedError(`Sign-in with "${provider}" uses OAuth 1.0a, which Tessera does not support`);
    if (override !== 'callback') {
      if (e.oauth !== 2 || !e.authorize) return toFrontEnd(ctx, e.callback, { error: 'Grant: missing or misconfigured provider' });
      const state: Omit<FlowState, 'e'> = { p: provider, s: random() };
      // grant: `nonce: true` sends one (checked in the id_token), `pkce: true` a S256 challenge
      if (settings.nonce && settings.nonce !== 'false') state.n = random();
      if (settings.pkce) state.v = crypto.randomBytes(40).toString('hex');
      if (ctx.query.callback !== undefined) state.c = ctx.query.callback;
      ctx.set('set-cookie', d.cookie.issue(state, cookieOptions));
      return redirect(ctx, `${e.authorize}?${qs.stringify(authorizeParams(provider, settings, e, state, d.redirectUri(provider)))}`);
    }
    // the cookie is for one callback: cleared whatever happens next
    ctx.set('set-cookie', d.cookie.clear(cookieOptions));
    if (!session || session.p !== provider || e.oauth !== 2) return toFrontEnd(ctx, undefined, { error: 'Grant: missing session or misconfigured provider' });
    const output = await exchange(provider, settings, e, session, ctx.query, d.redirectUri(provider));
    return toFrontEnd(ctx, e.callback, output);
  }

  return { connect };
}

function authorizeParams(provider: string, settings: Entry, e: ReturnType<typeof endpoint>, state: Omit<FlowState, 'e'>, redirectUri: string) {
  const params: Record<string, unknown> = {
    client_id: e.key, response_type: 'code', redirect_uri: redirectUri, scope: e.scope, state: state.s, nonce: state.n,
  };
  if (state.v) {
    params.code_challenge_method = 'S256';
    params.code_challenge = crypto.createHash('sha256').update(state.v).digest('base64url');
  }
  for (const [k, v] of Object.entries((settings.custom_params as Record<string, unknown>) ?? {})) if (v) params[k] = v;
  // grant: Instagram's numeric app ids go as app_id with comma-separated scopes
  if (provider === 'instagram' && /^\d+$/.test(e.key ?? '')) {
    params.app_id = params.client_id;
    delete params.client_id;
    params.scope = String(params.scope ?? '').replace(/ /g, ',') || undefined;
  }
  return params;
}

/** grant's oauth2 `access` and `data` steps: the tokens for the code the provider sent back, or an error */
async function exchange(provider: string, settings: Entry, e: ReturnType<typeof endpoint>, session: FlowState, query: Record<string, unknown>, redirectUri: string): Promise<Output> {
  if (!query.code) return Object.keys(query).length ? { ...query } : { error: 'Grant: OAuth2 missing code parameter' };
  if (query.state !== session.s) return { error: 'Grant: OAuth2 state mismatch' };
  const form: Record<string, string | undefined> = {
    grant_type: 'authorization_code', code: String(query.code), client_id: e.key, client_secret: e.secret, redirect_uri: redirectUri,
  };
  if (session.v) form.code_verifier = session.v;
  const headers: Record<string, string> = {};
  if (provider === 'reddit' || settings.token_endpoint_auth_method === 'client_secret_basic') {
    headers.authorization = `Basic ${Buffer.from(`${e.key ?? ''}:${e.secret ?? ''}`).toString('base64')}`;
    delete form.client_id;
    delete form.client_secret;
  }
  if (provider === 'instagram' && /^\d+$/.test(e.key ?? '')) {
    form.app_id = form.client_id;
    form.app_secret = form.client_secret;
    delete form.client_id;
    delete form.client_secret;
  }
  let output: Output;
  try {
    output = ((await providerRequest(e.access!, { method: 'POST', form, headers })) ?? {}) as Output;
  } catch (err) {
    return { error: (err instanceof ProviderHttpError && err.body) || (err as Error).message };
  }
  if (typeof output !== 'object' || output.error) return typeof output === 'object' ? output : { error: output };
  if (output.id_token) {
    const problem = idTokenProblem(String(output.id_token), e.key, session.n);
    if (problem) return { error: problem };
  }
  const data: Output = {};
  for (const k of ['id_token', 'access_token', 'refresh_token']) if (output[k]) data[k] = output[k];
  data.raw = output;
  return data;
}

/** grant's OpenID Connect checks of an id_token: its format, audience and nonce (the signature is the provider's word) */
function idTokenProblem(token: string, key: string | undefined, nonce: string | undefined): string | undefined {
  if (!/^[a-zA-Z0-9\-_]+?\.[a-zA-Z0-9\-_]+?\.([a-zA-Z0-9\-_]+)?$/.test(token)) return 'Grant: OpenID Connect invalid id_token format';
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
  } catch {
    return 'Grant: OpenID Connect error decoding id_token';
  }
  if (![payload.aud].flat().includes(key)) return 'Grant: OpenID Connect invalid id_token audience';
  if (nonce && payload.nonce !== nonce) return 'Grant: OpenID Connect nonce mismatch';
  return undefined;
}

/** grant's querystring transport: the front end (or `/`) with the output in its query */
function toFrontEnd(ctx: RequestContext, callback: string | undefined, output: Output): string {
  const base = callback || '/';
  return redirect(ctx, `${base}${base.includes('?') ? '&' : '?'}${qs.stringify(output)}`);
}
export type GrantFlow = ReturnType<typeof createGrantFlow>;
