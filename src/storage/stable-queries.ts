// Statements compiled once per query object. The REST core service keeps one FindParams object per
// query shape (content/core-service.ts) and never changes it; it marks it stable, and the statements
// compiled for it and for everything inside it (its `where`, its populate nodes) are kept with it in a
// WeakMap, so a repeated request only binds values and runs. Objects from project code (`strapi.query`
// params a caller may change between calls) are never marked: they are compiled on every call.

const stable = new WeakSet<object>();
const compiled = new WeakMap<object, Map<string, unknown>>();

/** The caller promises never to change `params`, nor anything inside it. */
export function markStable<T extends object>(params: T): T {
  stable.add(params);
  for (const part of [(params as { where?: unknown }).where, (params as { populate?: unknown }).populate]) {
    if (part && typeof part === 'object') stable.add(part);
  }
  return params;
}

export function isStable(o: unknown): boolean {
  return typeof o === 'object' && o !== null && stable.has(o);
}

/**
 * `compile()`, kept under (`owner`, `key`) when `owner` is stable (or lies inside a stable query:
 * `inside`). The key names everything else the result depends on (content type, attribute, dialect).
 */
export function compileOnce<T>(owner: object | undefined, key: string, inside: boolean, compile: () => T): T {
  if (!owner || !(inside || stable.has(owner))) return compile();
  let byKey = compiled.get(owner);
  if (!byKey) compiled.set(owner, (byKey = new Map()));
  let hit = byKey.get(key) as T | undefined;
  if (hit === undefined) byKey.set(key, (hit = compile()));
  return hit;
}
