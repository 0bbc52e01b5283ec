// Entity writes inside one transaction: the main row, its relations, media, components and dynamic
// zones (v4 update semantics: an item with its id is updated, one without is created, one left out is
// deleted with everything under it).
import type { Attribute, ComponentAttribute, ContentType, DynamicZoneAttribute, Model } from '../model/types';
import { COMPONENT_LINK } from '../model/names';
import type { Executor, SqlValue } from './dialect';
import { toDb } from './values';
import { writeMedia, writeRelation, type RelationOp } from './write-relations';

type ConnectPosition = NonNullable<RelationOp['connect']>[number]['position'];

export class WriteError extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
  }
}

const q = (db: Executor, s: string) => db.dialect.quote(s);

function toId(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  if (v && typeof v === 'object' && 'id' in v) return toId((v as { id: unknown }).id);
  return undefined;
}

function ids(v: unknown): number[] {
  const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return list.map((x) => {
    const id = toId(x);
    if (id === undefined) throw new WriteError(`Invalid relation id ${JSON.stringify(x)}`);
    return id;
  });
}

/** Every v4 relation value form -> one operation. */
export function toRelationOp(value: unknown): RelationOp {
  if (value === null) return { set: [] };
  if (Array.isArray(value) || typeof value !== 'object' || 'id' in (value as object)) return { set: ids(value) };
  const v = value as Record<string, unknown>;
  if ('set' in v) return { set: ids(v.set) };
  const op: RelationOp = {};
  if ('connect' in v) {
    op.connect = (Array.isArray(v.connect) ? v.connect : [v.connect]).map((c) => ({
      id: ids(c)[0],
      position: c && typeof c === 'object' ? (c as { position?: ConnectPosition }).position : undefined,
    }));
  }
  if ('disconnect' in v) op.disconnect = ids(v.disconnect);
  return op;
}

function scalarAssignments(db: Executor, ct: ContentType, data: Record<string, unknown>): { cols: string[]; vals: SqlValue[] } {
  const cols: string[] = [];
  const vals: SqlValue[] = [];
  for (const [name, value] of Object.entries(data)) {
    const attr = ct.attributes[name];
    if (!attr || attr.kind !== 'scalar' || value === undefined) continue;
    cols.push(q(db, attr.column));
    vals.push(toDb(db.dialect, attr.type, value));
  }
  return { cols, vals };
}

function now(db: Executor, ct: ContentType, data: Record<string, unknown>, isCreate: boolean): Record<string, unknown> {
  if (ct.kind === 'component') return data;
  const d = new Date();
  const out = { ...data };
  if (isCreate && ct.attributes.createdAt && out.createdAt === undefined) out.createdAt = d;
  if (ct.attributes.updatedAt && (isCreate ? out.updatedAt === undefined : true)) out.updatedAt = d;
  return out;
}

export async function insertEntity(db: Executor, model: Model, ct: ContentType, data: Record<string, unknown>): Promise<number> {
  const row = now(db, ct, data, true);
  const { cols, vals } = scalarAssignments(db, ct, row);
  const sql = cols.length
    ? `INSERT INTO ${q(db, ct.collectionName)} (${cols.join(', ')}) VALUES (${vals.map((_, i) => db.dialect.placeholder(i + 1)).join(', ')})`
    : `INSERT INTO ${q(db, ct.collectionName)} DEFAULT VALUES`;
  const id = await db.insert(sql, vals);
  await writeNested(db, model, ct, id, data, true);
  return id;
}

export async function updateEntity(db: Executor, model: Model, ct: ContentType, id: number, data: Record<string, unknown>): Promise<void> {
  const row = now(db, ct, data, false);
  const { cols, vals } = scalarAssignments(db, ct, row);
  if (cols.length) {
    await db.run(`UPDATE ${q(db, ct.collectionName)} SET ${cols.map((c, i) => `${c} = ${db.dialect.placeholder(i + 1)}`).join(', ')} WHERE id = ${db.dialect.placeholder(cols.length + 1)}`, [...vals, id]);
  }
  await writeNested(db, model, ct, id, data, false);
}

export async function deleteEntity(db: Executor, model: Model, ct: ContentType, id: number): Promise<void> {
  await deleteOwned(db, model, ct, [id]);
  await db.run(`DELETE FROM ${q(db, ct.collectionName)} WHERE id = ?`, [id]);
}

/** Components and media links owned by these rows (link tables go by foreign-key cascade). */
async function deleteOwned(db: Executor, model: Model, ct: ContentType, entityIds: number[]): Promise<void> {
  if (!entityIds.length) return;
  const hasMedia = Object.values(ct.attributes).some((a) => a.kind === 'media');
  if (hasMedia) {
    await db.run(`DELETE FROM files_related_morphs WHERE related_type = ? AND ${db.dialect.inList('related_id', '?')}`, [ct.uid, db.dialect.listValue(entityIds)]);
  }
  const hasComponents = Object.values(ct.attributes).some((a) => a.kind === 'component' || a.kind === 'dynamiczone');
  if (!hasComponents) return;
  const links = await db.all<{ cid: number; ctype: string }>(
    `SELECT ${COMPONENT_LINK.component} AS cid, ${COMPONENT_LINK.type} AS ctype FROM ${q(db, ct.componentsTable)} WHERE ${db.dialect.inList(COMPONENT_LINK.entity, '?')}`,
    [db.dialect.listValue(entityIds)],
  );
  await db.run(`DELETE FROM ${q(db, ct.componentsTable)} WHERE ${db.dialect.inList(COMPONENT_LINK.entity, '?')}`, [db.dialect.listValue(entityIds)]);
  await deleteComponentRows(db, model, links);
}

async function deleteComponentRows(db: Executor, model: Model, links: { cid: number; ctype: string }[]): Promise<void> {
  const byType = new Map<string, number[]>();
  for (const l of links) byType.set(l.ctype, [...(byType.get(l.ctype) ?? []), Number(l.cid)]);
  for (const [uid, cids] of byType) {
    const comp = model.get(uid);
    if (!comp) continue;
    await deleteOwned(db, model, comp, cids);
    await db.run(`DELETE FROM ${q(db, comp.collectionName)} WHERE ${db.dialect.inList('id', '?')}`, [db.dialect.listValue(cids)]);
  }
}

async function writeNested(db: Executor, model: Model, ct: ContentType, id: number, data: Record<string, unknown>, isCreate: boolean): Promise<void> {
  for (const [name, value] of Object.entries(data)) {
    const attr: Attribute | undefined = ct.attributes[name];
    if (!attr || value === undefined) continue;
    switch (attr.kind) {
      case 'relation':
        if (!attr.relation.startsWith('morph')) await writeRelation(db, ct, attr, id, toRelationOp(value));
        break;
      case 'media':
        await writeMedia(db, ct, attr, id, toRelationOp(value));
        break;
      case 'component':
      case 'dynamiczone':
        await writeComponents(db, model, ct, id, attr, value, isCreate);
        break;
    }
  }
}

interface ComponentItem {
  uid: string;
  data: Record<string, unknown>;
}

function componentItems(attr: ComponentAttribute | DynamicZoneAttribute, value: unknown): ComponentItem[] {
  if (value === null) return [];
  if (attr.kind === 'component') {
    const list = attr.repeatable ? value : [value];
    if (!Array.isArray(list)) throw new WriteError(`${attr.name} must be an array`);
    return list.map((d) => ({ uid: attr.component, data: (d ?? {}) as Record<string, unknown> }));
  }
  if (!Array.isArray(value)) throw new WriteError(`${attr.name} must be an array`);
  return value.map((d) => ({ uid: String((d as { __component?: unknown }).__component), data: d as Record<string, unknown> }));
}

async function writeComponents(db: Executor, model: Model, ct: ContentType, entityId: number, attr: ComponentAttribute | DynamicZoneAttribute, value: unknown, isCreate: boolean): Promise<void> {
  const L = q(db, ct.componentsTable);
  const existing = isCreate ? [] : await db.all<{ cid: number; ctype: string }>(
    `SELECT ${COMPONENT_LINK.component} AS cid, ${COMPONENT_LINK.type} AS ctype FROM ${L} WHERE ${COMPONENT_LINK.entity} = ? AND ${COMPONENT_LINK.field} = ?`,
    [entityId, attr.name],
  );
  const owned = new Set(existing.map((e) => `${e.ctype}#${e.cid}`));
  const kept = new Set<string>();
  const written: { uid: string; id: number }[] = [];
  for (const item of componentItems(attr, value)) {
    const comp = model.get(item.uid);
    if (!comp || comp.kind !== 'component') throw new WriteError(`Invalid component ${item.uid}`);
    const itemId = toId(item.data.id);
    const { id: _drop, __component: _c, ...fields } = item.data;
    void _drop; void _c;
    if (itemId !== undefined && owned.has(`${item.uid}#${itemId}`)) {
      await updateEntity(db, model, comp, itemId, fields);
      kept.add(`${item.uid}#${itemId}`);
      written.push({ uid: item.uid, id: itemId });
    } else if (itemId !== undefined && attr.kind === 'component' && !isCreate) {
      throw new WriteError(`Some of the provided components in ${attr.name} are not related to the entity`);
    } else {
      written.push({ uid: item.uid, id: await insertEntity(db, model, comp, fields) });
    }
  }
  await db.run(`DELETE FROM ${L} WHERE ${COMPONENT_LINK.entity} = ? AND ${COMPONENT_LINK.field} = ?`, [entityId, attr.name]);
  await deleteComponentRows(db, model, existing.filter((e) => !kept.has(`${e.ctype}#${e.cid}`)));
  const ordered = attr.kind === 'dynamiczone' || attr.repeatable;
  for (const [i, w] of written.entries()) {
    await db.run(
      `INSERT INTO ${L} (${COMPONENT_LINK.entity}, ${COMPONENT_LINK.component}, ${COMPONENT_LINK.type}, ${COMPONENT_LINK.field}, ${q(db, COMPONENT_LINK.order)}) VALUES (?, ?, ?, ?, ?)`,
      [entityId, w.id, w.uid, attr.name, ordered ? i + 1 : null],
    );
  }
}
