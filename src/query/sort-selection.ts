// v4 answers a level's sort attributes even when `fields` leaves them out, but only where that level's SQL
// has joins: its query builder then selects DISTINCT rows and puts the ORDER BY columns into the select list
// first (verified on 4.26.2, test/golden/sort-fields.*). A level has joins when its filters reach through a
// relation, component or media attribute, when a sort path does, and always for a populated relation,
// component or media level (loaded through its link table); a populated dynamic-zone component has none.
import type { ContentType } from '../model/types';
import type { OrderBy, Where } from './types';
import { attributeNamed } from './parse-fields';

/** whether filters on `ct` reach another table (v4 joins it) */
export function whereJoins(ct: ContentType, where: Where | undefined): boolean {
  if (!where) return false;
  for (const [key, value] of Object.entries(where)) {
    if (key === '$and' || key === '$or') {
      if (Array.isArray(value) && value.some((w) => isWhere(w) && whereJoins(ct, w))) return true;
    } else if (key === '$not') {
      if (isWhere(value) && whereJoins(ct, value)) return true;
    } else if (!key.startsWith('$')) {
      const attr = attributeNamed(ct, key);
      if (attr && attr.kind !== 'scalar') return true;
    }
  }
  return false;
}

/** whether a sort path leaves the level (a relation or component attribute's field) */
export function orderByJoins(orderBy: OrderBy | undefined): boolean {
  return sortItems(orderBy).some((item) => Object.values(item).some((dir) => typeof dir !== 'string'));
}

/**
 * `select` with the level's own sort attributes in front, as v4's DISTINCT select has them; unchanged when
 * the level has no joins, no sort, or selects everything anyway.
 */
export function selectWithSortAttributes(ct: ContentType, select: string[] | undefined, orderBy: OrderBy | undefined, joined: boolean): string[] | undefined {
  if (!select || !joined || !orderBy) return select;
  const front: string[] = [];
  for (const item of sortItems(orderBy)) {
    for (const [key, dir] of Object.entries(item)) {
      if (typeof dir !== 'string') continue;
      const attr = attributeNamed(ct, key);
      if (attr?.kind === 'scalar' && !select.includes(attr.name) && !front.includes(attr.name)) front.push(attr.name);
    }
  }
  return front.length ? [...front, ...select] : select;
}

function sortItems(orderBy: OrderBy | undefined): Array<Record<string, unknown>> {
  if (!orderBy) return [];
  const items = Array.isArray(orderBy) ? orderBy : [orderBy];
  return items.map((item) => (typeof item === 'string' ? { [item]: 'asc' } : item));
}

function isWhere(v: unknown): v is Where {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
