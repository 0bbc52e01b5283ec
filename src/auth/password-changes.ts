// When each user last changed (or reset) their password, in a table of Tessera's own
// (`tessera_password_changes`, outside v4's schema). Real Strapi drops tables its schema lacks whenever it
// re-syncs (its stored schema hash differs from its own, e.g. after Tessera wrote it or a model changed), except
// those listed in the core store's `persisted_tables`: the table is listed there. JWTs carry a
// password stamp when Tessera issues them; tokens without one (issued by real Strapi before a move, or by
// project code through `jwt.issue()`) are refused when issued before the last change recorded here.
import type { Database } from '../storage/dialect';
import { persistTable, type CoreStore } from './core-store';

export const PASSWORD_CHANGES_TABLE = 'tessera_password_changes';

export interface PasswordChanges {
  /** milliseconds, or null when never recorded */
  changedAt(userId: number): Promise<number | null>;
  record(userId: number, at?: number): Promise<void>;
  ensureTable(): Promise<void>;
}

export function createPasswordChanges(db: Database, store: CoreStore): PasswordChanges {
  const q = (id: string) => db.dialect.quote(id);
  const ph = (n: number) => db.dialect.placeholder(n);
  const table = q(PASSWORD_CHANGES_TABLE);
  let ready = false;
  return {
    async ensureTable() {
      await db.run(`CREATE TABLE IF NOT EXISTS ${table} (${q('user_id')} INTEGER PRIMARY KEY, ${q('changed_at')} BIGINT NOT NULL)`, []);
      await persistTable(store, PASSWORD_CHANGES_TABLE);
      ready = true;
    },
    async changedAt(userId) {
      if (!ready) return null;
      const row = await db.get<{ changed_at: number | bigint }>(`SELECT ${q('changed_at')} FROM ${table} WHERE ${q('user_id')} = ${ph(1)}`, [userId]);
      return row ? Number(row.changed_at) : null;
    },
    async record(userId, at = Date.now()) {
      if (!ready) await this.ensureTable();
      await db.transaction(async (tx) => {
        await tx.lock([`${PASSWORD_CHANGES_TABLE}:${userId}`]);
        await tx.run(`DELETE FROM ${table} WHERE ${q('user_id')} = ${ph(1)}`, [userId]);
        await tx.run(`INSERT INTO ${table} (${q('user_id')}, ${q('changed_at')}) VALUES (${ph(1)}, ${ph(2)})`, [userId, at]);
      });
    },
  };
}
