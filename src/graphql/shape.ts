// Entities -> what GraphQL's types read: v4's `{ id, attributes }` entries (content/entry-shape.ts), and
// `meta.pagination` as v4's GraphQL computes it for either pagination mode.
import type { ContentType, Model } from '../model/types';
import type { Entity } from '../query/types';
import type { Pagination } from '../query/pagination';
import { toEntry, type Entry, type ShapeHook } from '../content/entry-shape';

/** the entity an attributes object was made from (a content type's entry; components have none) */
export const OWNER = Symbol('tessera.graphqlOwner');
export interface Owner {
  uid: string;
  id: number;
}

const markOwner: ShapeHook = (shaped, ct, entity) => {
  if (ct && ct.kind !== 'component') (shaped as Record<symbol, Owner>)[OWNER] = { uid: ct.uid, id: entity.id };
};

/** `owners`: mark attributes objects with their entity (only when some relation is loaded after the read) */
export function entryOf(model: Model, ct: ContentType, entity: Entity, owners: boolean): Entry {
  return toEntry(model, ct, entity, owners ? markOwner : undefined);
}

/**
 * v4's GraphQL `meta.pagination` (total, page, pageSize, pageCount in both modes): offset mode reports the
 * page the window starts on; without a limit (-1) everything from `start` is one page.
 */
export function paginationOf(p: Pagination, total: number): { total: number; page: number; pageSize: number; pageCount: number } {
  if (p.mode === 'page') return { total, page: p.page, pageSize: p.pageSize, pageCount: Math.ceil(total / p.pageSize) };
  if (p.limit === undefined) return { total, page: 1, pageSize: Math.max(0, total - p.start), pageCount: 1 };
  const limit = Math.max(p.limit, 1);
  return { total, page: Math.floor(p.start / limit) + 1, pageSize: limit, pageCount: Math.ceil(total / limit) };
}
