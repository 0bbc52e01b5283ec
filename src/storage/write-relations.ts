// Link-table writes for one relation or media attribute of one entity, as v4's entity manager does them, so
// the order columns on both sides hold the values v4 would write (an existing v4 database stays coherent):
//  - own order (`<target>_order`, x-to-many sides): set -> 1..n; connect -> v4's fractional positions, then
//    renumbered 1..n; disconnect -> renumbered;
//  - inverse order (`<this>_order`, bidirectional many-to-x): a new link goes last for its target
//    (max + 1); targets that lose a link through disconnect/set, or a to-one replacement, are renumbered;
//  - bidirectional one-to-x: a target taken by this entity is removed from its previous owner;
//  - to-one: one link at most (the last id given wins).
// Media (`files_related_morphs`) keep an `order` per (entity, type, field).
import type { Attribute, ContentType, JoinTable, MediaAttribute, Model, RelationAttribute } from '../model/types';
import { MEDIA_MORPH_TABLE } from '../model/names';
import type { Executor, SqlValue } from './dialect';
import { batches, valuesList } from './batch-rows';
import { applyConnect, connectOrderMap } from './relation-order';
import type { ConnectItem, RelationId, RelationOp } from './relation-ops';

export type WriteMode = 'create' | 'update';

/** one new entity's value for an attribute (create: several entities are written at once) */
export interface NewLinks {
  entityId: number;
  op: RelationOp;
}

const key = (id: RelationId) => String(id);

function uniq(ids: RelationId[]): RelationId[] {
  return [...new Map(ids.map((id) => [key(id), id])).values()];
}

/** The SQL of one link table, seen from the side being written. */
class LinkTable {
  readonly T: string;
  readonly J: string;
  readonly I: string;
  readonly O: string | null;
  readonly IO: string | null;
  constructor(private readonly db: Executor, jt: JoinTable, ordered: boolean, inverseOrdered: boolean) {
    const q = (s: string) => db.dialect.quote(s);
    this.T = q(jt.name);
    this.J = q(jt.joinColumn);
    this.I = q(jt.inverseJoinColumn);
    this.O = ordered && jt.orderColumn ? q(jt.orderColumn) : null;
    this.IO = inverseOrdered && jt.inverseOrderColumn ? q(jt.inverseOrderColumn) : null;
  }

  private inList(expr: string, ids: RelationId[]): [string, SqlValue] {
    return [this.db.dialect.inList(expr, '?'), this.db.dialect.listValue(ids)];
  }

  /** which of `ids` are linked to the entity now */
  async linked(entityId: number, ids: RelationId[]): Promise<RelationId[]> {
    const [cond, list] = this.inList(this.I, ids);
    const rows = await this.db.all<{ t: RelationId }>(`SELECT ${this.I} AS t FROM ${this.T} WHERE ${this.J} = ? AND ${cond}`, [entityId, list]);
    return rows.map((r) => r.t);
  }

  /** deletes links of the entity (to `ids`, or to every target but `keep`), then renumbers like v4 */
  async unlink(entityId: number, sel: { ids: RelationId[] } | { keep: RelationId[] }): Promise<void> {
    const [cond, list] = 'ids' in sel ? this.inList(this.I, sel.ids) : this.inList(this.I, sel.keep);
    const where = `${this.J} = ? AND ${'ids' in sel ? cond : `NOT ${cond}`}`;
    const removed = this.IO ? await this.db.all<{ t: RelationId }>(`SELECT ${this.I} AS t FROM ${this.T} WHERE ${where}`, [entityId, list]) : [];
    await this.db.run(`DELETE FROM ${this.T} WHERE ${where}`, [entityId, list]);
    await this.renumberOwn(entityId);
    await this.renumberInverse(removed.map((r) => r.t));
  }

  /** own order column of the entity -> 1..n (v4's cleanOrderColumns) */
  async renumberOwn(entityId: number): Promise<void> {
    if (!this.O) return;
    await this.db.run(
      `UPDATE ${this.T} SET ${this.O} = r.n FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY ${this.J} ORDER BY ${this.O}, id) AS n FROM ${this.T} WHERE ${this.J} = ?) r WHERE r.id = ${this.T}.id`,
      [entityId],
    );
  }

  /** inverse order column of these targets -> 1..n each */
  async renumberInverse(targets: RelationId[]): Promise<void> {
    if (!this.IO || !targets.length) return;
    const [cond, list] = this.inList(this.I, uniq(targets));
    await this.db.run(
      `UPDATE ${this.T} SET ${this.IO} = r.n FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY ${this.I} ORDER BY ${this.IO}, id) AS n FROM ${this.T} WHERE ${cond}) r WHERE r.id = ${this.T}.id`,
      [list],
    );
  }

  /** position of a new link at the end of each target's inverse list */
  async nextInverseOrders(targets: RelationId[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!this.IO || !targets.length) return out;
    // concurrent links to one target take turns, so each reads the MAX the previous one wrote
    await this.db.lock(targets.map((t) => `order:${this.T}.${this.IO}:${key(t)}`));
    const [cond, list] = this.inList(this.I, targets);
    // per target one MAX: with Tessera's (target, order) index a seek instead of a read of every link of the target
    // (schema/tessera-indexes.ts; 10k articles, a category's next position: 430 -> 10 us)
    const each = this.db.dialect.listRows?.('?', 'l');
    const rows = await this.db.all<{ t: RelationId; m: number | null }>(each
      ? `SELECT l.value AS t, (SELECT MAX(${this.IO}) FROM ${this.T} WHERE ${this.I} = l.value) AS m FROM ${each}`
      : `SELECT ${this.I} AS t, MAX(${this.IO}) AS m FROM ${this.T} WHERE ${cond} GROUP BY ${this.I}`, [list]);
    for (const r of rows) out.set(key(r.t), Number(r.m ?? 0) + 1);
    return out;
  }

  async insert(entityId: number, targets: RelationId[], order: (id: RelationId, i: number) => number | undefined, inverse: Map<string, number>): Promise<void> {
    await this.insertRows(targets.map((t, i) => ({ entityId, target: t, own: order(t, i), inverse: inverse.get(key(t)) })));
  }

  /** link rows, many per statement (batch-rows.ts); a missing inverse order is 1 */
  async insertRows(rows: Array<{ entityId: number; target: RelationId; own: number | undefined; inverse: number | undefined }>): Promise<void> {
    const cols = [this.J, this.I, ...(this.O ? [this.O] : []), ...(this.IO ? [this.IO] : [])];
    for (const part of batches(rows, cols.length)) {
      const values: SqlValue[] = [];
      for (const r of part) {
        values.push(r.entityId, r.target);
        if (this.O) values.push(r.own ?? null);
        if (this.IO) values.push(r.inverse ?? 1);
      }
      await this.db.run(`INSERT INTO ${this.T} (${cols.join(', ')}) VALUES ${valuesList(this.db.dialect, part.length, cols.length)}`, values);
    }
  }

  /** new own order values of links that already exist (one statement) */
  async reorder(entityId: number, targets: RelationId[], order: (id: RelationId) => number | undefined): Promise<void> {
    if (!this.O) return;
    for (const part of batches(targets, 2)) {
      const cases = part.map(() => 'WHEN ? THEN ?').join(' ');
      const [cond, list] = this.inList(this.I, part);
      await this.db.run(
        `UPDATE ${this.T} SET ${this.O} = CASE ${this.I} ${cases} ELSE ${this.O} END WHERE ${this.J} = ? AND ${cond}`,
        [...part.flatMap((t) => [t, order(t) ?? null]), entityId, list],
      );
    }
  }

  /** bidirectional one-to-x: these targets leave any owner but `owners` */
  async takeFromOthers(owners: number[], targets: RelationId[]): Promise<void> {
    if (!targets.length) return;
    const [cond, list] = this.inList(this.I, targets);
    const [own, ownList] = this.inList(this.J, owners);
    await this.db.run(`DELETE FROM ${this.T} WHERE ${cond} AND NOT ${own}`, [list, ownList]);
  }

  /** the relations v4 reads before placing `connect`: the ones named as neighbours, and the last one */
  async neighbours(entityId: number, connect: ConnectItem[]): Promise<Array<{ id: RelationId; order: number | null }>> {
    if (!this.O) return [];
    const named = connect.flatMap((c) => ('before' in c.position ? [c.position.before] : 'after' in c.position ? [c.position.after] : []));
    const [cond, list] = this.inList(this.I, named);
    return this.db.all<{ id: RelationId; order: number | null }>(
      `SELECT ${this.I} AS id, ${this.O} AS "order" FROM ${this.T} WHERE ${this.J} = ? AND (${cond} OR ${this.O} = (SELECT MAX(${this.O}) FROM ${this.T} WHERE ${this.J} = ?)) ORDER BY ${this.O}, id`,
      [entityId, list, entityId],
    );
  }
}

const isOneToAny = (a: RelationAttribute) => a.relation === 'oneToOne' || a.relation === 'oneToMany';
const isManyToAny = (a: RelationAttribute) => a.relation === 'manyToOne' || a.relation === 'manyToMany';
const isAnyToOne = (a: RelationAttribute) => a.relation === 'oneToOne' || a.relation === 'manyToOne';
const isAnyToMany = (a: RelationAttribute) => a.relation === 'oneToMany' || a.relation === 'manyToMany';
const isBidirectional = (a: RelationAttribute) => Boolean(a.mappedBy || a.inversedBy);

/**
 * Writes that change or remove existing link rows (unlink, renumbering, reordering, a target taken from its previous
 * owner, a delete's cascade) touch other entities' rows of the same table: the targets' inverse positions. Two such
 * transactions locking overlapping rows in different orders deadlock (PostgreSQL aborts one: found by the crash
 * test, test/crash/postgres-relation-deadlock.test.ts), so they take turns per link table, each taking every table
 * it will change in one lock statement before its first change (PostgreSQL: transaction advisory locks, re-entrant;
 * SQLite has one writer). New links alone (a create) need only their targets' positions (nextInverseOrders).
 */
export function lockLinkTables(db: Executor, tables: Iterable<string>): Promise<void> {
  return db.lock([...new Set(tables)].map((t) => `links:${t}`));
}

/** the link tables an update of these attributes changes (relations kept in a link table) */
export function changedLinkTables(attrs: Iterable<Attribute>): string[] {
  const out: string[] = [];
  for (const attr of attrs) if (attr.kind === 'relation' && attr.joinTable && !attr.joinColumn && !attr.relation.startsWith('morph')) out.push(attr.joinTable.name);
  return out;
}

/** every link table with rows that deleting entries of `ct` removes (its own relations, and relations to it) */
export function linkTablesOf(model: Model, ct: ContentType): string[] {
  const out = changedLinkTables(Object.values(ct.attributes));
  for (const other of [...model.contentTypes.values(), ...model.components.values()]) {
    for (const attr of Object.values(other.attributes)) {
      if (attr.kind === 'relation' && attr.target === ct.uid) out.push(...changedLinkTables([attr]));
    }
  }
  return out;
}

function linkTable(db: Executor, attr: RelationAttribute): LinkTable | null {
  if (!attr.joinTable) return null;
  return new LinkTable(db, attr.joinTable, isAnyToMany(attr), isBidirectional(attr) && isManyToAny(attr));
}

/** createdBy/updatedBy: a foreign-key column on the row itself */
async function writeJoinColumn(db: Executor, ct: ContentType, attr: RelationAttribute, entityId: number, op: RelationOp): Promise<void> {
  const ids = op.kind === 'set' ? op.ids : op.connect.map((c) => c.id);
  const value = ids.length ? ids[ids.length - 1] : op.kind === 'set' || op.disconnect.length ? null : undefined;
  if (value !== undefined) await db.run(`UPDATE ${db.dialect.quote(ct.collectionName)} SET ${db.dialect.quote(attr.joinColumn!.name)} = ? WHERE id = ?`, [value, entityId]);
}

/** Writes one relation of one entity. Connect positions throw ConnectOrderError (a 400 for the caller). */
export async function writeRelation(db: Executor, ct: ContentType, attr: RelationAttribute, entityId: number, op: RelationOp, mode: WriteMode): Promise<void> {
  if (mode === 'create') return createRelationLinks(db, ct, attr, [{ entityId, op }]);
  if (attr.joinColumn) return writeJoinColumn(db, ct, attr, entityId, op);
  const link = linkTable(db, attr);
  if (!link) return;
  await lockLinkTables(db, [attr.joinTable!.name]);
  if (op.kind === 'set') return replace(link, attr, entityId, op.ids);
  return edit(link, attr, entityId, op);
}

/**
 * One relation of new entities, with the links each would get were they created one after the other (a
 * target of a bidirectional one-to-x goes to the last one naming it; a target's inverse order counts on
 * from one entity to the next), in a few statements whatever their number.
 */
export async function createRelationLinks(db: Executor, ct: ContentType, attr: RelationAttribute, entries: NewLinks[]): Promise<void> {
  if (attr.joinColumn) {
    for (const e of entries) await writeJoinColumn(db, ct, attr, e.entityId, e.op);
    return;
  }
  const link = linkTable(db, attr);
  if (!link) return;
  const rows: Array<{ entityId: number; target: RelationId; own: number | undefined }> = [];
  for (const { entityId, op } of entries) {
    let ids = op.kind === 'set' ? op.ids : uniq(op.connect.map((c) => c.id));
    // v4 inserts every id of a to-one value on create (and shows the first); the last one wins here
    if (isAnyToOne(attr)) ids = ids.slice(-1);
    let order = (_id: RelationId, i: number): number | undefined => i + 1;
    if (op.kind === 'edit' && link.O) {
      // v4 numbers connected relations from 0 on create, in the order their positions give
      const placed = applyConnect([], op.connect, true);
      const at = new Map(placed.map((r, i) => [key(r.id), i]));
      order = (id) => at.get(key(id));
    }
    ids.forEach((target, i) => rows.push({ entityId, target, own: order(target, i) }));
  }
  if (!rows.length) return;
  let kept = rows;
  if (isBidirectional(attr) && isOneToAny(attr)) {
    const owner = new Map(rows.map((r) => [key(r.target), r.entityId]));
    kept = rows.filter((r) => owner.get(key(r.target)) === r.entityId);
    await lockLinkTables(db, [attr.joinTable!.name]);
    await link.takeFromOthers([...new Set(rows.map((r) => r.entityId))], uniq(kept.map((r) => r.target)));
  }
  const next = await link.nextInverseOrders(uniq(kept.map((r) => r.target)));
  await link.insertRows(kept.map((r) => {
    const inverse = next.get(key(r.target));
    if (inverse !== undefined) next.set(key(r.target), inverse + 1);
    else if (link.IO) next.set(key(r.target), 2);
    return { ...r, inverse };
  }));
}

async function replace(link: LinkTable, attr: RelationAttribute, entityId: number, all: RelationId[]): Promise<void> {
  const ids = isAnyToOne(attr) ? all.slice(-1) : all;
  await link.unlink(entityId, { keep: ids });
  if (!ids.length) return;
  const kept = new Set((await link.linked(entityId, ids)).map(key));
  const position = new Map(ids.map((id, i) => [key(id), i + 1]));
  await link.reorder(entityId, ids.filter((id) => kept.has(key(id))), (id) => position.get(key(id)));
  const added = ids.filter((id) => !kept.has(key(id)));
  await link.insert(entityId, added, (id) => position.get(key(id)), await link.nextInverseOrders(added));
  if (isBidirectional(attr) && isOneToAny(attr)) await link.takeFromOthers([entityId], ids);
}

async function edit(link: LinkTable, attr: RelationAttribute, entityId: number, op: Extract<RelationOp, { kind: 'edit' }>): Promise<void> {
  const connect = isAnyToOne(attr) ? op.connect.slice(-1) : op.connect;
  if (op.disconnect.length) await link.unlink(entityId, { ids: op.disconnect });
  if (!connect.length) return;
  const ids = uniq(connect.map((c) => c.id));
  let order = (_id: RelationId): number | undefined => undefined;
  if (link.O) {
    const orders = connectOrderMap(applyConnect(await link.neighbours(entityId, connect), connect, op.strict));
    order = (id) => orders.get(key(id));
  }
  const present = new Set((await link.linked(entityId, ids)).map(key));
  await link.reorder(entityId, ids.filter((id) => present.has(key(id))), order);
  const added = ids.filter((id) => !present.has(key(id)));
  await link.insert(entityId, added, (id) => order(id), await link.nextInverseOrders(added));
  await link.renumberOwn(entityId);
  if (isBidirectional(attr) && isOneToAny(attr)) await link.takeFromOthers([entityId], ids);
  if (isAnyToOne(attr)) await link.unlink(entityId, { keep: [ids[0]] });
}

/** the files of a media field after `op`, given the current ones (`set` replaces; positions as relations) */
function mediaFiles(attr: MediaAttribute, op: RelationOp, current: Array<{ id: number; order: number | null }>): RelationId[] {
  // a single media field keeps the first file given, which is the one v4 shows
  if (op.kind === 'set') return attr.multiple ? op.ids : op.ids.slice(0, 1);
  const gone = new Set(op.disconnect.map(key));
  const kept = current.filter((r) => !gone.has(key(r.id))).map((r, i) => ({ id: r.id as RelationId, order: i + 1 }));
  if (!attr.multiple) return op.connect.length ? [op.connect[op.connect.length - 1].id] : kept.map((r) => r.id);
  return applyConnect(kept, op.connect, op.strict).map((r) => r.id);
}

/** `files_related_morphs` rows, many per statement */
async function insertMediaRows(db: Executor, rows: SqlValue[][]): Promise<void> {
  const O = db.dialect.quote('order');
  for (const part of batches(rows, 5)) {
    await db.run(`INSERT INTO ${db.dialect.quote(MEDIA_MORPH_TABLE)} (file_id, related_id, related_type, field, ${O}) VALUES ${valuesList(db.dialect, part.length, 5)}`, part.flat());
  }
}

/** Media links of one entity field. `set` replaces; connect/disconnect edit the list (positions as relations). */
export async function writeMedia(db: Executor, ct: ContentType, attr: MediaAttribute, entityId: number, op: RelationOp, mode: WriteMode): Promise<void> {
  if (mode === 'create') return createMediaLinks(db, ct, attr, [{ entityId, op }]);
  const M = db.dialect.quote(MEDIA_MORPH_TABLE), O = db.dialect.quote('order');
  const owner = [entityId, ct.uid, attr.name] as const;
  const where = `related_id = ? AND related_type = ? AND field = ?`;
  const current = op.kind === 'set' ? [] : await db.all<{ id: number; order: number | null }>(`SELECT file_id AS id, ${O} AS "order" FROM ${M} WHERE ${where} ORDER BY ${O}, id`, [...owner]);
  const files = mediaFiles(attr, op, current);
  await db.run(`DELETE FROM ${M} WHERE ${where}`, [...owner]);
  await insertMediaRows(db, uniq(files).map((fileId, i) => [fileId, ...owner, i + 1]));
}

/** One media field of new entities (no current files), in one statement per batch of rows. */
export async function createMediaLinks(db: Executor, ct: ContentType, attr: MediaAttribute, entries: NewLinks[]): Promise<void> {
  await insertMediaRows(db, entries.flatMap(({ entityId, op }) => uniq(mediaFiles(attr, op, [])).map((fileId, i) => [fileId, entityId, ct.uid, attr.name, i + 1])));
}
