// What the provider sign-in keeps between /api/connect/:provider and the provider's redirect back (v4 keeps
// it in its koa session as `grant`): the provider, the state (and nonce, PKCE verifier) sent to it, and the
// front-end callback asked for. Kept in the browser as one cookie, HMAC-signed with the app keys of
// config/server.js (`app.keys`, as koa signs its session cookie), valid for a few minutes and used once.
import crypto from 'node:crypto';

export const STATE_COOKIE = 'tessera.oauth';
export const STATE_MAX_AGE_S = 600;

export interface FlowState {
  /** provider */
  p: string;
  /** state */
  s: string;
  n?: string;
  /** PKCE code verifier */
  v?: string;
  /** the front-end callback given to connect as `?callback=` */
  c?: unknown;
  /** expiry, epoch seconds */
  e: number;
}

export interface CookieOptions {
  path: string;
  secure: boolean;
}

export function createStateCookie(appKeys: () => unknown, now: () => number = Date.now) {
  // without app keys (v4 refuses to start its session without them), a key that lives as long as the process
  const fallback = crypto.randomBytes(32).toString('hex');
  const keys = (): string[] => {
    const k = appKeys();
    const list = (Array.isArray(k) ? k : typeof k === 'string' ? k.split(',') : []).filter((x): x is string => typeof x === 'string' && x !== '');
    return list.length ? list : [fallback];
  };
  // a key of its own, so the signature is not one any other use of the app keys could produce
  const mac = (key: string, payload: string) => crypto.createHmac('sha256', key).update(`users-permissions oauth state\0${payload}`).digest('base64url');

  const attributes = (o: CookieOptions, maxAge: number) => `; Path=${o.path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${o.secure ? '; Secure' : ''}`;

  return {
    /** the Set-Cookie value holding `state` */
    issue(state: Omit<FlowState, 'e'>, o: CookieOptions): string {
      const payload = Buffer.from(JSON.stringify({ ...state, e: Math.floor(now() / 1000) + STATE_MAX_AGE_S })).toString('base64url');
      return `${STATE_COOKIE}=${payload}.${mac(keys()[0], payload)}${attributes(o, STATE_MAX_AGE_S)}`;
    },
    /** the Set-Cookie value that removes it */
    clear(o: CookieOptions): string {
      return `${STATE_COOKIE}=${attributes(o, 0)}`;
    },
    /** the state of the request's cookie when it is signed with one of the keys and not expired */
    read(cookieHeader: string | string[] | undefined): FlowState | undefined {
      const value = cookieValue(cookieHeader, STATE_COOKIE);
      const dot = value?.indexOf('.') ?? -1;
      if (!value || dot < 0) return undefined;
      const payload = value.slice(0, dot);
      const given = Buffer.from(value.slice(dot + 1));
      const valid = keys().some((k) => {
        const expected = Buffer.from(mac(k, payload));
        return expected.length === given.length && crypto.timingSafeEqual(expected, given);
      });
      if (!valid) return undefined;
      try {
        const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as FlowState;
        return typeof state.p === 'string' && typeof state.s === 'string' && typeof state.e === 'number' && state.e * 1000 > now() ? state : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export type StateCookie = ReturnType<typeof createStateCookie>;

function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  for (const line of [header ?? []].flat()) {
    for (const part of line.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
    }
  }
  return undefined;
}
