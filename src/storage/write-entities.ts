// Entity writes inside one transaction, in v4's sequence: components first (nested ones before their parent
// row), then the main row, then links (relations, media, component links) in attribute order.
//
// Several new entities (strapi.query().createMany, the items of a repeatable component) are written
// together: their rows of each table in multi-row INSERTs (batch-rows.ts), each link table once per
// attribute, so the number of statements does not grow with the number of entities. The result is the
// one writing them one after the other gives; updateMany and deleteMany likewise take every row at once.
import type { Attribute, ComponentAttribute, ContentType, DynamicZoneAttribute, Model } from '../model/types';
import { COMPONENT_LINK, MEDIA_MORPH_TABLE } from '../model/names';
import type { Executor, SqlValue } from './dialect';
import { batches, valuesList } from './batch-rows';
import { toDb } from './values';
import { parseRelationValue } from './relation-ops';
import { changedLinkTables, createMediaLinks, createRelationLinks, linkTablesOf, lockLinkTables, writeMedia, writeRelation, type NewLinks } from './write-relations';
import { ComponentWriter, type ComponentLink, type FieldLinks, type RowWriter } from './write-components';

export { WriteError, ComponentOwnershipError } from './write-errors';

type Data = Record<string, unknown>;

const q = (db: Executor, s: string) => db.dialect.quote(s);

/** the columns `data` sets, in the model's order (rows setting the same ones share one INSERT) */
function scalarAssignments(db: Executor, ct: ContentType, data: Data): { cols: string[]; vals: SqlValue[] } {
  const cols: string[] = [];
  const vals: SqlValue[] = [];
  for (const attr of Object.values(ct.attributes)) {
    const value = data[attr.name];
    if (attr.kind !== 'scalar' || value === undefined || !Object.prototype.hasOwnProperty.call(data, attr.name)) continue;
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

/**
 * v4's database layer gives every new row (an entry, a component created by a create or an update) the schema
 * default of each scalar attribute left undefined (entity manager `create`: processData withDefaults).
 */
function withDefaults(ct: ContentType, data: Data): Data {
  let out = data;
  for (const attr of Object.values(ct.attributes)) {
    if (attr.kind !== 'scalar' || attr.default === undefined || data[attr.name] !== undefined) continue;
    if (out === data) out = { ...data };
    out[attr.name] = attr.default;
  }
  return out;
}

function isComponentField(attr: Attribute | undefined): attr is ComponentAttribute | DynamicZoneAttribute {
  return attr?.kind === 'component' || attr?.kind === 'dynamiczone';
}

function rowWriter(db: Executor, model: Model): RowWriter {
  return {
    create: (ct, data) => insertEntities(db, model, ct, data),
    update: (ct, id, data) => updateEntity(db, model, ct, id, data),
    deleteRows: (ct, ids) => deleteEntities(db, model, ct, ids),
  };
}

/** Components of `data` written before the row (v4 update semantics), by attribute. */
async function updateComponentRows(components: ComponentWriter, ct: ContentType, data: Data, entityId: number): Promise<Map<string, ComponentLink[]>> {
  const out = new Map<string, ComponentLink[]>();
  for (const attr of Object.values(ct.attributes)) {
    if (!isComponentField(attr) || data[attr.name] === undefined) continue;
    out.set(attr.name, await components.update(entityId, attr, data[attr.name]));
  }
  return out;
}

/** Components of new entities, written before their rows: per entity, attribute -> its links. */
async function createComponentRows(components: ComponentWriter, ct: ContentType, datas: Data[]): Promise<Array<Map<string, ComponentLink[]>>> {
  const out = datas.map(() => new Map<string, ComponentLink[]>());
  for (const attr of Object.values(ct.attributes)) {
    if (!isComponentField(attr) || datas.every((d) => d[attr.name] === undefined)) continue;
    const links = await components.create(attr, datas.map((d) => d[attr.name]));
    datas.forEach((d, i) => {
      if (d[attr.name] !== undefined) out[i].set(attr.name, links[i]);
    });
  }
  return out;
}

async function updateLinks(db: Executor, ct: ContentType, id: number, data: Data, components: ComponentWriter, written: Map<string, ComponentLink[]>): Promise<void> {
  for (const attr of Object.values(ct.attributes)) {
    const value = data[attr.name];
    if (value === undefined) continue;
    if (attr.kind === 'relation') {
      if (attr.relation.startsWith('morph')) continue;
      const op = parseRelationValue(value);
      if (op) await writeRelation(db, ct, attr, id, op, 'update');
    } else if (attr.kind === 'media') {
      const op = parseRelationValue(value);
      if (op) await writeMedia(db, ct, attr, id, op, 'update');
    } else if (isComponentField(attr)) {
      await components.link(id, attr, written.get(attr.name) ?? [], false);
    }
  }
}

/** The links of new entities, attribute by attribute, each attribute's rows for all of them at once. */
async function createLinks(db: Executor, ct: ContentType, ids: number[], datas: Data[], components: ComponentWriter, written: Array<Map<string, ComponentLink[]>>): Promise<void> {
  for (const attr of Object.values(ct.attributes)) {
    if (isComponentField(attr)) {
      const fields: FieldLinks[] = [];
      datas.forEach((d, i) => {
        if (d[attr.name] !== undefined) fields.push({ entityId: ids[i], attr, links: written[i].get(attr.name) ?? [] });
      });
      if (fields.length) await components.insertLinks(fields);
      continue;
    }
    if (attr.kind !== 'relation' && attr.kind !== 'media') continue;
    if (attr.kind === 'relation' && attr.relation.startsWith('morph')) continue;
    const entries: NewLinks[] = [];
    datas.forEach((d, i) => {
      const value = d[attr.name];
      if (value === undefined || (attr.kind === 'relation' && value === null)) return;
      const op = parseRelationValue(value);
      if (op) entries.push({ entityId: ids[i], op });
    });
    if (!entries.length) continue;
    if (attr.kind === 'relation') await createRelationLinks(db, ct, attr, entries);
    else await createMediaLinks(db, ct, attr, entries);
  }
}

/** main rows, consecutive ones setting the same columns in multi-row INSERTs; their ids in order */
async function insertRows(db: Executor, ct: ContentType, datas: Data[]): Promise<number[]> {
  const table = q(db, ct.collectionName);
  const rows = datas.map((d) => scalarAssignments(db, ct, d));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; ) {
    const cols = rows[i].cols;
    const columns = cols.join(', ');
    let end = i + 1;
    while (end < rows.length && rows[end].cols.join(', ') === columns) end++;
    const run = rows.slice(i, end);
    i = end;
    if (!cols.length) {
      for (let n = 0; n < run.length; n++) ids.push(await db.insert(`INSERT INTO ${table} DEFAULT VALUES`));
      continue;
    }
    for (const part of batches(run, cols.length)) {
      const sql = `INSERT INTO ${table} (${columns}) VALUES ${valuesList(db.dialect, part.length, cols.length)}`;
      const vals = part.flatMap((r) => r.vals);
      if (part.length === 1) {
        ids.push(await db.insert(sql, vals));
        continue;
      }
      // one statement numbers its new rows in the order of its VALUES (each gets the largest id + 1)
      const created = await db.all<{ id: number }>(`${sql} RETURNING id`, vals);
      ids.push(...created.map((r) => Number(r.id)).sort((a, b) => a - b));
    }
  }
  return ids;
}

/** New entities (with their components and links), as inserting them one after the other; their ids in order. */
export async function insertEntities(db: Executor, model: Model, ct: ContentType, datas: Data[]): Promise<number[]> {
  if (!datas.length) return [];
  const components = new ComponentWriter(db, model, ct, rowWriter(db, model));
  const written = await createComponentRows(components, ct, datas);
  const ids = await insertRows(db, ct, datas.map((d) => withTimestamps(ct, withDefaults(ct, d), true)));
  await createLinks(db, ct, ids, datas, components, written);
  return ids;
}

export async function insertEntity(db: Executor, model: Model, ct: ContentType, data: Data): Promise<number> {
  return (await insertEntities(db, model, ct, [data]))[0];
}

export async function updateEntity(db: Executor, model: Model, ct: ContentType, id: number, data: Data): Promise<void> {
  // every link table the update changes, in one lock before the first change (write-relations.ts lockLinkTables)
  await lockLinkTables(db, changedLinkTables(Object.keys(data).filter((name) => data[name] !== undefined).map((name) => ct.attributes[name]).filter((a) => a !== undefined)));
  const components = new ComponentWriter(db, model, ct, rowWriter(db, model));
  const written = await updateComponentRows(components, ct, data, id);
  const { cols, vals } = scalarAssignments(db, ct, withTimestamps(ct, data, false));
  if (cols.length) {
    await db.run(`UPDATE ${q(db, ct.collectionName)} SET ${cols.map((c, i) => `${c} = ${db.dialect.placeholder(i + 1)}`).join(', ')} WHERE id = ${db.dialect.placeholder(cols.length + 1)}`, [...vals, id]);
  }
  await updateLinks(db, ct, id, data, components, written);
}

/**
 * The same `data` written to every entity of `ids`: scalars in one UPDATE; relations and components, whose
 * update semantics are per entity, entity by entity.
 */
export async function updateEntities(db: Executor, model: Model, ct: ContentType, ids: number[], data: Data): Promise<void> {
  if (!ids.length) return;
  const perEntity = Object.keys(data).some((name) => data[name] !== undefined && ct.attributes[name] !== undefined && ct.attributes[name].kind !== 'scalar');
  if (perEntity) {
    for (const id of ids) await updateEntity(db, model, ct, id, data);
    return;
  }
  const { cols, vals } = scalarAssignments(db, ct, withTimestamps(ct, data, false));
  if (!cols.length) return;
  const set = cols.map((c, i) => `${c} = ${db.dialect.placeholder(i + 1)}`).join(', ');
  await db.run(`UPDATE ${q(db, ct.collectionName)} SET ${set} WHERE ${db.dialect.inList('id', db.dialect.placeholder(cols.length + 1))}`, [...vals, db.dialect.listValue(ids)]);
}

export async function deleteEntity(db: Executor, model: Model, ct: ContentType, id: number): Promise<void> {
  await deleteEntities(db, model, ct, [id]);
}

/** rows with their components and media links (link tables go by foreign-key cascade) */
export async function deleteEntities(db: Executor, model: Model, ct: ContentType, ids: number[]): Promise<void> {
  if (!ids.length) return;
  // the cascade removes link rows of other entities' lists too: the tables' turn first (lockLinkTables)
  await lockLinkTables(db, linkTablesOf(model, ct));
  await deleteOwned(db, model, ct, ids);
  await db.run(`DELETE FROM ${q(db, ct.collectionName)} WHERE ${db.dialect.inList('id', '?')}`, [db.dialect.listValue(ids)]);
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
