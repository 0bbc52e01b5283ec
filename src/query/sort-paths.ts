// The one sort normaliser: every form v4 takes for a sort ('a:desc,b.c', ['a:desc'], { a: 'desc' },
// { author: { name: 'asc' } }, lists of those, nested lists flattened as v4's convertSortQueryParams does)
// -> (path, direction) pairs. Request parameters (query/parse-sort.ts, the entity service) read it with
// v4's rules and messages; the storage layer (storage/compile-order.ts) reads `orderBy` as v4's query
// engine does, leniently. No imports: each caller says what a mistake throws.

export interface SortPath {
  path: string[];
  direction: 'asc' | 'desc';
}

export interface SortReading {
  /**
   * v4's convertSortQueryParams: an empty field, or a value that is neither an object nor a direction, is a
   * mistake. Lenient (storage orderBy): an empty field is skipped, a direction other than `desc` is ascending,
   * and an object's value may be a list.
   */
  strict: boolean;
  /** what a mistake throws */
  fail(message: string): Error;
}

const INVALID_STRICT = 'Invalid sort parameter. Expected a string, an array of strings, a sort object or an array of sort objects';

function direction(raw: unknown, r: SortReading): 'asc' | 'desc' {
  if (r.strict) {
    const d = String(raw).toLocaleLowerCase();
    if (d !== 'asc' && d !== 'desc') throw r.fail('Invalid order. order can only be one of asc|desc|ASC|DESC');
    return d;
  }
  // v4's query engine hands the direction to knex, which sorts ascending unless it reads `desc`
  return String(raw ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
}

function fromString(s: string, prefix: string[], out: SortPath[], r: SortReading): void {
  for (const raw of s.split(',')) {
    const part = raw.trim();
    if (!part) continue;
    const [field, order] = part.split(':');
    if (!field) {
      if (r.strict) throw r.fail('Field cannot be empty');
      continue;
    }
    out.push({ path: [...prefix, ...field.split('.')], direction: direction(r.strict ? order ?? 'asc' : order, r) });
  }
}

function collect(o: unknown, prefix: string[], out: SortPath[], r: SortReading): void {
  if (typeof o === 'string') return fromString(o, prefix, out, r);
  if (Array.isArray(o)) {
    for (const x of o) collect(x, prefix, out, r);
    return;
  }
  if (typeof o !== 'object' || o === null) throw r.fail(r.strict ? INVALID_STRICT : 'Invalid orderBy');
  for (const [key, v] of Object.entries(o)) {
    const path = [...prefix, key];
    if (typeof v === 'object' && v !== null && (!r.strict || !Array.isArray(v))) collect(v, path, out, r);
    else if (typeof v === 'string' || !r.strict) out.push({ path, direction: direction(v, r) });
    else throw r.fail(`Invalid sort type expected object or string got ${v === null ? 'null' : typeof v}`);
  }
}

/** a sort in any accepted form -> its paths with a direction, in order (none for an empty sort) */
export function sortPaths(sort: unknown, r: SortReading): SortPath[] {
  const out: SortPath[] = [];
  if (sort !== undefined && sort !== null && sort !== '') collect(sort, [], out, r);
  return out;
}

/** one path in the storage layer's nested object form: ['author', 'name'] desc -> { author: { name: 'desc' } } */
export function nestedSort({ path, direction: dir }: SortPath): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((acc, key, i) => (i === path.length - 1 ? { [key]: dir } : { [key]: acc }), {});
}
