// Who is calling: v4's content-API strategies in their order. The api-token strategy (@strapi/admin)
// looks the bearer up by its HMAC; the users-permissions strategy then verifies it as a JWT (jwt-strategy.ts);
// with no usable `Authorization: Bearer <x>` header the caller is the Public role. An invalid bearer never
// falls back to Public. The result carries the request's one Ability. Token lookups are cached by hash;
// `lastUsedAt` is written at most once a minute per token, in the background.
import type { QueryFn, WriteListener } from '../query/query-engine';
import type { Entity } from '../query/types';
import { FULL_ACCESS, READ_ONLY, abilityOf, type Ability, type AbilityCache } from './abilities';
import { API_TOKEN_PERMISSION_UID, API_TOKEN_UID, type ApiToken, type ApiTokenService, type ApiTokenType } from './api-token-service';

export type AuthFailure = 'Missing or invalid credentials' | 'Token expired' | 'Invalid credentials';

export interface ApiTokenCredentials {
  id: number;
  /** what project code reads of v4's `ctx.state.auth.credentials` besides the rest */
  name?: string;
  type: ApiTokenType;
  /** custom tokens: the actions they grant; null for read-only and full-access */
  permissions: string[] | null;
  /** ISO string, or null (never expires) */
  expiresAt: string | null;
}

/** v4's `ctx.state.auth.strategy` (plugins read its `name`) */
export interface AuthStrategy { name: 'users-permissions' | 'api-token' }
export const UP_STRATEGY: AuthStrategy = Object.freeze({ name: 'users-permissions' });
export const TOKEN_STRATEGY: AuthStrategy = Object.freeze({ name: 'api-token' });

/**
 * The caller of a request. `strategy` and `credentials` (the token or the user, null for the public) are v4's
 * `ctx.state.auth` members plugins read; set when the object is made, so every Auth keeps one shape.
 */
export type Auth =
  | { kind: 'public'; ability: Ability; strategy?: AuthStrategy; credentials?: null }
  | { kind: 'api-token'; token: ApiTokenCredentials; ability: Ability; strategy?: AuthStrategy; credentials?: ApiTokenCredentials }
  /** a users-permissions user (JWT); `user` has its role populated and no private attribute */
  | { kind: 'user'; user: Entity; ability: Ability; strategy?: AuthStrategy; credentials?: Entity }
  | { kind: 'none'; reason: AuthFailure; strategy?: undefined; credentials?: null };

export interface AuthLogger {
  error(obj: unknown, msg?: string): void;
}

/** The users-permissions strategy: a bearer that is not an API token. */
export interface JwtAuthenticator {
  authenticate(bearer: string): Promise<Auth>;
}

export interface AuthenticatorDeps {
  query: QueryFn;
  apiTokens: Pick<ApiTokenService, 'hash' | 'getBy'>;
  abilities: AbilityCache;
  jwt?: JwtAuthenticator;
  log?: AuthLogger;
  /** most cached lookups kept (default 1000) */
  cacheSize?: number;
  /** a cached lookup is re-read after this long, so changes made by another process show up (default 10 s) */
  cacheTtlMs?: number;
  /** lastUsedAt is written at most this often per token (default 1 minute) */
  lastUsedIntervalMs?: number;
  /** clock (tests) */
  now?: () => number;
}

const MINUTE = 60 * 1000;
const BEARER = /^bearer$/i;

/** v4 `extractToken`: exactly `<scheme> <token>` split on whitespace, the scheme `bearer` in any case. */
export function extractBearer(header: string | undefined): string | null {
  if (!header) return null;
  const parts = header.split(/\s+/);
  if (parts.length !== 2 || !BEARER.test(parts[0])) return null;
  return parts[1]; // may be '' (v4 then fails the JWT check: 401, not public)
}

type CachedToken = ApiTokenCredentials & { lastUsedAt: number | null; ability: Ability };

interface CachedLookup {
  token: CachedToken | null;
  at: number;
}

export function toMillis(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const ms = typeof v === 'number' ? v : v instanceof Date ? v.getTime() : new Date(String(v)).getTime();
  return Number.isNaN(ms) ? null : ms;
}

function tokenAbility(type: ApiTokenType, permissions: string[] | null): Ability {
  if (type === 'full-access') return FULL_ACCESS;
  if (type === 'read-only') return READ_ONLY;
  return abilityOf(permissions ?? []);
}

export function createAuthenticator(deps: AuthenticatorDeps) {
  const { query, apiTokens } = deps;
  const cacheSize = deps.cacheSize ?? 1000;
  const ttl = deps.cacheTtlMs ?? 10_000;
  const interval = deps.lastUsedIntervalMs ?? MINUTE;
  const now = deps.now ?? Date.now;
  /** hash -> lookup result (a miss is cached too: unknown bearers must not cost a query each) */
  const cache = new Map<string, CachedLookup>();
  /** token id -> when we last wrote (or saw) its lastUsedAt */
  const lastUsed = new Map<number, number>();
  const pending = new Set<Promise<unknown>>();
  /** bumped by every token write: a lookup started before it must not be cached */
  let generation = 0;

  async function lookup(hash: string): Promise<CachedToken | null> {
    const hit = cache.get(hash);
    const t = now();
    if (hit && t - hit.at < ttl) return hit.token;
    const gen = generation;
    const row: ApiToken | null = await apiTokens.getBy({ accessKey: hash });
    let token: CachedToken | null = null;
    if (row) {
      const permissions = row.type === 'custom' && Array.isArray(row.permissions) ? (row.permissions as string[]) : null;
      token = {
        id: row.id, name: row.name, type: row.type, permissions, expiresAt: row.expiresAt ?? null,
        lastUsedAt: toMillis(row.lastUsedAt), ability: tokenAbility(row.type, permissions),
      };
    }
    if (gen === generation) {
      cache.delete(hash);
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
      cache.set(hash, { token, at: t });
    }
    return token;
  }

  /**
   * lastUsedAt when a minute has passed since the last write, off the request path. (v4 4.26.2 means to do
   * this hourly but compares with `parseISO(lastUsedAt)`, which is NaN while the column is NULL, so in
   * practice it never writes it; we write it as intended, which v4 reads back without trouble.)
   */
  function touch(token: CachedToken, t: number): void {
    const seen = lastUsed.get(token.id);
    const last = seen === undefined ? token.lastUsedAt : Math.max(seen, token.lastUsedAt ?? seen);
    if (last !== null && t - last < interval) return;
    if (lastUsed.size >= 10_000) lastUsed.clear();
    lastUsed.set(token.id, t);
    const p = query(API_TOKEN_UID)
      .update({ where: { id: token.id }, data: { lastUsedAt: new Date(t) }, select: ['id'] })
      .catch((err: unknown) => deps.log?.error({ err }, `could not record lastUsedAt of API token ${token.id}`))
      .finally(() => pending.delete(p));
    pending.add(p);
  }

  /** Registered with createQueryEngine: token writes drop the cache (our own lastUsedAt writes included, harmlessly). */
  const onWrite: WriteListener = (uid) => {
    if (uid === API_TOKEN_UID || uid === API_TOKEN_PERMISSION_UID) {
      generation++;
      cache.clear();
    }
  };

  return {
    async authenticate(authorizationHeader: string | undefined): Promise<Auth> {
      const bearer = extractBearer(authorizationHeader);
      if (bearer === null) return { kind: 'public', ability: await deps.abilities.forPublic(), strategy: UP_STRATEGY, credentials: null };
      let hash: string | null = null;
      // API tokens are hex: a bearer with a dot (a JWT) cannot be one, so it costs no lookup
      if (!bearer.includes('.')) {
        try {
          hash = apiTokens.hash(bearer);
        } catch {
          hash = null; // no salt: API tokens are unusable, the bearer can only be something else
        }
      }
      const token = hash === null ? null : await lookup(hash);
      if (!token) return deps.jwt ? deps.jwt.authenticate(bearer) : { kind: 'none', reason: 'Missing or invalid credentials' };
      const t = now();
      const expires = toMillis(token.expiresAt);
      if (expires !== null && expires < t) return { kind: 'none', reason: 'Token expired' };
      touch(token, t);
      const credentials = { id: token.id, name: token.name, type: token.type, permissions: token.permissions, expiresAt: token.expiresAt };
      return { kind: 'api-token', token: credentials, ability: token.ability, strategy: TOKEN_STRATEGY, credentials };
    },
    onWrite,
    /** waits for background lastUsedAt writes (call before closing the database) */
    async close(): Promise<void> {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    /** cached lookups (tests, metrics) */
    get cacheSize(): number {
      return cache.size;
    },
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
