// What of a model the Content API may see: never private attributes, passwords, or createdBy/updatedBy.
// Project code (v4's core services, entity service and query engine) is trusted and sees everything, as in v4;
// what it hands to the Content API is sanitized by the core controller (content/sanitize-output.ts).
import type { Attribute, ContentType } from '../model/types';

export interface Visibility {
  /** attribute names from config/api.js `responses.privateAttributes`, private on every model */
  globalPrivate: ReadonlySet<string>;
  /** project code: private attributes are visible and passwords readable (v4's services do not sanitize) */
  trusted?: boolean;
}

export function isVisible(attr: Attribute, vis: Visibility): boolean {
  return vis.trusted === true || (!attr.private && !vis.globalPrivate.has(attr.name));
}

const scalarCache = new WeakMap<ContentType, string[]>();
const trustedScalarCache = new WeakMap<ContentType, string[]>();

/** Visible scalar attribute names: the default `fields` of a read (for trusted code: every scalar). */
export function visibleScalars(ct: ContentType, vis: Visibility): string[] {
  const cache = vis.trusted ? trustedScalarCache : scalarCache;
  let names = cache.get(ct);
  if (!names) {
    names = Object.values(ct.attributes).filter((a) => a.kind === 'scalar' && isVisible(a, vis)).map((a) => a.name);
    cache.set(ct, names);
  }
  return names;
}

export function isRelational(attr: Attribute): boolean {
  return attr.kind !== 'scalar';
}

const CREATOR_FIELDS = new Set(['createdBy', 'updatedBy']);

/**
 * v4: createdBy/updatedBy of a content type whose schema sets `options.populateCreatorFields` are public
 * (not private) and skip the check that the caller may read their target (admin::user, which the Content API
 * never may): populate, filters and sort may name them. The admin user's own private attributes stay hidden.
 */
export function isShownCreator(ct: ContentType, attr: Attribute): boolean {
  return attr.kind === 'relation' && CREATOR_FIELDS.has(attr.name) && ct.schema.options?.populateCreatorFields === true;
}
