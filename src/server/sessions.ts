// `ctx.session` as v4's `strapi::session` middleware gives it (koa-session 6 over the `cookies` package): the
// session lives in the cookie itself, `koa.sess` = base64 of its JSON (with `_expire` and `_maxAge`), signed in
// `koa.sess.sig` with the first of config/server.js `app.keys` (keygrip: HMAC-SHA1, url-safe base64; any key
// verifies). A cookie without a valid signature, or expired, is no session. The cookie is written only when
// the session changed (or with `rolling`), removed when code sets `ctx.session = null`. Plugins rely on it:
// the documentation plugin's login keeps `ctx.session.documentation.logged`.
import crypto from 'node:crypto';

/** strapi::session's options (v4's defaults, config/middlewares.js `{ name: 'strapi::session', config }` over them) */
export interface SessionOptions {
  key: string;
  /** milliseconds, or 'session' for a cookie without expiry */
  maxAge: number | 'session';
  overwrite: boolean;
  httpOnly: boolean;
  signed: boolean;
  rolling: boolean;
  renew: boolean;
  secure: boolean;
  sameSite?: boolean | string;
  path: string;
  domain?: string;
}

export function sessionOptions(config: Record<string, unknown>, env: string | undefined): SessionOptions {
  return {
    key: 'koa.sess', maxAge: 86400000, overwrite: true, httpOnly: true, signed: true, rolling: false, renew: false,
    secure: env === 'production', sameSite: undefined, path: '/',
    ...(config as Partial<SessionOptions>),
  };
}

export type SessionData = Record<string, unknown>;

/** what one request did with its session */
export interface SessionState {
  /** the session object code sees (null: removed by code) */
  session: SessionData | null;
  /** the JSON of the session the cookie held (undefined: no valid cookie) */
  prevJson?: string;
  /** a `_maxAge` the cookie carried */
  maxAge?: number | 'session';
}

export interface Sessions {
  /** the session of a request (its Cookie header) */
  load(cookieHeader: string | undefined): SessionState;
  /** the Set-Cookie headers the session's state needs (none when nothing changed); throws as `cookies` does for a secure cookie over http */
  commit(state: SessionState, secureRequest: boolean): string[];
}

const APP_KEYS_MESSAGE = "App keys are required. Please set app.keys in config/server.js (ex: keys: ['myKeyA', 'myKeyB'])";

/** keygrip's sign: HMAC-SHA1, base64 made url-safe without padding */
function sign(data: string, key: string): string {
  return crypto.createHmac('sha1', key).update(data).digest('base64').replace(/\/|\+|=/g, (c) => (c === '/' ? '_' : c === '+' ? '-' : ''));
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

const escapeRegExp = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/** the `cookies` package's read: the first `name=value` of the header */
function readCookie(header: string, name: string): string | undefined {
  return new RegExp(`(?:^|;) *${escapeRegExp(name)}=([^;]*)`).exec(header)?.[1];
}

/** koa-session's Session#toJSON: what is saved (no `_` keys, no `isNew`) */
function toJSON(session: SessionData): SessionData {
  const out: SessionData = {};
  for (const key of Object.keys(session)) if (key !== 'isNew' && key[0] !== '_') out[key] = session[key];
  return out;
}

/** `keys`: config/server.js `app.keys`; the answer of v4 when they are missing comes when a session is used */
export function createSessions(options: SessionOptions, keys: unknown): Sessions {
  const validKeys = Array.isArray(keys) && keys.length > 0 && keys.every((k) => typeof k === 'string' && k !== '') ? (keys as string[]) : undefined;
  const needKeys = (): string[] => {
    if (!validKeys) throw new Error(APP_KEYS_MESSAGE);
    return validKeys;
  };
  const sigName = `${options.key}.sig`;

  const verified = (header: string): string | undefined => {
    const value = readCookie(header, options.key);
    if (value === undefined || !options.signed) return value;
    const sig = readCookie(header, sigName);
    if (sig === undefined) return undefined;
    const data = `${options.key}=${value}`;
    return needKeys().some((k) => sameText(sign(data, k), sig)) ? value : undefined;
  };

  const cookie = (name: string, value: string, expires: Date | undefined): string => {
    let header = `${name}=${value}; path=${options.path}`;
    if (expires) header += `; expires=${expires.toUTCString()}`;
    if (options.domain) header += `; domain=${options.domain}`;
    if (options.sameSite) header += `; samesite=${options.sameSite === true ? 'strict' : String(options.sameSite).toLowerCase()}`;
    if (options.secure) header += '; secure';
    if (options.httpOnly) header += '; httponly';
    return header;
  };

  const write = (value: string, expires: Date | undefined, secureRequest: boolean): string[] => {
    if (options.secure && !secureRequest) throw new Error('Cannot send secure cookie over unencrypted connection');
    const out = [cookie(options.key, value, expires)];
    if (options.signed) out.push(cookie(sigName, sign(`${options.key}=${value}`, needKeys()[0]), expires));
    return out;
  };

  return {
    load(header) {
      const value = header ? verified(header) : undefined;
      if (value) {
        try {
          const json = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as SessionData;
          const expire = json._expire;
          if (json && typeof json === 'object' && (typeof expire !== 'number' || expire > Date.now())) {
            const maxAge = json._session ? 'session' : typeof json._maxAge === 'number' ? json._maxAge : undefined;
            return { session: { ...json }, prevJson: JSON.stringify(toJSON(json)), maxAge };
          }
        } catch {
          // not a session: a new one
        }
      }
      return { session: {} };
    },
    commit(state, secureRequest) {
      if (state.session === null) {
        // koa-session's remove: both cookies expired
        return state.prevJson === undefined ? [] : write('', new Date(0), secureRequest);
      }
      const json = toJSON(state.session);
      const text = JSON.stringify(json);
      const changed = state.prevJson !== text;
      if (state.prevJson === undefined && Object.keys(json).length === 0) return [];
      if (!changed && !options.rolling) return [];
      const maxAge = state.maxAge ?? options.maxAge;
      const saved: SessionData = { ...json };
      if (maxAge === 'session') saved._session = true;
      else {
        saved._expire = Date.now() + maxAge;
        saved._maxAge = maxAge;
      }
      const value = Buffer.from(JSON.stringify(saved)).toString('base64');
      return write(value, maxAge === 'session' ? undefined : new Date(Date.now() + maxAge), secureRequest);
    },
  };
}
