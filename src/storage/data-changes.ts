// Which tables this process's commits changed, and when: what the response cache (cache/response-cache.ts)
// checks an answer against. The databases record it from the statements their write transactions ran,
// whatever code sent them (entity service, query engine, relation and component writes, uploads, users and
// roles, schema sync, project code through strapi.db), so no write path has to remember to mark anything.
// Commits by other processes are told apart by `Database.changeToken()` (dialect.ts).
import { ShapeCache } from '../query/shape-cache';

/** every table: a statement whose target could not be read, or DDL */
export const ALL_TABLES = '*';

/** a write statement's target table: `INSERT INTO "t"`, `UPDATE \`t\``, `DELETE FROM t` (SQLite's dialect quotes with backticks) */
const NAME = '("(?:[^"]|"")+"|`(?:[^`]|``)+`|[\\w$]+)';
/** `ONLY` (PostgreSQL), then `[schema.]table`: the table is the last name */
const WRITE_TARGET = new RegExp(`^\\s*(?:INSERT(?:\\s+OR\\s+\\w+)?\\s+INTO|REPLACE\\s+INTO|UPDATE(?:\\s+OR\\s+\\w+)?|DELETE\\s+FROM)\\s+(?:ONLY\\s+)?${NAME}(?:\\s*\\.\\s*${NAME})?`, 'i');
/** statements that change no row */
const READ_ONLY = /^\s*(?:SELECT|PRAGMA|EXPLAIN|SAVEPOINT|RELEASE|BEGIN|COMMIT|ROLLBACK|SHOW|SET|VALUES)\b/i;
const WRITE_WORD = /\b(?:INSERT|UPDATE|DELETE|REPLACE|CREATE|ALTER|DROP|TRUNCATE)\b/i;

const known = new ShapeCache<string | null>(4096);

/** The table a statement writes, `ALL_TABLES` when that cannot be read from it, null for a statement that writes nothing. */
export function writtenTable(sql: string): string | null {
  const hit = known.get(sql);
  if (hit !== undefined) return hit;
  return known.set(sql, classify(sql));
}

function classify(sql: string): string | null {
  const m = WRITE_TARGET.exec(sql);
  if (m) return unquoted(m[2] ?? m[1]);
  if (READ_ONLY.test(sql)) return null;
  // `WITH ... SELECT` reads; a CTE that writes (or anything else) counts as a change of everything
  if (/^\s*WITH\b/i.test(sql) && !WRITE_WORD.test(sql)) return null;
  return ALL_TABLES;
}

function unquoted(name: string): string {
  const q = name[0];
  return q === '"' || q === '`' ? name.slice(1, -1).split(q + q).join(q) : name;
}

/**
 * A sequence number per commit of this process, and per table the number of the last commit that wrote it.
 * A reader notes `current` before it reads; its answer stays good while `changedSince(tables, noted)` is false
 * (and nothing else wrote: Database.changeToken).
 */
export class DataChanges {
  private seq = 0;
  private everything = 0;
  private readonly last = new Map<string, number>();

  get current(): number {
    return this.seq;
  }

  /** a commit that wrote `tables` (ALL_TABLES among them: every table) */
  committed(tables: Iterable<string>): void {
    const n = ++this.seq;
    for (const t of tables) {
      if (t === ALL_TABLES) this.everything = n;
      else this.last.set(t, n);
    }
  }

  changedSince(tables: readonly string[], since: number): boolean {
    // no commit at all since: the common case of a hit, told without looking at the tables
    if (this.seq <= since) return false;
    if (this.everything > since) return true;
    for (const t of tables) if ((this.last.get(t) ?? 0) > since) return true;
    return false;
  }
}

/** The tables written by one transaction, kept until it ends (statement by statement, as the executor runs them). */
export class PendingWrites {
  private readonly tables = new Set<string>();
  note(sql: string): void {
    const t = writtenTable(sql);
    if (t !== null) this.tables.add(t);
  }
  /** hands the tables to `changes` (a commit) and forgets them */
  commitTo(changes: DataChanges): void {
    if (this.tables.size) changes.committed(this.tables);
    this.tables.clear();
  }
  discard(): void {
    this.tables.clear();
  }
}
