// The Ability of a request: which content-API actions (`api::article.article.find`, ...) it may run.
// Computed once per request by authenticate() and used for the route itself and for everything the
// request reaches indirectly (populate, filters and sort through relations). Role abilities are cached per
// role and dropped when up_permissions or up_roles change (write listener), or re-read once older than
// maxAgeMs (writes of another process).
import type { QueryFn, WriteListener } from '../query/query-engine';

export const UP_PERMISSION_UID = 'plugin::users-permissions.permission';
export const UP_ROLE_UID = 'plugin::users-permissions.role';

export interface Ability {
  can(action: string): boolean;
  /** number of actions granted (Infinity for full access) */
  readonly size: number;
}

/** v4 `isReadScope`: a suffix test without the dot, as v4 writes it. */
export const isReadScope = (scope: string): boolean => scope.endsWith('find') || scope.endsWith('findOne');

export function abilityOf(actions: Iterable<string>): Ability & { actions: ReadonlySet<string> } {
  const set = new Set(actions);
  return { actions: set, size: set.size, can: (a) => set.has(a) };
}

export const FULL_ACCESS: Ability = { size: Infinity, can: () => true };
export const READ_ONLY: Ability = { size: Infinity, can: isReadScope };
export const NO_ACCESS: Ability = abilityOf([]);

export interface AbilityCacheDeps {
  query: QueryFn;
  /** a cached role ability is re-read once this old (default 5 s) */
  maxAgeMs?: number;
  now?: () => number;
}

interface Entry {
  at: number;
  value: Promise<Ability & { actions: ReadonlySet<string> }>;
  /** the value once read (the response cache's hits need it without waiting) */
  settled?: Ability;
}

export function createAbilityCache(deps: AbilityCacheDeps) {
  const { query } = deps;
  const now = deps.now ?? Date.now;
  const maxAge = deps.maxAgeMs ?? 5_000;
  /** role id, or 'public' -> ability */
  const cache = new Map<number | 'public', Entry>();
  let generation = 0;

  async function load(key: number | 'public') {
    const where = key === 'public' ? { role: { type: 'public' } } : { role: { id: key } };
    const rows = await query(UP_PERMISSION_UID).findMany({ where, select: ['action'] });
    return abilityOf(rows.map((r) => String(r.action)));
  }

  function get(key: number | 'public') {
    const t = now();
    const hit = cache.get(key);
    if (hit && t - hit.at < maxAge) return hit.value;
    const gen = generation;
    const value = load(key);
    const entry = { at: t, value };
    cache.set(key, entry);
    // a failed read or one overtaken by a permission write must not stay cached
    value.then((ability) => {
      if (gen !== generation && cache.get(key) === entry) cache.delete(key);
      else (entry as Entry).settled = ability;
    }, () => { if (cache.get(key) === entry) cache.delete(key); });
    return value;
  }

  const onWrite: WriteListener = (uid) => {
    if (uid === UP_PERMISSION_UID || uid === UP_ROLE_UID) {
      generation++;
      cache.clear();
    }
  };

  return {
    /** the Public role's ability (empty when the Public role has no permission at all) */
    forPublic: () => get('public'),
    /** the Public role's ability when it is read and fresh, as forPublic would answer it now; else undefined */
    publicNow(): Ability | undefined {
      const hit = cache.get('public');
      return hit && now() - hit.at < maxAge ? hit.settled : undefined;
    },
    forRole: (roleId: number) => get(roleId),
    onWrite,
    clear: () => onWrite(UP_PERMISSION_UID),
  };
}

export type AbilityCache = ReturnType<typeof createAbilityCache>;
