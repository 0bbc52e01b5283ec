// The shapes of entity results every door reads: entry-level meta (i18n's `availableLocales`), set on a
// result entity by the content layer and written by each door in its own shape (REST: `meta` beside
// `attributes`), and populated counts.

/** the key such meta is set under on an entity; a symbol, so it is never an attribute */
export const ENTRY_META = Symbol('tessera.entryMeta');

/** a populated `count` (`{ count: n }`) rather than an entry */
export function isCount(value: unknown): value is { count: number } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'count' in value && !('id' in value);
}
