// Totals kept by delta (issue 22 part 3). An unfiltered list's `meta.pagination.total` is a COUNT(*) over the
// table (v4 has no index to answer `published_at IS NOT NULL` from): 80-90 ms at 1M rows, paid again after every
// write. Each collection type's table gets triggers that keep, in Tessera's table `tessera_counts`, the number of
// its rows per bucket (published or not, locale): every writer's insert, delete, publish or unpublish moves the
// bucket's figure in its own transaction, real Strapi's and project code's raw SQL included, so a total read from
// it is as current as the rows (kept-totals.ts reads it). Nothing depends on them for a correct answer: the
// statement that reads a total checks, in the same snapshot, that the triggers are there (real Strapi's SQLite
// schema sync rebuilds a table it alters, which drops them), and counts the rows when they are not. Created, and
// the figures recounted, at start when missing; the table is listed in v4's `persisted_tables` so that real
// Strapi's schema sync keeps it.
import type { ContentType, Model } from '../../model/types';
import { createCoreStore, persistTable } from '../../auth/core-store';
import type { Database, Executor } from '../dialect';
import { tesseraName } from './tessera-indexes';

export const COUNTS_TABLE = 'tessera_counts';

/** what a table's rows are counted by */
export interface CountedTable {
  table: string;
  /** the column whose NULL means draft (draft & publish types) */
  publishedColumn?: string;
  /** the locale column (localized types) */
  localeColumn?: string;
  /** the triggers that keep the figures, by the event they follow (TRUNCATE: PostgreSQL only) */
  triggers: { insert: string; delete: string; update: string; truncate: string };
}

/** the tables of the model's API collection types (v4's REST and GraphQL lists count them) */
export function countedTables(model: Model): CountedTable[] {
  const out: CountedTable[] = [];
  for (const ct of model.contentTypes.values()) {
    if (ct.kind !== 'collectionType' || !ct.uid.startsWith('api::')) continue;
    out.push({
      table: ct.collectionName,
      publishedColumn: ct.draftAndPublish ? scalarColumn(ct, 'publishedAt') : undefined,
      localeColumn: ct.localized ? scalarColumn(ct, 'locale') : undefined,
      triggers: {
        insert: tesseraName(ct.collectionName, 'count_ins'),
        delete: tesseraName(ct.collectionName, 'count_del'),
        update: tesseraName(ct.collectionName, 'count_upd'),
        truncate: tesseraName(ct.collectionName, 'count_trunc'),
      },
    });
  }
  return out;
}

function scalarColumn(ct: ContentType, name: string): string | undefined {
  const attr = ct.attributes[name];
  return attr?.kind === 'scalar' ? attr.column : undefined;
}

/** the kept tables, per model: set once their triggers and figures are in place */
const kept = new WeakMap<Model, Map<string, CountedTable>>();

/** the table's counting, when Tessera keeps its figures (kept-totals.ts) */
export function keptCounting(model: Model, table: string): CountedTable | undefined {
  return kept.get(model)?.get(table);
}

/** a kept table's triggers turned out missing (kept-totals.ts): its totals are counted until the next start */
export function forgetCounting(model: Model, table: string): void {
  kept.get(model)?.delete(table);
}

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** the bucket of a row as the four key values: a trigger's NEW or OLD row, or the table's own rows (a recount) */
function bucketValues(t: CountedTable, q: (id: string) => string, r?: 'NEW' | 'OLD'): string {
  const col = (c: string) => (r ? `${r}.${q(c)}` : q(c));
  const published = t.publishedColumn ? `CASE WHEN ${col(t.publishedColumn)} IS NULL THEN 0 ELSE 1 END` : '0';
  const localeNull = t.localeColumn ? `CASE WHEN ${col(t.localeColumn)} IS NULL THEN 1 ELSE 0 END` : '1';
  const locale = t.localeColumn ? `COALESCE(${col(t.localeColumn)}, '')` : `''`;
  return `${literal(t.table)}, ${published}, ${localeNull}, ${locale}`;
}

const KEY = ['table_name', 'published', 'locale_null', 'locale'];

/**
 * `published` of the row that says the table's figures are complete (written by the recount, with n = 0): without
 * it (the figures table emptied or re-created, rows copied in while the triggers were off) they are not trusted
 */
export const COMPLETE_MARK = -1;

function add(t: CountedTable, q: (id: string) => string, r: 'NEW' | 'OLD', delta: 1 | -1): string {
  const cols = [...KEY, 'n'].map(q).join(', ');
  return `INSERT INTO ${q(COUNTS_TABLE)} (${cols}) VALUES (${bucketValues(t, q, r)}, ${delta}) ` +
    `ON CONFLICT (${KEY.map(q).join(', ')}) DO UPDATE SET ${q('n')} = ${q(COUNTS_TABLE)}.${q('n')} + ${delta}`;
}

/** the columns whose change moves a row to another bucket */
function bucketColumns(t: CountedTable): string[] {
  return [t.publishedColumn, t.localeColumn].filter((c): c is string => c !== undefined);
}

/** an UPDATE moved the row to another bucket */
function moved(t: CountedTable, q: (id: string) => string): string {
  const differs = (c: string) => `(OLD.${q(c)} IS NULL) <> (NEW.${q(c)} IS NULL)`;
  const parts = [];
  if (t.publishedColumn) parts.push(differs(t.publishedColumn));
  if (t.localeColumn) parts.push(`COALESCE(OLD.${q(t.localeColumn)}, '') <> COALESCE(NEW.${q(t.localeColumn)}, '')`, differs(t.localeColumn));
  return parts.join(' OR ');
}

function sqliteTriggers(t: CountedTable, q: (id: string) => string): string[] {
  const on = q(t.table);
  const out = [
    `CREATE TRIGGER IF NOT EXISTS ${q(t.triggers.insert)} AFTER INSERT ON ${on} BEGIN ${add(t, q, 'NEW', 1)}; END`,
    `CREATE TRIGGER IF NOT EXISTS ${q(t.triggers.delete)} AFTER DELETE ON ${on} BEGIN ${add(t, q, 'OLD', -1)}; END`,
  ];
  const cols = bucketColumns(t);
  // a type without draft & publish or locale has one bucket: the update trigger does nothing, but it exists so
  // that every counted table has the same three (kept-totals.ts checks their number)
  out.push(cols.length
    ? `CREATE TRIGGER IF NOT EXISTS ${q(t.triggers.update)} AFTER UPDATE OF ${cols.map(q).join(', ')} ON ${on} WHEN ${moved(t, q)} BEGIN ${add(t, q, 'OLD', -1)}; ${add(t, q, 'NEW', 1)}; END`
    : `CREATE TRIGGER IF NOT EXISTS ${q(t.triggers.update)} AFTER UPDATE OF ${q('id')} ON ${on} WHEN 0 BEGIN SELECT 1; END`);
  return out;
}

/** PostgreSQL: one function per table and event; TRUNCATE (no row triggers) empties the table's figures */
function postgresTriggers(t: CountedTable, q: (id: string) => string): string[] {
  const on = q(t.table);
  // without the figures table (dropped by hand, or not copied with the rows) the triggers do nothing rather than
  // fail every write to the table: the figures are then incomplete, and the next start recounts them
  const fn = (name: string, body: string) =>
    `CREATE OR REPLACE FUNCTION ${q(name)}() RETURNS trigger LANGUAGE plpgsql AS $tessera$ BEGIN ` +
    `IF to_regclass(${literal(q(COUNTS_TABLE))}) IS NOT NULL THEN ${body} END IF; RETURN NULL; END $tessera$`;
  const cols = bucketColumns(t);
  const truncate = t.triggers.truncate;
  return [
    fn(t.triggers.insert, `${add(t, q, 'NEW', 1)};`),
    `CREATE TRIGGER ${q(t.triggers.insert)} AFTER INSERT ON ${on} FOR EACH ROW EXECUTE FUNCTION ${q(t.triggers.insert)}()`,
    fn(t.triggers.delete, `${add(t, q, 'OLD', -1)};`),
    `CREATE TRIGGER ${q(t.triggers.delete)} AFTER DELETE ON ${on} FOR EACH ROW EXECUTE FUNCTION ${q(t.triggers.delete)}()`,
    fn(t.triggers.update, cols.length ? `IF ${moved(t, q)} THEN ${add(t, q, 'OLD', -1)}; ${add(t, q, 'NEW', 1)}; END IF;` : ''),
    `CREATE TRIGGER ${q(t.triggers.update)} AFTER UPDATE${cols.length ? ` OF ${cols.map(q).join(', ')}` : ''} ON ${on} FOR EACH ROW EXECUTE FUNCTION ${q(t.triggers.update)}()`,
    fn(truncate, `DELETE FROM ${q(COUNTS_TABLE)} WHERE ${q('table_name')} = ${literal(t.table)} AND ${q('published')} >= 0;`),
    `CREATE TRIGGER ${q(truncate)} AFTER TRUNCATE ON ${on} FOR EACH STATEMENT EXECUTE FUNCTION ${q(truncate)}()`,
    // they fire under `session_replication_role = replica` too (bulk copies and restores that skip foreign keys)
    ...triggerNames(t, 'postgres').map((n) => `ALTER TABLE ${on} ENABLE ALWAYS TRIGGER ${q(n)}`),
  ];
}

/** the triggers a counted table has on this dialect */
export function triggerNames(t: CountedTable, dialect: 'sqlite' | 'postgres'): string[] {
  const { insert, delete: del, update, truncate } = t.triggers;
  return dialect === 'sqlite' ? [insert, del, update] : [insert, del, update, truncate];
}

/** the names of the triggers present (and enabled) on `table` among `names` */
export async function presentTriggers(db: Executor, table: string, names: string[]): Promise<Set<string>> {
  const rows = db.dialect.name === 'sqlite'
    ? await db.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?`, [table])
    : await db.all<{ name: string }>(`SELECT tgname AS name FROM pg_trigger WHERE tgrelid = to_regclass($1) AND tgenabled = 'A'`, [db.dialect.quote(table)]);
  return new Set(rows.map((r) => r.name).filter((n) => names.includes(n)));
}

/** the table's figures are marked complete */
async function markedComplete(db: Executor, table: string): Promise<boolean> {
  const q = db.dialect.quote;
  const ph = (n: number) => db.dialect.placeholder(n);
  return (await db.get(`SELECT 1 AS x FROM ${q(COUNTS_TABLE)} WHERE ${q('table_name')} = ${ph(1)} AND ${q('published')} = ${ph(2)}`, [table, COMPLETE_MARK])) !== undefined;
}

/** drops what is left of a table's triggers (PostgreSQL: with their functions) */
async function dropTriggers(tx: Executor, t: CountedTable): Promise<void> {
  const q = tx.dialect.quote;
  const on = tx.dialect.name === 'sqlite' ? '' : ` ON ${q(t.table)}`;
  for (const n of triggerNames(t, tx.dialect.name)) await tx.run(`DROP TRIGGER IF EXISTS ${q(n)}${on}`);
}

/** the table's figures counted afresh (inside the transaction that creates its triggers) */
async function recount(tx: Executor, t: CountedTable): Promise<void> {
  const q = tx.dialect.quote;
  const ph = (n: number) => tx.dialect.placeholder(n);
  const cols = [...KEY, 'n'].map(q).join(', ');
  await tx.run(`DELETE FROM ${q(COUNTS_TABLE)} WHERE ${q('table_name')} = ${ph(1)}`, [t.table]);
  await tx.run(`INSERT INTO ${q(COUNTS_TABLE)} (${cols}) SELECT ${bucketValues(t, q)}, COUNT(*) FROM ${q(t.table)} GROUP BY 2, 3, 4`);
  await tx.run(`INSERT INTO ${q(COUNTS_TABLE)} (${cols}) VALUES (${ph(1)}, ${COMPLETE_MARK}, ${COMPLETE_MARK}, '', 0)`, [t.table]);
}

async function ensureCountsTable(db: Database): Promise<void> {
  const q = db.dialect.quote;
  await db.run(
    `CREATE TABLE IF NOT EXISTS ${q(COUNTS_TABLE)} (${q('table_name')} VARCHAR(255) NOT NULL, ${q('published')} INTEGER NOT NULL, ` +
    `${q('locale_null')} INTEGER NOT NULL, ${q('locale')} VARCHAR(255) NOT NULL, ${q('n')} BIGINT NOT NULL, ` +
    // SQLite: the key is the table (no second index to keep on every write)
    `PRIMARY KEY (${KEY.map(q).join(', ')}))${db.dialect.name === 'sqlite' ? ' WITHOUT ROWID' : ''}`,
  );
  await persistTable(createCoreStore(db), COUNTS_TABLE);
}

/**
 * Puts every counted table's triggers in place (after schema sync: the tables and columns exist) and recounts the
 * figures of those whose triggers were missing, each in one transaction with the triggers' creation (no write can
 * fall between the count and the first trigger). A failure is a warning: such a table's totals are counted.
 * Returns the tables whose figures were recounted.
 */
export async function ensureTesseraCounts(db: Database, model: Model, warn: (m: string) => void): Promise<string[]> {
  const tables = countedTables(model);
  const map = new Map<string, CountedTable>();
  kept.set(model, map);
  if (!tables.length) return [];
  try {
    await ensureCountsTable(db);
  } catch (err) {
    warn(`table ${COUNTS_TABLE} could not be created (totals are counted on every list): ${(err as Error).message}`);
    return [];
  }
  const live = await db.introspect();
  const q = db.dialect.quote;
  const recounted: string[] = [];
  for (const t of tables) {
    const info = live.get(t.table);
    if (!info || ![t.publishedColumn, t.localeColumn, 'id'].every((c) => c === undefined || info.columns.has(c))) continue;
    const names = triggerNames(t, db.dialect.name);
    try {
      if ((await presentTriggers(db, t.table, names)).size < names.length || !(await markedComplete(db, t.table))) {
        await db.transaction(async (tx) => {
          // PostgreSQL: no write to the table between the recount and the triggers (SQLite's writer holds the lock)
          if (tx.dialect.name === 'postgres') await tx.run(`LOCK TABLE ${q(t.table)} IN SHARE ROW EXCLUSIVE MODE`);
          await dropTriggers(tx, t);
          for (const sql of tx.dialect.name === 'sqlite' ? sqliteTriggers(t, q) : postgresTriggers(t, q)) await tx.run(sql);
          await recount(tx, t);
        });
        recounted.push(t.table);
      }
      map.set(t.table, t);
    } catch (err) {
      warn(`the totals of ${t.table} could not be kept by triggers (they are counted on every list): ${(err as Error).message}`);
    }
  }
  return recounted;
}
