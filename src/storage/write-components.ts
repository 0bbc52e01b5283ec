// Components and dynamic zones of one entity, with v4's update semantics: an item with the `id` of one of the
// entity's current items updates that row, an item without `id` is created, an item left out is deleted with
// everything under it, `null` clears a single component. Links live in `<table>_components`
// (entity_id, component_id, component_type, field, order): repeatable and dynamic-zone items are ordered
// 1..n, a single component has no order (as v4 writes them).
import type { ComponentAttribute, ContentType, DynamicZoneAttribute, Model } from '../model/types';
import { COMPONENT_LINK } from '../model/names';
import type { Executor, SqlValue } from './dialect';
import { batches, valuesList } from './batch-rows';
import { ComponentOwnershipError, WriteError } from './write-errors';

type Data = Record<string, unknown>;
type ComponentField = ComponentAttribute | DynamicZoneAttribute;

export interface ComponentLink {
  cid: number;
  ctype: string;
}

/** What the entity writer provides: creating and updating component rows with everything under them. */
export interface RowWriter {
  /** new rows, their ids in the order of `data` */
  create(ct: ContentType, data: Data[]): Promise<number[]>;
  update(ct: ContentType, id: number, data: Data): Promise<void>;
  deleteRows(ct: ContentType, ids: number[]): Promise<void>;
}

/** one entity's links of one field, as written to `<table>_components` */
export interface FieldLinks {
  entityId: number;
  attr: ComponentField;
  links: ComponentLink[];
}

interface Item {
  uid: string;
  /** the id the client sent (an update), if any */
  id?: string;
  data: Data;
}

/** repeatable and dynamic-zone items have positions; a single component has none (as v4 writes them) */
function isOrdered(attr: ComponentField): boolean {
  return attr.kind === 'dynamiczone' || attr.repeatable;
}

function isObject(v: unknown): v is Data {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function itemsOf(model: Model, attr: ComponentField, value: unknown): Item[] {
  if (value === null || value === undefined) return [];
  const list = attr.kind === 'dynamiczone' || attr.repeatable ? (Array.isArray(value) ? value : []) : [value];
  const out: Item[] = [];
  for (const raw of list) {
    if (!isObject(raw)) continue;
    const uid = attr.kind === 'component' ? attr.component : String(raw.__component);
    if (!model.components.has(uid)) throw new WriteError(`Invalid component ${uid} in ${attr.name}`);
    // a dynamic-zone item must be one of the zone's components (the Content API drops others, with a warning)
    if (attr.kind === 'dynamiczone' && !attr.components.includes(uid)) continue;
    const { id, __component: _c, ...data } = raw;
    void _c;
    out.push({ uid, id: id === undefined || id === null ? undefined : String(id), data });
  }
  return out;
}

export class ComponentWriter {
  private readonly L: string;
  constructor(private readonly db: Executor, private readonly model: Model, ct: ContentType, private readonly rows: RowWriter) {
    this.L = db.dialect.quote(ct.componentsTable);
  }

  /** current links of one field of one entity, in order */
  async links(entityId: number, field: string): Promise<ComponentLink[]> {
    return this.db.all<ComponentLink>(
      `SELECT ${COMPONENT_LINK.component} AS cid, ${COMPONENT_LINK.type} AS ctype FROM ${this.L} WHERE ${COMPONENT_LINK.entity} = ? AND ${COMPONENT_LINK.field} = ? ORDER BY ${this.db.dialect.quote(COMPONENT_LINK.order)}, id`,
      [entityId, field],
    );
  }

  /**
   * create: every item is a new row (an `id` given is ignored, as in v4), for the values of several new
   * entities at once (`undefined`: none). The items of one component type are written together, in their
   * order, so each type's rows are numbered as one entity after the other would number them.
   */
  async create(attr: ComponentField, values: unknown[]): Promise<ComponentLink[][]> {
    const out = values.map(() => [] as ComponentLink[]);
    const byType = new Map<string, Array<{ entity: number; at: number; data: Data }>>();
    values.forEach((value, entity) => {
      itemsOf(this.model, attr, value).forEach((item, at) => {
        const list = byType.get(item.uid);
        if (list) list.push({ entity, at, data: item.data });
        else byType.set(item.uid, [{ entity, at, data: item.data }]);
      });
    });
    for (const [uid, items] of byType) {
      const ids = await this.rows.create(this.model.require(uid), items.map((i) => i.data));
      items.forEach((i, n) => (out[i.entity][i.at] = { cid: ids[n], ctype: uid }));
    }
    return out;
  }

  /** update: ids must be the entity's own items; items left out are deleted first, as v4 does */
  async update(entityId: number, attr: ComponentField, value: unknown): Promise<ComponentLink[]> {
    const previous = await this.links(entityId, attr.name);
    const items = itemsOf(this.model, attr, value);
    const sameItem = (l: ComponentLink, i: Item) => String(l.cid) === i.id && (attr.kind === 'component' || l.ctype === i.uid);
    for (const item of items) {
      if (item.id !== undefined && !previous.some((l) => sameItem(l, item))) throw new ComponentOwnershipError(attr);
    }
    const removed = previous.filter((l) => !items.some((i) => i.id !== undefined && sameItem(l, i)));
    await this.deleteComponents(removed);
    const written: ComponentLink[] = [];
    for (const item of items) {
      const comp = this.model.require(item.uid);
      if (item.id !== undefined) {
        await this.rows.update(comp, Number(item.id), item.data);
        written.push({ cid: Number(item.id), ctype: item.uid });
      } else {
        written.push({ cid: (await this.rows.create(comp, [item.data]))[0], ctype: item.uid });
      }
    }
    return written;
  }

  /**
   * The field's link rows after a write: dynamic zones are rewritten, components keep the rows of kept
   * items (v4 replaces the one and "sets" the other).
   */
  async link(entityId: number, attr: ComponentField, items: ComponentLink[], isCreate: boolean): Promise<void> {
    if (!isCreate && attr.kind === 'dynamiczone') {
      await this.db.run(`DELETE FROM ${this.L} WHERE ${COMPONENT_LINK.entity} = ? AND ${COMPONENT_LINK.field} = ?`, [entityId, attr.name]);
    }
    if (isCreate || attr.kind === 'dynamiczone') return this.insertLinks([{ entityId, attr, links: items }]);
    const ordered = isOrdered(attr);
    const order = this.db.dialect.quote(COMPONENT_LINK.order);
    const placed = items.map((l, i) => ({ ...l, order: ordered ? i + 1 : null }));
    const kept = new Set(items.map((l) => l.cid));
    const existing = await this.links(entityId, attr.name);
    const gone = existing.filter((l) => !kept.has(Number(l.cid))).map((l) => Number(l.cid));
    if (gone.length) {
      await this.db.run(
        `DELETE FROM ${this.L} WHERE ${COMPONENT_LINK.entity} = ? AND ${COMPONENT_LINK.field} = ? AND ${this.db.dialect.inList(COMPONENT_LINK.component, '?')}`,
        [entityId, attr.name, this.db.dialect.listValue(gone)],
      );
    }
    const present = new Set(existing.map((l) => Number(l.cid)));
    // kept items take their new positions, many per statement
    const moved = ordered ? placed.filter((l) => present.has(l.cid)) : [];
    for (const part of batches(moved, 2)) {
      await this.db.run(
        `UPDATE ${this.L} SET ${order} = CASE ${COMPONENT_LINK.component} ${part.map(() => 'WHEN ? THEN ?').join(' ')} ELSE ${order} END WHERE ${COMPONENT_LINK.entity} = ? AND ${COMPONENT_LINK.field} = ? AND ${this.db.dialect.inList(COMPONENT_LINK.component, '?')}`,
        [...part.flatMap((l) => [l.cid, l.order]), entityId, attr.name, this.db.dialect.listValue(part.map((l) => l.cid))],
      );
    }
    await this.insertRows(placed.filter((l) => !present.has(l.cid)).map((l) => [entityId, l.cid, l.ctype, attr.name, l.order]));
  }

  /** the link rows of new entities' fields (repeatable and dynamic-zone items numbered 1..n) */
  async insertLinks(fields: FieldLinks[]): Promise<void> {
    await this.insertRows(fields.flatMap(({ entityId, attr, links }) => links.map((l, i) => [entityId, l.cid, l.ctype, attr.name, isOrdered(attr) ? i + 1 : null])));
  }

  /** `(entity, component, type, field, order)` rows, many per statement */
  private async insertRows(rows: SqlValue[][]): Promise<void> {
    const cols = `${COMPONENT_LINK.entity}, ${COMPONENT_LINK.component}, ${COMPONENT_LINK.type}, ${COMPONENT_LINK.field}, ${this.db.dialect.quote(COMPONENT_LINK.order)}`;
    for (const part of batches(rows, 5)) {
      await this.db.run(`INSERT INTO ${this.L} (${cols}) VALUES ${valuesList(this.db.dialect, part.length, 5)}`, part.flat());
    }
  }

  /** component rows (and everything under them) */
  async deleteComponents(links: ComponentLink[]): Promise<void> {
    const byType = new Map<string, number[]>();
    for (const l of links) byType.set(l.ctype, [...(byType.get(l.ctype) ?? []), Number(l.cid)]);
    for (const [uid, ids] of byType) {
      const comp = this.model.get(uid);
      if (comp) await this.rows.deleteRows(comp, ids);
    }
  }
}
