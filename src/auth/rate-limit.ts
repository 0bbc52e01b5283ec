// Rate limiting of the users-permissions auth routes (v4's UP:middlewares/rateLimit.js over koa2-ratelimit's
// memory store: fixed windows, `ratelimit: { interval: 60000, max: 10 }` by default, the request after `max` in
// a window answered 429 RateLimitError with X-RateLimit-* headers), keyed on what the request actually does:
// - the matched route, not the raw path: `/api/auth/local/`, `/api/auth/%6cocal` and `/api/%61uth/local` reach
//   the same handler, so they count in the same window (v4 keys on the path as sent);
// - the identifier the route's handler looks the user up by, lower-cased (`identifier` for a login, `email` for
//   register and forgot-password): v4 keys every route on `body.email`, which a login ignores, so a new `email`
//   in each login body gave a new window;
// - the client address as config/server.js `proxy` resolves it (X-Forwarded-For only with `proxy: true`), an
//   IPv6 address by its /64, which one client usually holds whole;
// plus a ceiling per route and address across identifiers (`maxPerIp`, 5 x `max` by default), so changing the
// identifier each time cannot spray guesses either. The store is bounded.
import net from 'node:net';
import { RateLimitError } from '../errors';

export interface RateLimitConfig {
  enabled?: boolean;
  /** ms, or koa2-ratelimit's `{ min: n }` / `{ sec: n }` / ... objects */
  interval?: number | Record<string, number>;
  max?: number;
  /** requests one address may make to one route in a window, across identifiers; 0 turns the ceiling off */
  maxPerIp?: number;
}

/** the default per-address ceiling, as a multiple of `max` */
export const IP_CEILING_FACTOR = 5;

export interface RateLimitRequest {
  /** the matched route (method and declared path) */
  route: string;
  /** what the handler looks the user up by, as `identifierOf` gives it; '' when the route has none */
  identifier: string;
  /** the client address as the proxy setting resolved it */
  ip: string;
  /** the signed-in user (change-password): koa2-ratelimit adds it, so users behind one address do not share a window */
  userId?: string | number;
}

export interface RateLimitVerdict {
  headers: Record<string, string>;
}

const UNIT_MS: Record<string, number> = { ms: 1, sec: 1000, min: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000, month: 2_592_000_000, year: 31_536_000_000 };

function intervalMs(v: RateLimitConfig['interval']): number {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
  if (v && typeof v === 'object') {
    const ms = Object.entries(v).reduce((acc, [unit, n]) => acc + (UNIT_MS[unit] ?? 0) * Number(n || 0), 0);
    if (ms > 0) return ms;
  }
  return 5 * 60_000; // the middleware's own fallback: { min: 5 }
}

/**
 * A body field as the handler compares it: lower-cased (the email lookups lower-case it, and usernames that differ
 * only in case then share a window, which is only stricter). Anything but a string or number fails the handler's
 * validation, so it needs no window of its own.
 */
export function identifierOf(body: unknown, field: string): string {
  const v = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  return typeof v === 'string' || typeof v === 'number' ? String(v).toLowerCase() : '';
}

/** The address a window belongs to: IPv4 as is (also when IPv4-mapped), IPv6 by its /64. */
export function clientOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  const addr = ip.split('%')[0];
  if (!net.isIPv6(addr)) return ip;
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const width = (g: string[]): number => g.reduce((n, x) => n + (x.includes('.') ? 2 : 1), 0);
  const [head, tail] = addr.split('::');
  const full = tail === undefined ? groups(head) : [...groups(head), ...Array<string>(8 - width(groups(head)) - width(groups(tail))).fill('0'), ...groups(tail)];
  return `${full.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

interface Window { count: number; end: number }

export function createRateLimiter(config: () => RateLimitConfig | undefined, opts: { now?: () => number; maxKeys?: number } = {}) {
  const now = opts.now ?? Date.now;
  const maxKeys = opts.maxKeys ?? 100_000;
  const hits = new Map<string, Window>();

  // windows are inserted as they open and all last one interval, so the map is in order of their end: expired
  // ones are at the front, and a full store costs no scan of the live ones per new key
  function prune(t: number): void {
    for (const [k, h] of hits) {
      if (h.end > t) break;
      hits.delete(k);
    }
  }

  function count(key: string, t: number, interval: number): Window {
    let h = hits.get(key);
    if (h && h.end <= t) {
      hits.delete(key);
      h = undefined;
    }
    if (!h) {
      if (hits.size >= maxKeys) prune(t);
      if (hits.size >= maxKeys) hits.delete(hits.keys().next().value as string); // still full: forget the oldest window
      h = { count: 0, end: t + interval };
      hits.set(key, h);
    }
    h.count += 1;
    return h;
  }

  return {
    /** Counts one request; throws RateLimitError past either limit. Returns the X-RateLimit-* headers. */
    hit(req: RateLimitRequest): RateLimitVerdict | null {
      const cfg = config() ?? { enabled: true };
      if (cfg.enabled === false) return null;
      const max = typeof cfg.max === 'number' ? cfg.max : 5;
      const ipMax = typeof cfg.maxPerIp === 'number' ? cfg.maxPerIp : IP_CEILING_FACTOR * max;
      const t = now();
      const interval = intervalMs(cfg.interval);
      const client = clientOf(req.ip);
      // JSON arrays: no identifier can be spelled to collide with another key
      const own = count(JSON.stringify([req.route, client, req.userId ?? null, req.identifier]), t, interval);
      const shared = count(JSON.stringify([req.route, client]), t, interval);
      // the headers describe the window closer to its limit
      const [limit, h] = ipMax && ipMax - shared.count < max - own.count ? [ipMax, shared] : [max, own];
      const headers = {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(Math.max(limit - h.count, 0)),
        'x-ratelimit-reset': String(Math.ceil(h.end / 1000)),
      };
      if ((max && own.count > max) || (ipMax && shared.count > ipMax)) throw Object.assign(new RateLimitError(), { headers });
      return { headers };
    },
    get size(): number {
      return hits.size;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
