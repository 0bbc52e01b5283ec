// A hash of every row of every table of an SQLite file, read through a separate read-only connection
// (committed state only): equal before and after a request means the request wrote nothing.
import crypto from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';

/** `skip`: tables left out (e.g. `strapi_api_tokens`, whose `last_used_at` a token's use may update) */
export function dbFingerprint(file: string, skip: string[] = []): string {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const hash = crypto.createHash('sha256');
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[];
    for (const { name } of tables) {
      if (skip.includes(name)) continue;
      hash.update(name);
      for (const row of db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}" ORDER BY rowid`).iterate()) {
        hash.update(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
      }
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}
