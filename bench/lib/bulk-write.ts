// Entries written straight into v4's tables with prepared statements (better-sqlite3, synchronous), many rows
// per INSERT: the rows, ids and order values Tessera's insertEntity writes for the same data (ids given as
// AUTOINCREMENT would give them, in the same sequence: components and their media first, then the entry's
// row, then its media and component links), without its per-statement work, so 1M articles take minutes
// instead of ten. test/bench/generate.test.ts compares the two
// writers table by table. Handles what the benchmark's content has: scalars, components and dynamic zones of
// scalars and media, media; relations are written by the caller (generate.ts keeps their order counters).
import type BetterSqlite3 from 'better-sqlite3';
import { COMPONENT_LINK, MEDIA_MORPH_TABLE } from '../../src/model/names';
import type { Attribute, ContentType, Model } from '../../src/model/types';
import type { SqlValue } from '../../src/storage/dialect';
import { sqliteDialect } from '../../src/storage/sqlite/sqlite-dialect';
import { toDb } from '../../src/storage/values';

type Data = Record<string, unknown>;

const q = (s: string) => sqliteDialect.quote(s);

/** rows per INSERT: one statement for many rows costs a fraction of one per row */
const ROWS_PER_INSERT = 64;

/** rows waiting for their INSERT, per table and column list */
interface Pending { table: string; columns: string[]; values: SqlValue[]; rows: number }

export class BulkWriter {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private readonly pending = new Map<string, Pending>();
  private readonly nextIds = new Map<string, number>();

  constructor(private readonly conn: BetterSqlite3.Database, private readonly model: Model) {}

  /**
   * The id AUTOINCREMENT would give the table's next row (past every id it ever gave: sqlite_sequence), given
   * here so that rows can wait for a many-row INSERT and still be linked at once.
   */
  private nextId(table: string): number {
    let next = this.nextIds.get(table);
    if (next === undefined) {
      const { used } = this.conn.prepare(`SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), COALESCE((SELECT MAX(id) FROM ${q(table)}), 0)) AS used`).get(table) as { used: number };
      next = used + 1;
    }
    this.nextIds.set(table, next + 1);
    return next;
  }

  /** a row of `table` with its id, inserted with others of its table by flush() */
  private insert(table: string, columns: string[], values: SqlValue[]): number {
    const id = this.nextId(table);
    const key = `${table}(${columns.join(',')})`;
    let p = this.pending.get(key);
    if (!p) this.pending.set(key, (p = { table, columns: ['id', ...columns], values: [], rows: 0 }));
    p.values.push(id, ...values);
    if (++p.rows === ROWS_PER_INSERT) this.insertPending(p);
    return id;
  }

  private insertPending(p: Pending): void {
    const row = `(${p.columns.map(() => '?').join(', ')})`;
    const sql = `INSERT INTO ${q(p.table)} (${p.columns.map(q).join(', ')}) VALUES ${Array(p.rows).fill(row).join(', ')}`;
    let stmt = this.statements.get(sql);
    if (!stmt) this.statements.set(sql, (stmt = this.conn.prepare(sql)));
    stmt.run(p.values);
    p.values = [];
    p.rows = 0;
  }

  /** every waiting row into its table (before the transaction commits) */
  flush(): void {
    for (const p of this.pending.values()) if (p.rows) this.insertPending(p);
  }

  /** a row of the type's scalars that `data` sets, schema defaults for the others (v4's create) */
  private row(ct: ContentType, data: Data): number {
    const columns: string[] = [];
    const values: SqlValue[] = [];
    for (const attr of Object.values(ct.attributes)) {
      if (attr.kind !== 'scalar') continue;
      const value = data[attr.name] === undefined ? attr.default : data[attr.name];
      if (value === undefined) continue;
      columns.push(attr.column);
      values.push(toDb(sqliteDialect, attr.type, value));
    }
    return this.insert(ct.collectionName, columns, values);
  }

  /** files_related_morphs rows of the media attributes `data` sets on entry `id` */
  private media(ct: ContentType, id: number, data: Data): void {
    for (const attr of Object.values(ct.attributes)) {
      if (attr.kind !== 'media' || data[attr.name] === undefined || data[attr.name] === null) continue;
      const files = ([] as unknown[]).concat(data[attr.name]);
      files.forEach((file, i) => this.insert(MEDIA_MORPH_TABLE, ['file_id', 'related_id', 'related_type', 'field', 'order'], [Number(file), id, ct.uid, attr.name, i + 1]));
    }
  }

  /** the component items of an attribute: [uid, data] in order */
  private items(attr: Attribute, value: unknown): Array<[string, Data]> {
    if (attr.kind === 'component') return ([] as Data[]).concat(value as Data | Data[]).map((d) => [attr.component, d]);
    if (attr.kind === 'dynamiczone') return (value as Data[]).map(({ __component, ...d }) => [__component as string, d]);
    return [];
  }

  /** One entry with its components and media; its id. */
  write(ct: ContentType, data: Data): number {
    const links: Array<{ field: string; uid: string; id: number; order: number | null }> = [];
    for (const attr of Object.values(ct.attributes)) {
      const value = data[attr.name];
      if ((attr.kind !== 'component' && attr.kind !== 'dynamiczone') || value === undefined || value === null) continue;
      const ordered = attr.kind === 'dynamiczone' || attr.repeatable;
      this.items(attr, value).forEach(([uid, item], i) => {
        const component = this.model.require(uid);
        const id = this.row(component, item);
        this.media(component, id, item);
        links.push({ field: attr.name, uid, id, order: ordered ? i + 1 : null });
      });
    }
    const id = this.row(ct, data);
    this.media(ct, id, data);
    const L = COMPONENT_LINK;
    for (const l of links) this.insert(ct.componentsTable, [L.entity, L.component, L.type, L.field, L.order], [id, l.id, l.uid, l.field, l.order]);
    return id;
  }

  /** a link row of a relation's link table */
  link(table: string, row: Record<string, SqlValue>): void {
    this.insert(table, Object.keys(row), Object.values(row));
  }
}
