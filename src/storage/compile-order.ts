// v4 orderBy forms -> ORDER BY items. Sorting through a relation uses a correlated subquery (MIN for
// ascending, MAX for descending), so to-many relations never duplicate parent rows. A final `id`
// tie-break makes every page deterministic.
import type { ContentType, Model } from '../model/types';
import type { OrderBy } from '../query/types';
import { sortPaths, type SortReading } from '../query/sort-paths';
import { hopFor } from './hops';
import type { SqlBuilder } from './sql-builder';

export class OrderError extends Error {}

/** storage orderBy as v4's query engine reads it (lenient), through the one sort normaliser */
const ORDER_BY: SortReading = { strict: false, fail: (message) => new OrderError(message) };

export function compileOrderBy(b: SqlBuilder, model: Model, ct: ContentType, alias: string, orderBy: OrderBy | undefined): string {
  const items = sortPaths(orderBy, ORDER_BY);
  const parts: string[] = [];
  let hasId = false;
  for (const item of items) {
    if (item.path.length === 1 && item.path[0] === 'id') hasId = true;
    parts.push(b.dialect.orderItem(sortExpr(b, model, ct, alias, item.path, item.direction), item.direction));
  }
  if (!hasId) parts.push(`${alias}.id ASC`);
  return parts.join(', ');
}

/** the direction of an order by id alone (the default order is by id, ascending); undefined for any other order */
export function idOnlyOrder(orderBy: OrderBy | undefined): 'asc' | 'desc' | undefined {
  const items = sortPaths(orderBy, ORDER_BY);
  if (items.length === 0) return 'asc';
  return items.length === 1 && items[0].path.length === 1 && items[0].path[0] === 'id' ? items[0].direction : undefined;
}

function sortExpr(b: SqlBuilder, model: Model, ct: ContentType, alias: string, path: string[], dir: 'asc' | 'desc'): string {
  const [head, ...rest] = path;
  if (head === 'id' && rest.length === 0) return `${alias}.id`;
  const attr = ct.attributes[head];
  // v4's query engine message (plugin code shows it: strapi-plugin-navigation answers 400 with it)
  if (!attr) throw new OrderError(`Attribute ${head} not found on model ${ct.uid}`);
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
