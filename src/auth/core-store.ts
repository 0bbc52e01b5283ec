// v4's core store (`strapi.store(...)`): rows of `strapi_core_store_settings`, keyed
// `<type>[_<name>]_<key>` with environment and tag NULL unless given, the value JSON-encoded and the
// row `type` = `typeof value` (S:services/core-store.js). `strapi::core-store` is a plain database model
// in v4, not a content type, so this talks SQL directly rather than through `query(uid)`.
import type { Database } from '../storage/dialect';
import { currentHookTransaction, currentTransactionRoot, transactionOrHook } from '../storage/lifecycles';

export interface CoreStoreParams {
  key: string;
  /** 'core' unless given (v4) */
  type?: string;
  name?: string;
  environment?: string | null;
  tag?: string | null;
}

export interface CoreStoreScope {
  get(params: Partial<CoreStoreParams> & { key: string }): Promise<unknown>;
  set(params: Partial<CoreStoreParams> & { key: string; value: unknown }): Promise<void>;
  delete(params: Partial<CoreStoreParams> & { key: string }): Promise<void>;
}

export interface CoreStore extends CoreStoreScope {
  /** `strapi.store({ type: 'plugin', name: 'users-permissions' })` */
  (defaults: Partial<CoreStoreParams>): CoreStoreScope;
  /** called with the full key (`plugin_users-permissions_advanced`) after each set or delete: caches of settings listen here */
  subscribe(listener: (fullKey: string) => void): () => void;
}

const TABLE = 'strapi_core_store_settings';

function fullKey(p: Partial<CoreStoreParams> & { key: string }, defaultType: string): string {
  const type = p.type ?? defaultType;
  return `${type}${p.name ? `_${p.name}` : ''}_${p.key}`;
}

/** v4's where `{ environment: x || null, tag: y || null }`: NULL compares with IS NULL. */
function whereOf(db: Database, p: Partial<CoreStoreParams> & { key: string }, defaultType: string) {
  const q = (id: string) => db.dialect.quote(id);
  const params: (string | null)[] = [fullKey(p, defaultType)];
  const parts = [`${q('key')} = ?`];
  for (const col of ['environment', 'tag'] as const) {
    const v = p[col] || null;
    if (v === null) parts.push(`${q(col)} IS NULL`);
    else { parts.push(`${q(col)} = ?`); params.push(v); }
  }
  let n = 0;
  const sql = parts.join(' AND ').replace(/\?/g, () => db.dialect.placeholder(++n));
  return { sql, params };
}

/** What v4 stores: `JSON.stringify(value) || toString(value)`. */
function encode(value: unknown): string {
  const json = JSON.stringify(value);
  if (json) return json;
  return value === null || value === undefined ? '' : String(value);
}

function decode(row: { value: string | null; type: string | null }): unknown {
  if (row.type === 'object' || row.type === 'array' || row.type === 'boolean' || row.type === 'string') {
    try {
      return JSON.parse(row.value ?? '');
    } catch {
      return new Date(row.value ?? '');
    }
  }
  if (row.type === 'number') return Number(row.value);
  return null;
}

export function createCoreStore(db: Database): CoreStore {
  const q = (id: string) => db.dialect.quote(id);
  const listeners = new Set<(key: string) => void>();
  const notify = (p: Partial<CoreStoreParams> & { key: string }) => { for (const l of listeners) l(fullKey(p, 'core')); };
  /** inside strapi.db.transaction: now, and again once it committed (a read meanwhile cached the old value) */
  const changed = (p: Partial<CoreStoreParams> & { key: string }) => {
    notify(p);
    currentTransactionRoot()?.commitCallbacks.push(() => notify(p));
  };
  const get = async (p: Partial<CoreStoreParams> & { key: string }): Promise<unknown> => {
    const w = whereOf(db, p, 'core');
    const row = await (currentHookTransaction() ?? db).get<{ value: string | null; type: string | null }>(
      `SELECT ${q('value')}, ${q('type')} FROM ${q(TABLE)} WHERE ${w.sql} ORDER BY ${q('id')} LIMIT 1`, w.params);
    return row ? decode(row) : null;
  };
  const set = async (p: Partial<CoreStoreParams> & { key: string; value: unknown }): Promise<void> => {
    // inside strapi.db.transaction (or a hook's write): joins it
    await transactionOrHook(db, async (tx) => {
      const w = whereOf(db, p, 'core');
      // one writer of a key at a time across processes (nodes starting together write the same defaults)
      await tx.lock([`core-store:${fullKey(p, 'core')}`]);
      const row = await tx.get<{ id: number }>(`SELECT ${q('id')} FROM ${q(TABLE)} WHERE ${w.sql} ORDER BY ${q('id')} LIMIT 1`, w.params);
      const value = encode(p.value);
      const type = typeof p.value;
      const ph = (n: number) => db.dialect.placeholder(n);
      if (row) {
        await tx.run(`UPDATE ${q(TABLE)} SET ${q('value')} = ${ph(1)}, ${q('type')} = ${ph(2)} WHERE ${q('id')} = ${ph(3)}`, [value, type, row.id]);
      } else {
        await tx.insert(
          `INSERT INTO ${q(TABLE)} (${q('key')}, ${q('value')}, ${q('type')}, ${q('environment')}, ${q('tag')}) VALUES (${ph(1)}, ${ph(2)}, ${ph(3)}, ${ph(4)}, ${ph(5)})`,
          [fullKey(p, 'core'), value, type, p.environment || null, p.tag || null],
        );
      }
    });
    changed(p);
  };
  const del = async (p: Partial<CoreStoreParams> & { key: string }): Promise<void> => {
    const w = whereOf(db, p, 'core');
    await transactionOrHook(db, (tx) => tx.run(`DELETE FROM ${q(TABLE)} WHERE ${w.sql}`, w.params));
    changed(p);
  };
  const store = ((defaults: Partial<CoreStoreParams>): CoreStoreScope => ({
    get: (p) => get({ ...defaults, ...p }),
    set: (p) => set({ ...defaults, ...p }),
    delete: (p) => del({ ...defaults, ...p }),
  })) as CoreStore;
  store.get = get;
  store.set = set;
  store.delete = del;
  store.subscribe = (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return store;
}

/** v4's core store key of the tables its schema sync must keep (@strapi/database schema diff) */
const PERSISTED_TABLES_KEY = 'persisted_tables';

/** `name` in v4's persisted tables (entries are names or `{ name, dependsOn }`), added when missing */
export async function persistTable(store: CoreStore, name: string): Promise<void> {
  const now = await store.get({ type: 'core', key: PERSISTED_TABLES_KEY });
  const list = Array.isArray(now) ? now : [];
  if (list.some((t) => (typeof t === 'string' ? t : (t as { name?: unknown })?.name) === name)) return;
  await store.set({ type: 'core', key: PERSISTED_TABLES_KEY, value: [...list, name] });
}
