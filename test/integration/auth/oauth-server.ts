// A small OAuth2 authorization server on a free loopback port (node:http), enough for the users-permissions
// provider flow to run for real: the authorize endpoint (auto-consent as a chosen person, or deny), the
// token endpoint (authorization codes, single use, bound to client and redirect_uri), profile endpoints shaped
// as GitHub's, Google's, Keycloak's and Auth0's answer them, and a "front end" page that shows the query it got.
import http from 'node:http';
import crypto from 'node:crypto';
import type net from 'node:net';

export interface Person {
  /** GitHub login, Keycloak preferred_username, Auth0 nickname */
  login: string;
  email: string;
  /** GitHub: whether /user shows the email (else only /user/emails has it) */
  publicEmail?: boolean;
  /** the `aud` of the id_token issued for this person (default: the client it was issued to) */
  idTokenAudience?: string;
}

export interface OAuthServer {
  url: string;
  /** the people who can consent, by the `as` query flag of /authorize */
  people: Map<string, Person>;
  /** client id -> secret */
  clients: Map<string, string>;
  /** the token requests received (form fields), newest last */
  tokenRequests: Array<Record<string, string>>;
  /** the grant-store entry that points a provider at this server */
  grantEntry(provider: 'github' | 'google' | 'keycloak' | 'auth0', extra?: Record<string, unknown>): Record<string, unknown>;
  close(): Promise<void>;
}

interface Code { client: string; redirectUri: string; person: Person; used: boolean; scope: string; nonce?: string; challenge?: string }

/** an OpenID Connect id_token as a provider issues it (the relying party reads aud and nonce; the signature is not checked here) */
const idToken = (payload: Record<string, unknown>) => ['{"alg":"none"}', JSON.stringify(payload)].map((p) => Buffer.from(p).toString('base64url')).join('.') + '.sig';

const PROFILE_PATH = { github: '/github/user', google: '/google/tokeninfo', keycloak: '/keycloak/userinfo', auth0: '/auth0/userinfo' } as const;

export async function startOAuthServer(): Promise<OAuthServer> {
  const people = new Map<string, Person>();
  const clients = new Map<string, string>();
  const codes = new Map<string, Code>();
  const tokens = new Map<string, { person: Person; client: string }>();
  const tokenRequests: Array<Record<string, string>> = [];

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const redirect = (res: http.ServerResponse, to: string) => {
    res.writeHead(302, { location: to });
    res.end();
  };
  const bearer = (req: http.IncomingMessage) => tokens.get(String(req.headers.authorization ?? '').replace(/^Bearer /i, ''));

  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const q = u.searchParams;
    let raw = '';
    req.on('data', (c: Buffer) => { raw += c.toString('utf8'); });
    req.on('end', () => {
      if (req.method === 'GET' && u.pathname === '/authorize') {
        const redirectUri = q.get('redirect_uri');
        if (!redirectUri || q.get('response_type') !== 'code' || !clients.has(q.get('client_id') ?? '')) return send(res, 400, { error: 'invalid_request' });
        const back = new URL(redirectUri);
        if (q.has('state')) back.searchParams.set('state', q.get('state')!);
        if (q.get('deny') === '1') {
          back.searchParams.set('error', 'access_denied');
          back.searchParams.set('error_description', 'The user denied the request');
          return redirect(res, back.toString());
        }
        const person = people.get(q.get('as') ?? '');
        if (!person) return send(res, 400, { error: 'unknown person' });
        const code = crypto.randomBytes(12).toString('hex');
        codes.set(code, {
          client: q.get('client_id')!, redirectUri, person, used: false, scope: q.get('scope') ?? '',
          nonce: q.get('nonce') ?? undefined, challenge: q.get('code_challenge_method') === 'S256' ? q.get('code_challenge')! : undefined,
        });
        back.searchParams.set('code', code);
        return redirect(res, back.toString());
      }
      if (req.method === 'POST' && u.pathname === '/token') {
        const form = Object.fromEntries(new URLSearchParams(raw));
        tokenRequests.push(form);
        const code = codes.get(form.code ?? '');
        const ok = form.grant_type === 'authorization_code' && code && !code.used
          && code.client === form.client_id && clients.get(form.client_id) === form.client_secret && code.redirectUri === form.redirect_uri;
        // PKCE: the verifier must hash to the challenge the authorize request carried
        const pkceOk = !code?.challenge || crypto.createHash('sha256').update(form.code_verifier ?? '').digest('base64url') === code.challenge;
        if (!ok || !pkceOk) return send(res, 400, { error: 'invalid_grant', error_description: 'The code is not valid' });
        code.used = true;
        const accessToken = crypto.randomBytes(16).toString('hex');
        tokens.set(accessToken, { person: code.person, client: code.client });
        const oidc = code.scope.split(' ').includes('openid')
          ? { id_token: idToken({ sub: code.person.login, aud: code.person.idTokenAudience ?? code.client, email: code.person.email, ...(code.nonce ? { nonce: code.nonce } : {}) }) }
          : {};
        return send(res, 200, { access_token: accessToken, token_type: 'bearer', scope: code.scope, ...oidc });
      }
      if (req.method === 'GET' && u.pathname === PROFILE_PATH.github) {
        const t = bearer(req);
        if (!t) return send(res, 401, { message: 'Bad credentials' });
        return send(res, 200, { login: t.person.login, id: 1, email: t.person.publicEmail ? t.person.email : null });
      }
      if (req.method === 'GET' && u.pathname === `${PROFILE_PATH.github}/emails`) {
        const t = bearer(req);
        if (!t) return send(res, 401, { message: 'Bad credentials' });
        return send(res, 200, [{ email: `other-${t.person.email}`, primary: false, verified: true }, { email: t.person.email, primary: true, verified: true }]);
      }
      if (req.method === 'GET' && u.pathname === PROFILE_PATH.google) {
        // v4 sends the token as `accessToken` in the query (no Authorization header)
        const t = tokens.get(q.get('accessToken') ?? '');
        if (!t) return send(res, 400, { error: 'invalid_token' });
        return send(res, 200, { issued_to: t.client, audience: t.client, email: t.person.email, verified_email: true });
      }
      if (req.method === 'GET' && (u.pathname === PROFILE_PATH.keycloak || u.pathname === PROFILE_PATH.auth0)) {
        const t = bearer(req);
        if (!t) return send(res, 401, { error: 'invalid_token' });
        return send(res, 200, u.pathname === PROFILE_PATH.keycloak
          ? { sub: 'k-1', preferred_username: t.person.login, email: t.person.email }
          : { sub: 'a-1', nickname: t.person.login, email: t.person.email });
      }
      if (req.method === 'GET' && u.pathname.startsWith('/app/')) {
        // the front end: shows what it was sent, as a page would read location.search
        return send(res, 200, { path: u.pathname, search: u.search });
      }
      send(res, 404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url, people, clients, tokenRequests,
    grantEntry(provider, extra = {}) {
      const key = `${provider}-client`;
      clients.set(key, `${provider}-secret`);
      return {
        enabled: true, key, secret: `${provider}-secret`,
        authorize_url: `${url}/authorize`, access_url: `${url}/token`, profile_url: `${url}${PROFILE_PATH[provider]}`,
        callback: `${url}/app/connect/${provider}/redirect`,
        ...extra,
      };
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
