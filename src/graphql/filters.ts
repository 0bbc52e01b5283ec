// A `…FiltersInput` value -> v4's `filters` parameter (what REST reads from `filters[...]`): attribute keys
// stay, operator keys get their `$` (`eq` -> `$eq`, `and` -> `$and`), relations and components recurse into
// their target. The shared parser (query/parse-filters.ts) then checks and casts it exactly as for REST.
import type { ContentType, Model } from '../model/types';
import { relationTarget } from '../query/query-context';

type Filters = Record<string, unknown>;

const isObject = (v: unknown): v is Filters => typeof v === 'object' && v !== null && !Array.isArray(v);

/** the operators of one scalar filter (`StringFilterInput` ...): every key is an operator; `not` nests */
function scalarOperators(value: unknown): unknown {
  if (!isObject(value)) return value;
  const out: Filters = {};
  for (const [op, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[`$${op}`] = op === 'not' ? scalarOperators(v) : v;
  }
  return out;
}

export function toV4Filters(model: Model, ct: ContentType, filters: unknown): Filters | undefined {
  if (!isObject(filters)) return undefined;
  const out: Filters = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (key === 'and' || key === 'or') {
      out[`$${key}`] = Array.isArray(value) ? value.map((v) => toV4Filters(model, ct, v) ?? {}) : value;
      continue;
    }
    if (key === 'not') {
      out.$not = toV4Filters(model, ct, value) ?? {};
      continue;
    }
    const attr = ct.attributes[key];
    const target = attr ? relationTarget(model, attr) : undefined;
    out[key] = target ? (toV4Filters(model, target, value) ?? value) : scalarOperators(value);
  }
  return out;
}
