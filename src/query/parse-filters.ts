// `filters` -> a storage where tree: keys checked against the model, values cast by attribute type.
import type { ContentType, ScalarAttribute } from '../model/types';
import { ValidationError } from '../errors';
import { OPERATOR_SET, type Where } from './types';
import { castFilterValue } from './cast-filter-value';
import { asList, invalid, isObject, MAX_FILTER_DEPTH, readableAttribute, relationTarget, type QueryContext } from './query-context';

export function parseFilters(ctx: QueryContext, ct: ContentType, filters: unknown, depth = 0): Where | undefined {
  if (filters === undefined || filters === null || filters === '') return undefined;
  if (depth > MAX_FILTER_DEPTH) throw new ValidationError('Filters are nested too deeply');
  if (Array.isArray(filters)) return { $and: filters.map((f) => parseFilters(ctx, ct, f, depth + 1) ?? {}) };
  if (!isObject(filters)) invalid('filters');
  const out: Where = {};
  for (const [key, value] of Object.entries(filters)) {
    if (key === '$and' || key === '$or') {
      out[key] = asList(value).map((f) => parseFilters(ctx, ct, f, depth + 1) ?? {});
    } else if (key === '$not') {
      out[key] = parseFilters(ctx, ct, value, depth + 1) ?? {};
    } else if (key.startsWith('$')) {
      continue; // v4 drops unknown operators at this level
    } else if (key === 'id') {
      out.id = parseScalarFilter(ID, value, depth);
    } else {
      const attr = readableAttribute(ctx, ct, key);
      if (attr.kind === 'scalar') out[key] = parseScalarFilter(attr, value, depth);
      else if (attr.kind === 'dynamiczone' || (attr.kind === 'relation' && attr.relation.startsWith('morph'))) invalid(key);
      else {
        const target = relationTarget(ctx.model, attr)!;
        out[key] = isObject(value) && !Object.keys(value).every((k) => OPERATOR_SET.has(k))
          ? parseFilters(ctx, target, value, depth + 1) ?? {}
          : parseScalarFilter(ID, value, depth); // `filters[author]=3`, `filters[author][$null]=true`
      }
    }
  }
  return out;
}

const ID: ScalarAttribute = {
  kind: 'scalar', name: 'id', type: 'integer', column: 'id', unique: true, private: false, required: false,
  writable: false, localized: true, raw: { type: 'integer' },
};

function parseScalarFilter(attr: ScalarAttribute, value: unknown, depth: number): unknown {
  if (depth > MAX_FILTER_DEPTH) throw new ValidationError('Filters are nested too deeply');
  if (Array.isArray(value)) return { $in: value.map((v) => castFilterValue(attr, '$eq', v)) };
  if (!isObject(value)) return castFilterValue(attr, '$eq', value);
  const out: Record<string, unknown> = {};
  for (const [op, v] of Object.entries(value)) {
    if (op === '$not') out.$not = parseScalarFilter(attr, v, depth + 1);
    else if (op === '$and' || op === '$or') out[op] = asList(v).map((x) => parseScalarFilter(attr, x, depth + 1));
    else if (!OPERATOR_SET.has(op)) continue; // v4 silently drops unknown operators
    else if (op === '$in' || op === '$notIn') out[op] = asList(v).map((x) => castFilterValue(attr, op, x));
    else if (op === '$between') {
      const pair = asList(v);
      if (pair.length !== 2) throw new ValidationError(`$between needs two values for ${attr.name}`);
      out[op] = pair.map((x) => castFilterValue(attr, op, x));
    } else out[op] = castFilterValue(attr, op, v);
  }
  return out;
}
