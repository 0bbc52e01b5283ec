// Rate limiting of the users-permissions auth routes as v4 does it (UP:middlewares/rateLimit.js over
// koa2-ratelimit's memory store): a fixed window per key `<lower-cased body.email or unknownIdentifier>:
// <normalized path>:<client ip>`, `ratelimit: { interval: 60000, max: 10 }` by default (plugin config),
// the request after `max` in a window answered 429 RateLimitError. The client ip is the socket address
// unless config/server.js `proxy` is true (then X-Forwarded-For is trusted), so the header cannot be used
// to escape the limit (CVE-2025-64526 class). The store is bounded.
import path from 'node:path';
import { RateLimitError } from '../errors';

export interface RateLimitConfig {
  enabled?: boolean;
  /** ms, or koa2-ratelimit's `{ min: n }` / `{ sec: n }` / ... objects */
  interval?: number | Record<string, number>;
  max?: number;
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

/** The key v4 builds: body.email (lower-cased) or 'unknownIdentifier', the normalized path, the ip. */
export function rateLimitKey(body: unknown, requestPath: string, ip: string): string {
  const email = (body as { email?: unknown } | null | undefined)?.email;
  const id = typeof email === 'string' && email !== '' ? email.toLowerCase() : email !== undefined && email !== null && email !== '' ? String(email).toLowerCase() : 'unknownIdentifier';
  return `${id}:${path.posix.normalize(requestPath).toLowerCase()}:${ip}`;
}

export function createRateLimiter(config: () => RateLimitConfig | undefined, opts: { now?: () => number; maxKeys?: number } = {}) {
  const now = opts.now ?? Date.now;
  const maxKeys = opts.maxKeys ?? 100_000;
  const hits = new Map<string, { count: number; end: number }>();

  function prune(t: number): void {
    for (const [k, h] of hits) if (h.end <= t) hits.delete(k);
  }

  return {
    /** Counts one request; throws RateLimitError past the limit. Returns the X-RateLimit-* headers. */
    hit(key: string): RateLimitVerdict | null {
      const cfg = config() ?? { enabled: true };
      if (cfg.enabled === false) return null;
      const max = typeof cfg.max === 'number' ? cfg.max : 5;
      const t = now();
      let h = hits.get(key);
      if (h && h.end <= t) {
        hits.delete(key);
        h = undefined;
      }
      if (!h) {
        if (hits.size >= maxKeys) prune(t);
        if (hits.size >= maxKeys) hits.delete(hits.keys().next().value as string); // still full: forget the oldest window
        h = { count: 0, end: t + intervalMs(cfg.interval) };
        hits.set(key, h);
      }
      h.count += 1;
      const headers = {
        'x-ratelimit-limit': String(max),
        'x-ratelimit-remaining': String(Math.max(max - h.count, 0)),
        'x-ratelimit-reset': String(Math.ceil(h.end / 1000)),
      };
      if (max && h.count > max) throw Object.assign(new RateLimitError(), { headers });
      return { headers };
    },
    get size(): number {
      return hits.size;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
