// A hash of every row of every table of the database an app runs on (its `app.db`, SQLite or PostgreSQL),
// read outside any transaction (committed state only): equal before and after a request means the request
// wrote nothing.
import crypto from 'node:crypto';
import type { Database } from '../../src/storage/dialect';
import { dbRows } from './db-rows';

/** `skip`: tables left out (e.g. `strapi_api_tokens`, whose `last_used_at` a token's use may update) */
export async function dbFingerprint(db: Database, skip: string[] = []): Promise<string> {
  const hash = crypto.createHash('sha256');
  const tables = [...(await db.introspect()).values()].filter((t) => !skip.includes(t.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const table of tables) {
    hash.update(table.name);
    // v4's tables all have an id; any other is ordered by all of its columns
    const order = table.columns.has('id') ? ['id'] : [...table.columns.keys()];
    const sql = `SELECT * FROM ${db.dialect.quote(table.name)} ORDER BY ${order.map((c) => db.dialect.quote(c)).join(', ')}`;
    for (const row of await dbRows(db, sql)) hash.update(JSON.stringify(row));
  }
  return hash.digest('hex');
}
