// Totals of list requests (`meta.pagination.total`), kept while the database is unchanged.
//
// The count reads every row of the table (v4's layout has no index for `published_at IS NOT NULL`): it
// is the largest cost of a list, and it grows with the table (bench/README.md, finding 3). A total stays
// valid until a commit changes the data. `Database.dataVersion()` tells when that happens: SQLite's
// `PRAGMA data_version` changes on the reader connection after a commit by ANY other connection, this
// process's writer and another process (Strapi's admin on the same file) alike, so no write can leave a
// stale total behind. Checking it costs one trivial statement instead of a table scan.
import type { Database, Executor, SqlValue } from './dialect';

/** distinct (statement, parameters) totals kept per data version; beyond it the oldest half goes */
const MAX_ENTRIES = 1000;

interface Versioned {
  version: number;
  totals: Map<string, number>;
}

const caches = new WeakMap<Database, Versioned>();

function hasVersion(db: Executor): db is Database & { dataVersion(): number } {
  return typeof (db as Partial<Database>).dataVersion === 'function';
}

/** the key of one count: its statement and its parameters */
export function countKey(sql: string, params: readonly SqlValue[]): string {
  return params.length ? `${sql}\u0000${JSON.stringify(params, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}` : sql;
}

/** the totals valid now, or null when `db` cannot tell (a transaction: it sees its own writes) */
function current(db: Executor): Map<string, number> | null {
  if (!hasVersion(db)) return null;
  const version = db.dataVersion();
  let c = caches.get(db);
  if (!c || c.version !== version) {
    c = { version, totals: new Map() };
    caches.set(db, c);
  }
  return c.totals;
}

export interface CountLookup {
  /** the cached total, if any */
  total: number | undefined;
  /** remember a total computed now (no-op when `db` cannot tell versions) */
  store(n: number): void;
}

/**
 * Looks a count up. Call before computing it: a total computed after this call is stored under the
 * version read here, so a commit in between only makes the next request compute it again.
 */
export function lookupCount(db: Executor, key: string): CountLookup {
  const totals = current(db);
  if (!totals) return { total: undefined, store: () => undefined };
  return {
    total: totals.get(key),
    store(n) {
      if (totals.size >= MAX_ENTRIES) {
        let drop = totals.size / 2;
        for (const k of totals.keys()) {
          if (drop-- <= 0) break;
          totals.delete(k);
        }
      }
      totals.set(key, n);
    },
  };
}
