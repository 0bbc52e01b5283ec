// Which attributes of a localized type all its locales share, by v4's rule (I18N: getNonLocalizedAttributes,
// copyNonLocalizedAttributes): every visible attribute that is not marked `pluginOptions.i18n.localized: true`,
// except relations and uids, which are always per locale. Note the default: an attribute WITHOUT the option
// is shared (v4's content-type builder writes `localized: true` on every attribute it creates).
import type { ContentType, Model, RawAttribute } from '../../model/types';
import type { Entity } from '../../query/types';

const NEVER_SHARED_NAMES = new Set(['id', 'createdAt', 'updatedAt']);

function isLocalizedAttribute(raw: RawAttribute): boolean {
  const i18n = (raw.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n;
  return i18n?.localized === true || raw.type === 'relation' || raw.type === 'uid';
}

/** v4's list for a schema's attributes (raw, as in schema.json plus the implicit ones) */
export function nonLocalizedNames(attributes: Record<string, RawAttribute>): string[] {
  return Object.entries(attributes)
    .filter(([name, raw]) => !NEVER_SHARED_NAMES.has(name) && raw.visible !== false && !isLocalizedAttribute(raw))
    .map(([name]) => name);
}

const cache = new WeakMap<ContentType, string[]>();

export function nonLocalizedAttributes(ct: ContentType): string[] {
  let names = cache.get(ct);
  if (!names) {
    names = nonLocalizedNames(Object.fromEntries(Object.entries(ct.attributes).map(([n, a]) => [n, a.raw])));
    cache.set(ct, names);
  }
  return names;
}

type Data = Record<string, unknown>;

/** v4's removeIds: a component copied to another entry must be created anew, not moved */
function withoutIds(model: Model, ct: ContentType | undefined, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const { id: _id, ...rest } = value as Data;
  void _id;
  if (!ct) return rest;
  for (const [name, v] of Object.entries(rest)) {
    const attr = ct.attributes[name];
    if (attr?.kind === 'component') rest[name] = Array.isArray(v) ? v.map((c) => withoutIds(model, model.get(attr.component), c)) : withoutIds(model, model.get(attr.component), v);
    else if (attr?.kind === 'dynamiczone' && Array.isArray(v)) rest[name] = v.map((c) => withoutIds(model, model.get(String((c as Data)?.__component)), c));
  }
  return rest;
}

/** a populated media value as write input (ids) */
function mediaInput(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((f) => (f as Entity).id);
  return value === null ? null : (value as Entity).id;
}

/**
 * The shared attributes of `entry` as write input for a sibling locale. Only what the entry carries is
 * copied (as in v4: what the read returned, so `fields`/`populate` of the request decide what syncs).
 */
export function copyNonLocalized(model: Model, ct: ContentType, entry: Data): Data {
  const out: Data = {};
  for (const name of nonLocalizedAttributes(ct)) {
    if (!Object.prototype.hasOwnProperty.call(entry, name) || entry[name] === undefined) continue;
    const attr = ct.attributes[name];
    const value = entry[name];
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'count' in value && !('id' in value)) continue; // a `count` populate
    switch (attr.kind) {
      case 'component':
        out[name] = Array.isArray(value) ? value.map((c) => withoutIds(model, model.get(attr.component), c)) : withoutIds(model, model.get(attr.component), value);
        break;
      case 'dynamiczone':
        out[name] = Array.isArray(value) ? value.map((c) => withoutIds(model, model.get(String((c as Data)?.__component)), c)) : value;
        break;
      case 'media':
        out[name] = mediaInput(value);
        break;
      default:
        out[name] = value;
    }
  }
  return out;
}
