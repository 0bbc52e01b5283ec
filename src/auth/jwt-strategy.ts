// The users-permissions strategy for a bearer that is not an API token, as v4 runs it
// (UP:strategies/users-permissions.js): verify the JWT, load the user with its role, refuse unknown,
// unconfirmed (when confirmation is on) and blocked users with 401 "Invalid credentials", then the role's
// Ability. Stricter than v4: HS256 only (jwt.ts), and a token issued before the user's last password
// change or reset is refused (password-changes.ts).
import type { QueryFn, WriteListener } from '../query/query-engine';
import type { Entity } from '../query/types';
import type { AbilityCache } from './abilities';
import { UP_ROLE_UID } from './abilities';
import { UP_STRATEGY, type Auth, type JwtAuthenticator } from './authenticate';
import { verifyJwt, type JwtOptions, type JwtPayload } from './jwt';
import { passwordStamp } from './passwords';
import type { PasswordChanges } from './password-changes';

export const UP_USER_UID = 'plugin::users-permissions.user';

export interface JwtStrategyDeps {
  query: QueryFn;
  secret: () => string;
  options: () => JwtOptions;
  abilities: AbilityCache;
  passwordChanges: PasswordChanges;
  /** advanced setting `email_confirmation` (unconfirmed users are refused when on) */
  emailConfirmation: () => Promise<boolean>;
  /** attribute names never copied into `ctx.state.user` (the user model's private ones) */
  /** the user type's private attributes (iterated on each use: the model may be completed after start-up began) */
  privateFields: Iterable<string>;
  cacheSize?: number;
  /** a cached user is re-read after this long (writes of another process) (default 5 s) */
  cacheTtlMs?: number;
  now?: () => number;
}

interface CachedUser {
  at: number;
  user: Entity | null;
  stamp: string;
  /** seconds: tokens without a stamp issued before this are refused */
  changedAt: number | null;
}

const MISSING: Auth = { kind: 'none', reason: 'Missing or invalid credentials' };
const INVALID: Auth = { kind: 'none', reason: 'Invalid credentials' };

export function createJwtStrategy(deps: JwtStrategyDeps): JwtAuthenticator & { onWrite: WriteListener } {
  const now = deps.now ?? Date.now;
  const ttl = deps.cacheTtlMs ?? 5_000;
  const cacheSize = deps.cacheSize ?? 1000;
  const cache = new Map<number, CachedUser>();
  /** token -> its verified payload: a token seen before costs no signature check (expiry is still checked) */
  const verified = new Map<string, JwtPayload>();
  let generation = 0;

  async function verify(bearer: string): Promise<JwtPayload | null> {
    const hit = verified.get(bearer);
    if (hit) {
      if (typeof hit.exp !== 'number' || hit.exp * 1000 > now()) return hit;
      verified.delete(bearer);
      return null;
    }
    let payload: JwtPayload;
    try {
      payload = await verifyJwt(bearer, deps.secret(), deps.options());
    } catch {
      return null;
    }
    if (verified.size >= cacheSize) verified.delete(verified.keys().next().value as string);
    verified.set(bearer, payload);
    return payload;
  }

  async function loadUser(id: number): Promise<CachedUser> {
    const t = now();
    const hit = cache.get(id);
    if (hit && t - hit.at < ttl) return hit;
    const gen = generation;
    const [row, changedAt] = await Promise.all([
      deps.query(UP_USER_UID).findOne({ where: { id }, populate: { role: true } }),
      deps.passwordChanges.changedAt(id),
    ]);
    const entry: CachedUser = { at: t, user: null, stamp: '', changedAt: changedAt === null ? null : Math.floor(changedAt / 1000) };
    if (row) {
      entry.stamp = passwordStamp(row.password, deps.secret());
      const user: Entity = { ...row };
      for (const f of deps.privateFields) delete user[f];
      entry.user = user;
    }
    if (gen === generation) {
      cache.delete(id);
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as number);
      cache.set(id, entry);
    }
    return entry;
  }

  return {
    async authenticate(bearer: string): Promise<Auth> {
      const payload = await verify(bearer);
      if (!payload) return MISSING;
      const id = payload.id;
      if (id === undefined) return MISSING;
      if (typeof id !== 'number' && !(typeof id === 'string' && /^\d+$/.test(id))) return INVALID;
      const { user, stamp, changedAt } = await loadUser(Number(id));
      if (!user) return INVALID;
      if (typeof payload.pwv === 'string') {
        if (payload.pwv !== stamp) return INVALID;
      } else if (changedAt !== null && (typeof payload.iat !== 'number' || payload.iat < changedAt)) {
        return INVALID;
      }
      if ((await deps.emailConfirmation()) && !user.confirmed) return INVALID;
      if (user.blocked) return INVALID;
      const role = user.role as Entity | null | undefined;
      if (!role || typeof role.id !== 'number') return MISSING; // v4: `user.role.id` throws, caught as "not authenticated"
      // a copy per request: project code may change ctx.state.user without touching the cache
      const copy = { ...user };
      return { kind: 'user', user: copy, ability: await deps.abilities.forRole(role.id), strategy: UP_STRATEGY, credentials: copy };
    },
    onWrite(uid) {
      if (uid === UP_USER_UID || uid === UP_ROLE_UID) {
        generation++;
        cache.clear();
      }
    },
  };
}
