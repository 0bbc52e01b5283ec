// Entity writes inside one transaction, in v4's sequence: components first (nested ones before their parent
// row), then the main row, then links (relations, media, component links) in attribute order.
import type { Attribute, ComponentAttribute, ContentType, DynamicZoneAttribute, Model } from '../model/types';
import { COMPONENT_LINK, MEDIA_MORPH_TABLE } from '../model/names';
import type { Executor, SqlValue } from './dialect';
import { toDb } from './values';
import { parseRelationValue } from './relation-ops';
import { writeMedia, writeRelation, type WriteMode } from './write-relations';
import { ComponentWriter, type ComponentLink, type RowWriter } from './write-components';

export { WriteError, ComponentOwnershipError } from './write-errors';

type Data = Record<string, unknown>;

const q = (db: Executor, s: string) => db.dialect.quote(s);

function scalarAssignments(db: Executor, ct: ContentType, data: Data): { cols: string[]; vals: SqlValue[] } {
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

function withTimestamps(ct: ContentType, data: Data, isCreate: boolean): Data {
  if (ct.kind === 'component') return data;
  const d = new Date();
  const out = { ...data };
  if (isCreate && ct.attributes.createdAt && out.createdAt === undefined) out.createdAt = d;
  if (ct.attributes.updatedAt && (isCreate ? out.updatedAt === undefined : true)) out.updatedAt = d;
  return out;
}

function isComponentField(attr: Attribute | undefined): attr is ComponentAttribute | DynamicZoneAttribute {
  return attr?.kind === 'component' || attr?.kind === 'dynamiczone';
}

function rowWriter(db: Executor, model: Model): RowWriter {
  return {
    create: (ct, data) => insertEntity(db, model, ct, data),
    update: (ct, id, data) => updateEntity(db, model, ct, id, data),
    async deleteRows(ct, ids) {
      await deleteOwned(db, model, ct, ids);
      await db.run(`DELETE FROM ${q(db, ct.collectionName)} WHERE ${db.dialect.inList('id', '?')}`, [db.dialect.listValue(ids)]);
    },
  };
}

/** Components of `data` written before the row (create or v4 update semantics), by attribute. */
async function writeComponentRows(components: ComponentWriter, ct: ContentType, data: Data, entityId: number | null): Promise<Map<string, ComponentLink[]>> {
  const out = new Map<string, ComponentLink[]>();
  for (const attr of Object.values(ct.attributes)) {
    if (!isComponentField(attr) || data[attr.name] === undefined) continue;
    out.set(attr.name, entityId === null ? await components.create(attr, data[attr.name]) : await components.update(entityId, attr, data[attr.name]));
  }
  return out;
}

async function writeLinks(db: Executor, ct: ContentType, id: number, data: Data, components: ComponentWriter, written: Map<string, ComponentLink[]>, mode: WriteMode): Promise<void> {
  for (const attr of Object.values(ct.attributes)) {
    const value = data[attr.name];
    if (value === undefined) continue;
    if (attr.kind === 'relation') {
      if (attr.relation.startsWith('morph') || (mode === 'create' && value === null)) continue;
      const op = parseRelationValue(value);
      if (op) await writeRelation(db, ct, attr, id, op, mode);
    } else if (attr.kind === 'media') {
      const op = parseRelationValue(value);
      if (op) await writeMedia(db, ct, attr, id, op, mode);
    } else if (isComponentField(attr)) {
      await components.link(id, attr, written.get(attr.name) ?? [], mode === 'create');
    }
  }
}

export async function insertEntity(db: Executor, model: Model, ct: ContentType, data: Data): Promise<number> {
  const components = new ComponentWriter(db, model, ct, rowWriter(db, model));
  const written = await writeComponentRows(components, ct, data, null);
  const { cols, vals } = scalarAssignments(db, ct, withTimestamps(ct, data, true));
  const sql = cols.length
    ? `INSERT INTO ${q(db, ct.collectionName)} (${cols.join(', ')}) VALUES (${vals.map((_, i) => db.dialect.placeholder(i + 1)).join(', ')})`
    : `INSERT INTO ${q(db, ct.collectionName)} DEFAULT VALUES`;
  const id = await db.insert(sql, vals);
  await writeLinks(db, ct, id, data, components, written, 'create');
  return id;
}

export async function updateEntity(db: Executor, model: Model, ct: ContentType, id: number, data: Data): Promise<void> {
  const components = new ComponentWriter(db, model, ct, rowWriter(db, model));
  const written = await writeComponentRows(components, ct, data, id);
  const { cols, vals } = scalarAssignments(db, ct, withTimestamps(ct, data, false));
  if (cols.length) {
    await db.run(`UPDATE ${q(db, ct.collectionName)} SET ${cols.map((c, i) => `${c} = ${db.dialect.placeholder(i + 1)}`).join(', ')} WHERE id = ${db.dialect.placeholder(cols.length + 1)}`, [...vals, id]);
  }
  await writeLinks(db, ct, id, data, components, written, 'update');
}

export async function deleteEntity(db: Executor, model: Model, ct: ContentType, id: number): Promise<void> {
  await deleteOwned(db, model, ct, [id]);
  await db.run(`DELETE FROM ${q(db, ct.collectionName)} WHERE id = ?`, [id]);
}

/** Components and media links owned by these rows (link tables go by foreign-key cascade). */
async function deleteOwned(db: Executor, model: Model, ct: ContentType, entityIds: number[]): Promise<void> {
  if (!entityIds.length) return;
  const ids = db.dialect.listValue(entityIds);
  if (Object.values(ct.attributes).some((a) => a.kind === 'media')) {
    await db.run(`DELETE FROM ${q(db, MEDIA_MORPH_TABLE)} WHERE related_type = ? AND ${db.dialect.inList('related_id', '?')}`, [ct.uid, ids]);
  }
  if (!Object.values(ct.attributes).some(isComponentField)) return;
  const L = q(db, ct.componentsTable);
  const links = await db.all<ComponentLink>(`SELECT ${COMPONENT_LINK.component} AS cid, ${COMPONENT_LINK.type} AS ctype FROM ${L} WHERE ${db.dialect.inList(COMPONENT_LINK.entity, '?')}`, [ids]);
  await db.run(`DELETE FROM ${L} WHERE ${db.dialect.inList(COMPONENT_LINK.entity, '?')}`, [ids]);
  await new ComponentWriter(db, model, ct, rowWriter(db, model)).deleteComponents(links);
}
