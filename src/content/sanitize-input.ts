// v4's `sanitize.contentAPI.input(data, schema, { auth })` (@strapi/utils 4.26.2), what the core controllers'
// `sanitizeInput` runs on a request's `data` before every create and update: the entry's own `id` and its
// non-writable attributes (timestamps, createdBy/updatedBy, `writable: false`) go, and so does every
// relation whose target the caller may not `find`, in whatever form it is given (id, list, `{ id }`,
// connect/disconnect/set) and wherever it sits (components, dynamic-zone items, nested relation values).
// Silently, as in v4: the rest of the entry is written, and ids of such a type are never looked up (so a
// 400 for an unknown id cannot tell the caller which ids exist). Project code calling the services is
// trusted and never comes through here.
import type { ContentType, Model } from '../model/types';

/** may the caller `find` entries of this type (v4 asks `strapi.auth.verify(auth, { scope: '<uid>.find' })`) */
export type CanFind = (uid: string) => boolean;

type Data = Record<string, unknown>;

const FILE_UID = 'plugin::upload.file';
const CREATOR_FIELDS = new Set(['createdBy', 'updatedBy']);

const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null;

export function sanitizeInput(model: Model, ct: ContentType, data: unknown, canFind: CanFind): unknown {
  if (Array.isArray(data)) return data.map((entry) => sanitizeInput(model, ct, entry, canFind));
  if (!isObject(data)) return data;
  const top: Data = { ...data };
  delete top.id;
  // v4 matches the non-writable names against the full attribute path: only the entry's own level
  for (const key of Object.keys(top)) if (Object.hasOwn(ct.attributes, key) && !ct.attributes[key].writable) delete top[key];
  return removeRestrictedRelations(model, ct, top, canFind);
}

/**
 * v4's `removeRestrictedRelations` visitor over `traverseEntity`: the relations of `data` (an entry or
 * component of type `ct`) and of everything below it that the caller may not `find`, left out. A copy.
 */
export function removeRestrictedRelations(model: Model, ct: ContentType, data: unknown, canFind: CanFind): unknown {
  if (!isObject(data) || Array.isArray(data)) return data;
  const out: Data = { ...data };
  for (const key of Object.keys(out)) {
    if (!Object.hasOwn(ct.attributes, key)) continue;
    const attr = ct.attributes[key];
    if (attr.kind === 'relation') {
      if (attr.relation.startsWith('morphTo')) {
        // polymorphic: each `{ __type, id }` element on its own, also inside connect/set/disconnect; any
        // other value keeps nothing (v4's handleMorphElements)
        const value = out[key];
        const readable = (els: unknown): unknown[] => (Array.isArray(els) ? els.filter((el) => isObject(el) && typeof el.__type === 'string' && canFind(el.__type)) : []);
        if (isObject(value) && !Array.isArray(value) && ('connect' in value || 'set' in value || 'disconnect' in value)) {
          const ops: Data = {};
          for (const op of ['connect', 'set', 'disconnect'] as const) if (op in value) ops[op] = readable(value[op]);
          out[key] = ops;
          continue;
        }
        const kept = readable(value);
        if (kept.length === 0) delete out[key];
        else out[key] = kept;
      } else if (!(CREATOR_FIELDS.has(key) && ct.schema.options?.populateCreatorFields) && !canFind(attr.target)) {
        delete out[key];
        continue;
      }
      if (out[key] == null) continue;
      const morph = attr.relation.startsWith('morph');
      out[key] = mapValue(out[key], (v) => {
        const target = morph ? (isObject(v) && typeof v.__type === 'string' ? model.get(v.__type) : undefined) : model.get(attr.target);
        return target ? removeRestrictedRelations(model, target, v, canFind) : v;
      });
    } else if (attr.kind === 'media') {
      const file = model.get(FILE_UID);
      if (file && out[key] != null) out[key] = mapValue(out[key], (v) => removeRestrictedRelations(model, file, v, canFind));
    } else if (attr.kind === 'component') {
      const component = model.get(attr.component);
      if (component && out[key] != null) out[key] = mapValue(out[key], (v) => removeRestrictedRelations(model, component, v, canFind));
    } else if (attr.kind === 'dynamiczone' && Array.isArray(out[key])) {
      out[key] = (out[key] as unknown[]).map((item) => {
        const component = isObject(item) && typeof item.__component === 'string' ? model.get(item.__component) : undefined;
        return component ? removeRestrictedRelations(model, component, item, canFind) : item;
      });
    }
  }
  return out;
}

/** v4 traverses each element of a list value, else the value itself */
const mapValue = (value: unknown, fn: (v: unknown) => unknown): unknown => (Array.isArray(value) ? value.map(fn) : fn(value));
