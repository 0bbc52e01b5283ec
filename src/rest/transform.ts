// Flat entities -> v4's REST shape: entries are `{ id, attributes }`, relations and media `{ data }`,
// components and dynamic-zone items flat (their own relations wrapped again).
import type { ContentType, Model } from '../model/types';
import type { Entity } from '../query/types';
import { ENTRY_META, isCount } from '../content/entry-meta';

export type Entry = { id: number; attributes: Record<string, unknown>; meta?: Record<string, unknown> };



function wrapRelation(model: Model, target: ContentType | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return { data: null };
  if (Array.isArray(value)) return { data: value.map((e) => toEntry(model, target, e as Entity)) };
  if (isCount(value)) return { data: { attributes: { count: value.count } } };
  return { data: toEntry(model, target, value as Entity) };
}

function fieldsOf(model: Model, ct: ContentType | undefined, entity: Entity): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in entity) {
    if (key === 'id') continue;
    const value = entity[key];
    const attr = ct?.attributes[key];
    if (!attr || attr.kind === 'scalar') {
      out[key] = value;
      continue;
    }
    switch (attr.kind) {
      case 'relation':
        // a file's `related` (morph): v4 returns the items as read, `{ __type, id, ... }`, unwrapped
        out[key] = attr.relation.startsWith('morph') ? value : wrapRelation(model, model.get(attr.target), value);
        break;
      case 'media':
        // v4 answers `data: null` for a multiple media field without files (not `[]`)
        out[key] = Array.isArray(value) && value.length === 0 ? { data: null } : wrapRelation(model, model.get('plugin::upload.file'), value);
        break;
      case 'component': {
        const comp = model.get(attr.component);
        if (isCount(value)) out[key] = { count: value.count }; // a counted component stays flat: `{ count }`
        else out[key] = Array.isArray(value) ? value.map((c) => toFlat(model, comp, c as Entity)) : value === null ? null : toFlat(model, comp, value as Entity);
        break;
      }
      case 'dynamiczone':
        out[key] = Array.isArray(value) ? value.map((c) => toFlat(model, model.get(String((c as Entity).__component)), c as Entity)) : value;
        break;
    }
  }
  return out;
}

function toFlat(model: Model, ct: ContentType | undefined, entity: Entity): Record<string, unknown> {
  return { id: entity.id, ...fieldsOf(model, ct, entity) };
}

export function toEntry(model: Model, ct: ContentType | undefined, entity: Entity): Entry {
  const meta = (entity as { [ENTRY_META]?: Record<string, unknown> })[ENTRY_META];
  return meta ? { id: entity.id, attributes: fieldsOf(model, ct, entity), meta } : { id: entity.id, attributes: fieldsOf(model, ct, entity) };
}

export function transformResponse(model: Model, ct: ContentType, data: Entity | Entity[] | null, meta: Record<string, unknown> = {}) {
  if (data === null) return { data: null, meta };
  return { data: Array.isArray(data) ? data.map((e) => toEntry(model, ct, e)) : toEntry(model, ct, data), meta };
}
