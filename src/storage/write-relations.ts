// Link-table writes for one relation or media attribute of one entity, keeping v4's order columns.
import type { ContentType, MediaAttribute, RelationAttribute } from '../model/types';
import { MEDIA_MORPH_TABLE } from '../model/names';
import type { Executor } from './dialect';

/** The normalized operation for one attribute: `set` replaces, connect/disconnect edit. */
export interface RelationOp {
  set?: number[];
  connect?: Array<{ id: number; position?: { before?: number; after?: number; start?: boolean; end?: boolean } }>;
  disconnect?: number[];
}

const q = (db: Executor, s: string) => db.dialect.quote(s);

export async function writeRelation(db: Executor, ct: ContentType, attr: RelationAttribute, entityId: number, op: RelationOp): Promise<void> {
  if (attr.joinColumn) {
    const last = op.set ? op.set[op.set.length - 1] : op.connect?.length ? op.connect[op.connect.length - 1].id : undefined;
    const value = last ?? (op.set || op.disconnect ? null : undefined);
    if (value !== undefined) await db.run(`UPDATE ${q(db, ct.collectionName)} SET ${q(db, attr.joinColumn.name)} = ? WHERE id = ?`, [value, entityId]);
    return;
  }
  const jt = attr.joinTable!;
  const T = q(db, jt.name), J = q(db, jt.joinColumn), I = q(db, jt.inverseJoinColumn);
  const thisMany = attr.relation === 'oneToMany' || attr.relation === 'manyToMany';
  const otherMany = attr.relation === 'manyToOne' || attr.relation === 'manyToMany';

  if (op.set) await db.run(`DELETE FROM ${T} WHERE ${J} = ?`, [entityId]);
  if (op.disconnect?.length) {
    await db.run(`DELETE FROM ${T} WHERE ${J} = ? AND ${db.dialect.inList(I, '?')}`, [entityId, db.dialect.listValue(op.disconnect)]);
  }
  let targets = op.set ?? op.connect?.map((c) => c.id) ?? [];
  if (!thisMany && targets.length) {
    // to-one: the last one wins and replaces what was there
    targets = [targets[targets.length - 1]];
    await db.run(`DELETE FROM ${T} WHERE ${J} = ?`, [entityId]);
  }
  if (!targets.length) return;
  const current = await db.all<{ t: number; o: number | null }>(
    `SELECT ${I} AS t, ${jt.orderColumn ? q(db, jt.orderColumn) : 'NULL'} AS o FROM ${T} WHERE ${J} = ? ORDER BY ${jt.orderColumn ? q(db, jt.orderColumn) + ', ' : ''}id`,
    [entityId],
  );
  const present = new Set(current.map((r) => Number(r.t)));
  let nextOrder = current.reduce((m, r) => Math.max(m, Number(r.o ?? 0)), 0) + 1;
  for (const target of targets) {
    if (present.has(target)) continue;
    present.add(target);
    if (!otherMany) {
      // the target can belong to one entity only: take it from any other
      await db.run(`DELETE FROM ${T} WHERE ${I} = ?`, [target]);
    }
    const cols = [J, I];
    const vals: (number | null)[] = [entityId, target];
    if (jt.orderColumn) { cols.push(q(db, jt.orderColumn)); vals.push(nextOrder++); }
    if (jt.inverseOrderColumn) {
      const row = await db.get<{ m: number | null }>(`SELECT MAX(${q(db, jt.inverseOrderColumn)}) AS m FROM ${T} WHERE ${I} = ?`, [target]);
      cols.push(q(db, jt.inverseOrderColumn));
      vals.push(Number(row?.m ?? 0) + 1);
    }
    await db.run(`INSERT INTO ${T} (${cols.join(', ')}) VALUES (${vals.map(() => '?').join(', ')})`, vals);
  }
}

export async function writeMedia(db: Executor, ct: ContentType, attr: MediaAttribute, entityId: number, op: RelationOp): Promise<void> {
  const M = q(db, MEDIA_MORPH_TABLE), O = q(db, 'order');
  const key = [entityId, ct.uid, attr.name] as const;
  if (op.set || !attr.multiple) {
    if (op.set || op.connect?.length || op.disconnect?.length) {
      await db.run(`DELETE FROM ${M} WHERE related_id = ? AND related_type = ? AND field = ?`, [...key]);
    }
  }
  if (op.disconnect?.length && attr.multiple) {
    await db.run(`DELETE FROM ${M} WHERE related_id = ? AND related_type = ? AND field = ? AND ${db.dialect.inList('file_id', '?')}`, [...key, db.dialect.listValue(op.disconnect)]);
  }
  let files = op.set ?? op.connect?.map((c) => c.id) ?? [];
  if (!attr.multiple && files.length) files = [files[files.length - 1]];
  const row = await db.get<{ m: number | null }>(`SELECT MAX(${O}) AS m FROM ${M} WHERE related_id = ? AND related_type = ? AND field = ?`, [...key]);
  let order = Number(row?.m ?? 0) + 1;
  for (const fileId of files) {
    await db.run(`INSERT INTO ${M} (file_id, related_id, related_type, field, ${O}) VALUES (?, ?, ?, ?, ?)`, [fileId, ...key, order++]);
  }
}
