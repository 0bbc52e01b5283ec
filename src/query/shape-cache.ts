// Work done once per query shape: a request whose query parameters (and caller) were seen before reuses
// what was derived from them (the validated query, the storage params, the compiled statements), so a
// repeated request only binds, runs and writes. Keys are the parameters themselves, values included.

/** Distinct keys kept per cache; beyond it the oldest half goes (a client sending endless variants only evicts). */
const DEFAULT_MAX = 256;

/** A bounded map: insertion order is age, a hit does not refresh (cheap, and enough for a working set). */
export class ShapeCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max = DEFAULT_MAX) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, value: V): V {
    if (this.map.size >= this.max) {
      let drop = this.map.size / 2;
      for (const k of this.map.keys()) {
        if (drop-- <= 0) break;
        this.map.delete(k);
      }
    }
    this.map.set(key, value);
    return value;
  }
  get size(): number {
    return this.map.size;
  }
}

/** keys longer than this are not cached (each would hold its text in memory) */
const MAX_KEY_LENGTH = 4096;

/**
 * A text that identifies a parsed query object exactly, or null when it holds something other than
 * strings, finite numbers, booleans, null, arrays and plain objects (then it is not cached: a Date or
 * an instance set by project code could stand for a different query than its JSON text). Types are kept
 * apart (`1` and `'1'` differ), and so are key orders, which some parameters depend on.
 */
export function shapeKey(value: unknown): string | null {
  const parts: string[] = [];
  let length = 0;
  const walk = (v: unknown): boolean => {
    if (length > MAX_KEY_LENGTH) return false;
    if (v === null) return add('N');
    switch (typeof v) {
      case 'string':
        return add(JSON.stringify(v));
      case 'number':
        return Number.isFinite(v) && add(`#${v}`);
      case 'boolean':
        return add(v ? 'T' : 'F');
      case 'undefined':
        return add('U');
      case 'object': {
        if (Array.isArray(v)) {
          add('[');
          for (const x of v) if (!walk(x) || !add(',')) return false;
          return add(']');
        }
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) return false;
        add('{');
        for (const k of Object.keys(v)) if (!add(JSON.stringify(k)) || !add(':') || !walk((v as Record<string, unknown>)[k]) || !add(',')) return false;
        return add('}');
      }
      default:
        return false;
    }
  };
  const add = (s: string): boolean => {
    parts.push(s);
    length += s.length;
    return true;
  };
  return walk(value) && length <= MAX_KEY_LENGTH ? parts.join('') : null;
}
