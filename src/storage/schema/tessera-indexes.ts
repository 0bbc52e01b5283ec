// Indexes Tessera adds to v4's tables for speed, never for a correct answer. Each link table with order columns
// gets (owner id, order) on each side: the next position of a new link (MAX(order) of one owner's links) is
// then one index seek instead of a read of every link of the owner (1M articles, 50 categories: 47 ms of a
// 63 ms create; issue 22), and (target id, owner id) for pages of one target's entries. Each draft & publish or localized collection type gets (id, published_at, locale):
// deep pages and totals read it instead of the rows. v4's own schema sync drops indexes it does not know when its schema changes: the names
// start with `tessera_` so that they are recognisable, and every start re-creates the missing ones.
import { createHash } from 'node:crypto';
import type { ContentType, Model } from '../../model/types';
import type { Database } from '../dialect';
import type { IndexDef } from './table-def';

export const TESSERA_INDEX_PREFIX = 'tessera_';
/** PostgreSQL's identifier length (SQLite has none) */
const MAX_NAME = 63;

/** `tessera_<table>_<what>`, shortened with a digest of the whole where it would pass 63 characters */
export function tesseraName(table: string, what: string): string {
  const full = `${TESSERA_INDEX_PREFIX}${table}_${what}`;
  if (full.length <= MAX_NAME) return full;
  const digest = createHash('sha1').update(full).digest('hex').slice(0, 8);
  return `${TESSERA_INDEX_PREFIX}${table.slice(0, MAX_NAME - TESSERA_INDEX_PREFIX.length - what.length - digest.length - 2)}_${digest}_${what}`;
}

/** a scalar attribute's column, when the type has it */
function columnOf(ct: ContentType, name: string): string | undefined {
  const attr = ct.attributes[name];
  return attr?.kind === 'scalar' ? attr.column : undefined;
}

/** the indexes Tessera wants, by table */
export function tesseraIndexes(model: Model): Array<{ table: string; index: IndexDef }> {
  const out = new Map<string, { table: string; index: IndexDef }>();
  for (const ct of model.contentTypes.values()) {
    // pages in the default order (id) of a draft & publish or localized type: the entries to skip are read on a
    // narrow covering index instead of the table's rows (10k articles, page 200: 650 -> 340 us)
    const scope = [columnOf(ct, 'publishedAt'), columnOf(ct, 'locale')].filter((c): c is string => c !== undefined);
    if (ct.kind === 'collectionType' && scope.length) {
      const name = tesseraName(ct.collectionName, 'page');
      out.set(name, { table: ct.collectionName, index: { name, columns: ['id', ...scope], type: 'index' } });
    }
  }
  for (const ct of [...model.contentTypes.values(), ...model.components.values()]) {
    for (const attr of Object.values(ct.attributes)) {
      if (attr.kind !== 'relation' || !attr.owner || !attr.joinTable || attr.joinColumn || attr.relation.startsWith('morph')) continue;
      const jt = attr.joinTable;
      const add = (what: string, columns: string[]) => {
        const name = tesseraName(jt.name, what);
        out.set(name, { table: jt.name, index: { name, columns, type: 'index' } });
      };
      if (jt.orderColumn) add('own_order', [jt.joinColumn, jt.orderColumn]);
      if (jt.inverseOrderColumn) add('inv_order', [jt.inverseJoinColumn, jt.inverseOrderColumn]);
      // a page of the entries linked to one target (filters[categories][slug]=x) walks this in entry-id order
      // (read-json.ts walkedOrListed); the other direction is v4's own unique (entry, target) index
      add('inv_own', [jt.inverseJoinColumn, jt.joinColumn]);
    }
  }
  return [...out.values()];
}

/**
 * Creates the missing ones (after schema sync: their tables exist). A failure is a warning: they only make
 * writes faster. Returns the names created.
 */
export async function ensureTesseraIndexes(db: Database, model: Model, warn: (m: string) => void): Promise<string[]> {
  const live = await db.introspect();
  const q = db.dialect.quote;
  const created: string[] = [];
  for (const { table, index } of tesseraIndexes(model)) {
    const info = live.get(table);
    if (!info || info.indexes.has(index.name) || !index.columns.every((c) => info.columns.has(c))) continue;
    try {
      // PostgreSQL: built without blocking the table's writers (other nodes serving while this one starts)
      const concurrently = db.dialect.name === 'postgres' ? ' CONCURRENTLY' : '';
      await db.exec(`CREATE INDEX${concurrently} IF NOT EXISTS ${q(index.name)} ON ${q(table)} (${index.columns.map(q).join(', ')})`);
      created.push(index.name);
    } catch (err) {
      warn(`index ${index.name} on ${table} could not be created (writes stay correct, only slower): ${(err as Error).message}`);
    }
  }
  return created;
}
