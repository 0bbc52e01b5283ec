// How deeply the JSON a client sends may nest objects and arrays (config/api.js `rest.maxJsonDepth`). Deeper
// input is refused before recursive code meets it (JSON.stringify, String() of an array, validation; SQLite's
// JSON functions stop at 1000 levels): a value nested 5,000 levels was a 500, in v4 too. Both checks are
// loops with their own bookkeeping, so checking any depth is safe.

export const DEFAULT_MAX_JSON_DEPTH = 64;

/** config/api.js `rest.maxJsonDepth` (a positive integer; anything else keeps the default) */
export function maxJsonDepth(get: (key: string) => unknown): number {
  const v = Number(get('api.rest.maxJsonDepth') ?? DEFAULT_MAX_JSON_DEPTH);
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_MAX_JSON_DEPTH;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** JSON text whose objects and arrays nest deeper than `max` (strings are skipped; the text need not be valid) */
export function jsonTextTooDeep(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // to the closing quote: the next one after an even run of backslashes (each run is read once: linear)
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return false;
        let k = end - 1;
        while (text.charCodeAt(k) === BACKSLASH) k--;
        if ((end - 1 - k) % 2 === 0) break;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** a value whose objects and arrays nest deeper than `max` (`[1]` is 1 level; shared and cyclic parts end too) */
export function jsonValueTooDeep(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // the deepest level each object was reached at: a part shared by several parents is walked again only deeper
  const reached = new Map<object, number>();
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    if ((reached.get(v) ?? 0) >= depth) continue;
    reached.set(v, depth);
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

export function tooDeepMessage(what: string, max: number): string {
  return `${what} must not nest objects and arrays more than ${max} levels deep`;
}
