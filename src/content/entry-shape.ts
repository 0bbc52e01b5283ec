// Flat entities -> v4's response shape, shared by both doors: entries are `{ id, attributes }`, relations and
// media `{ data }`, components and dynamic-zone items flat (their own relations wrapped again). REST sends it
// as is; GraphQL's types are the same shape, so its resolvers read it with default field resolvers.
import type { ContentType, Model } from '../model/types';
import type { Entity } from '../query/types';
import { ENTRY_META, isCount } from './entry-meta';

export type Entry = { id: number; attributes: Record<string, unknown>; meta?: Record<string, unknown> };

/**
 * Called with every attributes object made (an entry's `attributes`, a component's or zone item's flat
 * object) and the entity it came from: GraphQL marks them with their owner to load an aliased relation later.
 */
export type ShapeHook = (shaped: Record<string, unknown>, ct: ContentType | undefined, entity: Entity) => void;

function wrapRelation(model: Model, target: ContentType | undefined, value: unknown, hook?: ShapeHook): unknown {
  if (value === null || value === undefined) return { data: null };
  if (Array.isArray(value)) return { data: value.map((e) => toEntry(model, target, e as Entity, hook)) };
  if (isCount(value)) return { data: { attributes: { count: value.count } } };
  return { data: toEntry(model, target, value as Entity, hook) };
}

function fieldsOf(model: Model, ct: ContentType | undefined, entity: Entity, out: Record<string, unknown>, hook?: ShapeHook): Record<string, unknown> {
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
        out[key] = attr.relation.startsWith('morph') ? value : wrapRelation(model, model.get(attr.target), value, hook);
        break;
      case 'media':
        // v4 answers `data: null` for a multiple media field without files (not `[]`)
        out[key] = Array.isArray(value) && value.length === 0 ? { data: null } : wrapRelation(model, model.get('plugin::upload.file'), value, hook);
        break;
      case 'component': {
        const comp = model.get(attr.component);
        if (isCount(value)) out[key] = { count: value.count }; // a counted component stays flat: `{ count }`
        else out[key] = Array.isArray(value) ? value.map((c) => toFlat(model, comp, c as Entity, hook)) : value === null ? null : toFlat(model, comp, value as Entity, hook);
        break;
      }
      case 'dynamiczone':
        out[key] = Array.isArray(value) ? value.map((c) => toFlat(model, model.get(String((c as Entity).__component)), c as Entity, hook)) : value;
        break;
    }
  }
  hook?.(out, ct, entity);
  return out;
}

function toFlat(model: Model, ct: ContentType | undefined, entity: Entity, hook?: ShapeHook): Record<string, unknown> {
  return fieldsOf(model, ct, entity, { id: entity.id }, hook);
}

export function toEntry(model: Model, ct: ContentType | undefined, entity: Entity, hook?: ShapeHook): Entry {
  const meta = (entity as { [ENTRY_META]?: Record<string, unknown> })[ENTRY_META];
  const attributes = fieldsOf(model, ct, entity, {}, hook);
  return meta ? { id: entity.id, attributes, meta } : { id: entity.id, attributes };
}

export function transformResponse(model: Model, ct: ContentType, data: Entity | Entity[] | null, meta: Record<string, unknown> = {}) {
  if (data === null) return { data: null, meta };
  return { data: Array.isArray(data) ? data.map((e) => toEntry(model, ct, e)) : toEntry(model, ct, data), meta };
}
