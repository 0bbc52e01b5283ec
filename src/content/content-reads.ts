// The read entry below the doors for one content type: a door's v4 parameters become a validated query
// (query/parse-query.ts), kept per (caller, action, parameters) while only core code sees it, and the core
// service answers it, written by SQLite as JSON where the JSON target applies (storage/read-json.ts). A
// door keeps only its wire format: REST's core controller wraps the JSON texts in v4's envelope.
import type { ContentType } from '../model/types';
import { ShapeCache, shapeKey } from '../query/shape-cache';
import { parseRestQuery, type QueryContext, type RestQuery } from '../query/parse-query';
import { markStable } from '../storage/stable-queries';
import type { CoreService, JsonPage } from './core-service';

export interface ContentReads {
  /**
   * `raw` validated for `caller` (what it may read: its Ability; undefined: no authentication), the same
   * object for the same (caller, action, parameters): only for the core service, which never changes it
   * (a project's service must get a fresh one from parseRestQuery). `context` is called on a miss only.
   */
  sharedQuery(context: () => QueryContext, caller: object | undefined, raw: Record<string, unknown>, action: 'find' | 'findOne'): RestQuery;
  /** the JSON read target, when it is on for this type */
  json?: JsonReads;
}

/** The core service's JSON reads (core-service.ts `findJson`, `findOneJson`). */
export interface JsonReads {
  /** `find` as the entries' JSON texts; null where the JavaScript path answers */
  find(q: RestQuery): Promise<JsonPage | null>;
  /** `findOne` as JSON text: null when there is no such entry, undefined where the JavaScript path answers */
  findOne(id: number, q: RestQuery): Promise<string | null | undefined>;
}

/** parse results depend on the caller only through what it may read, i.e. its Ability */
const ANONYMOUS = {};

/** `json`: the JSON read target is on for this type (config/api.js `rest.jsonReads`, collection types) */
export function createContentReads(core: Pick<CoreService, 'findJson' | 'findOneJson'>, ct: ContentType, json: boolean): ContentReads {
  const parsed = new WeakMap<object, ShapeCache<RestQuery>>();
  return {
    sharedQuery(context, caller, raw, action) {
      const key = shapeKey(raw);
      if (key === null) return parseRestQuery(context(), ct, raw, action);
      const owner = caller ?? ANONYMOUS;
      let cache = parsed.get(owner);
      if (!cache) parsed.set(owner, (cache = new ShapeCache()));
      const k = `${action}${key}`;
      return cache.get(k) ?? cache.set(k, markStable(parseRestQuery(context(), ct, raw, action)));
    },
    json: json ? { find: (q) => core.findJson(q), findOne: (id, q) => core.findOneJson(id, q) } : undefined,
  };
}
