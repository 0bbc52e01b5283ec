// What of a model the Content API may see: never private attributes, passwords, or createdBy/updatedBy.
import type { Attribute, ContentType } from '../model/types';

export interface Visibility {
  /** attribute names from config/api.js `responses.privateAttributes`, private on every model */
  globalPrivate: ReadonlySet<string>;
}

export function isVisible(attr: Attribute, vis: Visibility): boolean {
  return !attr.private && !vis.globalPrivate.has(attr.name);
}

const scalarCache = new WeakMap<ContentType, string[]>();

/** Visible scalar attribute names: the default `fields` of a read. */
export function visibleScalars(ct: ContentType, vis: Visibility): string[] {
  let names = scalarCache.get(ct);
  if (!names) {
    names = Object.values(ct.attributes).filter((a) => a.kind === 'scalar' && isVisible(a, vis)).map((a) => a.name);
    scalarCache.set(ct, names);
  }
  return names;
}

export function isRelational(attr: Attribute): boolean {
  return attr.kind !== 'scalar';
}
