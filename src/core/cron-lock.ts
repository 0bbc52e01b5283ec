// Several Tessera processes may serve one database, each with the project's cron tasks scheduled: a tick
// runs on the one process that claims it first. A claim is one write transaction on v4's core store table
// (`strapi_core_store_settings`, a row keyed `tessera_cron::<job>` holding the last claimed fire time in
// epoch ms): SQLite runs write transactions one at a time across processes, so exactly one process finds
// the tick unclaimed. Processes on one database share one clock (one machine), and node-schedule hands every
// process the same scheduled fire time, so they claim the same value. Real Strapi ignores these rows.
import type { Database } from '../storage/dialect';

const TABLE = 'strapi_core_store_settings';
const KEY_PREFIX = 'tessera_cron::';

export interface CronLock {
  /** true for the first caller of (job, fire time) across every process on this database */
  claim(job: string, fireDate: Date): Promise<boolean>;
}

export function createCronLock(db: Database): CronLock {
  const q = (id: string) => db.dialect.quote(id);
  const ph = (n: number) => db.dialect.placeholder(n);
  return {
    claim(job, fireDate) {
      const key = KEY_PREFIX + job;
      const at = fireDate.getTime();
      return db.transaction(async (tx) => {
        // one claim at a time per job across processes (PostgreSQL runs transactions side by side)
        await tx.lock([key]);
        const row = await tx.get<{ id: number; value: string | null }>(`SELECT ${q('id')}, ${q('value')} FROM ${q(TABLE)} WHERE ${q('key')} = ${ph(1)} ORDER BY ${q('id')} LIMIT 1`, [key]);
        if (row && Number(row.value) >= at) return false;
        if (row) await tx.run(`UPDATE ${q(TABLE)} SET ${q('value')} = ${ph(1)} WHERE ${q('id')} = ${ph(2)}`, [String(at), row.id]);
        else await tx.insert(`INSERT INTO ${q(TABLE)} (${q('key')}, ${q('value')}, ${q('type')}) VALUES (${ph(1)}, ${ph(2)}, 'number')`, [key, String(at)]);
        return true;
      });
    },
  };
}
