// v4 orderBy forms -> ORDER BY items. Sorting through a relation uses a correlated subquery (MIN for
// ascending, MAX for descending), so to-many relations never duplicate parent rows. A final `id`
// tie-break makes every page deterministic.
import type { ContentType, Model } from '../model/types';
import type { OrderBy } from '../query/types';
import { hopFor } from './hops';
import type { SqlBuilder } from './sql-builder';

export class OrderError extends Error {}

export interface SortItem {
  path: string[];
  direction: 'asc' | 'desc';
}

function direction(raw: unknown): 'asc' | 'desc' {
  const d = String(raw ?? 'asc').toLowerCase();
  if (d !== 'asc' && d !== 'desc') throw new OrderError(`Invalid order direction ${String(raw)}`);
  return d;
}

/** Every accepted form, flattened to paths with a direction. */
export function normalizeOrderBy(orderBy: OrderBy | undefined): SortItem[] {
  const out: SortItem[] = [];
  if (orderBy !== undefined && orderBy !== null && orderBy !== '') collect(orderBy, [], out);
  return out;
}

function collect(o: unknown, prefix: string[], out: SortItem[]): void {
  if (typeof o === 'string') {
    for (const part of o.split(',')) {
      const [field, dir] = part.trim().split(':');
      if (field) out.push({ path: prefix.length ? [...prefix, ...field.split('.')] : field.split('.'), direction: direction(dir) });
    }
  } else if (Array.isArray(o)) {
    for (const x of o) collect(x, prefix, out);
  } else if (o && typeof o === 'object') {
    for (const [k, v] of Object.entries(o)) {
      if (v && typeof v === 'object') collect(v, [...prefix, k], out);
      else out.push({ path: [...prefix, k], direction: direction(v) });
    }
  } else {
    throw new OrderError('Invalid orderBy');
  }
}

export function compileOrderBy(b: SqlBuilder, model: Model, ct: ContentType, alias: string, orderBy: OrderBy | undefined): string {
  const items = normalizeOrderBy(orderBy);
  const parts: string[] = [];
  let hasId = false;
  for (const item of items) {
    if (item.path.length === 1 && item.path[0] === 'id') hasId = true;
    parts.push(b.dialect.orderItem(sortExpr(b, model, ct, alias, item.path, item.direction), item.direction));
  }
  if (!hasId) parts.push(`${alias}.id ASC`);
  return parts.join(', ');
}

function sortExpr(b: SqlBuilder, model: Model, ct: ContentType, alias: string, path: string[], dir: 'asc' | 'desc'): string {
  const [head, ...rest] = path;
  if (head === 'id' && rest.length === 0) return `${alias}.id`;
  const attr = ct.attributes[head];
  if (!attr) throw new OrderError(`Invalid key ${head}`);
  if (attr.kind === 'scalar') {
    if (rest.length) throw new OrderError(`Invalid key ${head}`);
    return `${alias}.${b.q(attr.column)}`;
  }
  if (rest.length === 0 || attr.kind === 'dynamiczone') throw new OrderError(`Invalid key ${head}`);
  const hop = hopFor(b, model, ct, attr);
  // text order: the inner expression's parameters come before the link's
  const inner = sortExpr(b, model, hop.target, hop.alias, rest, dir);
  const on = hop.on(`${alias}.id`);
  return `(SELECT ${dir === 'desc' ? 'MAX' : 'MIN'}(${inner}) ${hop.from} WHERE ${on})`;
}
