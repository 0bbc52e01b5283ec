// May this caller run this action: v4's `verify` of the api-token strategy (@strapi/admin) and of the
// users-permissions strategy for the Public role. The Public role's actions are kept in memory and
// reloaded when up_permissions / up_roles change.
import type { QueryFn, WriteListener } from '../query/query-engine';
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { Auth } from './authenticate';

export const UP_PERMISSION_UID = 'plugin::users-permissions.permission';
export const UP_ROLE_UID = 'plugin::users-permissions.role';

/** v4 `isReadScope`: a suffix test without the dot, as v4 writes it. */
export const isReadScope = (scope: string): boolean => scope.endsWith('find') || scope.endsWith('findOne');

export interface PermissionCheckerDeps {
  query: QueryFn;
  log?: { error(obj: unknown, msg?: string): void };
  /**
   * The set is also re-read in the background once it is this old (default 5 s): a bound on staleness for
   * writes the listener cannot see (another process, or a write inside an outer transaction, which
   * notifies before its commit).
   */
  maxAgeMs?: number;
  now?: () => number;
}

export function createPermissionChecker(deps: PermissionCheckerDeps) {
  const { query } = deps;
  const now = deps.now ?? Date.now;
  const maxAge = deps.maxAgeMs ?? 5_000;
  let publicActions: Set<string> | null = null;
  let loadedAt = 0;
  let stale = true;
  let loading: Promise<void> | null = null;

  async function fetchPublic(): Promise<Set<string>> {
    const rows = await query(UP_PERMISSION_UID).findMany({ where: { role: { type: 'public' } }, select: ['action'] });
    return new Set(rows.map((r) => String(r.action)));
  }

  /** reloads until no write arrived during the read */
  function refresh(): Promise<void> {
    if (loading) return loading;
    loading = (async () => {
      try {
        while (stale) {
          stale = false;
          const next = await fetchPublic();
          if (!stale) {
            publicActions = next;
            loadedAt = now();
          }
        }
      } catch (err) {
        stale = true;
        throw err;
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  const background = () => {
    refresh().catch((err: unknown) => deps.log?.error({ err }, 'could not load the Public role permissions'));
  };

  const onWrite: WriteListener = (uid) => {
    if (uid === UP_PERMISSION_UID || uid === UP_ROLE_UID) {
      stale = true;
      background();
    }
  };

  function authorizePublic(action: string): void {
    if (publicActions === null) throw new Error('the Public role permissions are not loaded (call load() at startup)');
    if (!loading && now() - loadedAt > maxAge) {
      stale = true;
      background();
    }
    // v4: with no public permission at all the users-permissions strategy does not authenticate
    if (publicActions.size === 0) throw new UnauthorizedError('Missing or invalid credentials');
    if (!publicActions.has(action)) throw new ForbiddenError('Forbidden');
  }

  return {
    /** (re)reads the Public role's actions; awaited at startup */
    load(): Promise<void> {
      stale = true;
      return refresh();
    },
    /** resolves once no reload is pending (authenticate() awaits it when wired) */
    ready(): Promise<void> | void {
      if (stale || loading) return refresh();
    },
    /** throws UnauthorizedError (401) or ForbiddenError (403) as v4 answers */
    authorize(auth: Auth, action: string): void {
      switch (auth.kind) {
        case 'none':
          throw new UnauthorizedError(auth.reason);
        case 'public':
          return authorizePublic(action);
        case 'api-token': {
          const { type, permissions } = auth.token;
          if (type === 'full-access') return;
          if (type === 'read-only' && isReadScope(action)) return;
          if (type === 'custom' && permissions?.includes(action)) return;
          throw new ForbiddenError('Forbidden');
        }
        default:
          throw new UnauthorizedError('Missing or invalid credentials');
      }
    },
    /** the Public role's actions as last loaded */
    publicActions(): ReadonlySet<string> {
      return publicActions ?? new Set();
    },
    onWrite,
  };
}

export type PermissionChecker = ReturnType<typeof createPermissionChecker>;
