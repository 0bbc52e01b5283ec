// What every query-parameter parser shares: the context a request is checked in (model, visibility,
// what the caller may read, pagination settings), the 400 for an invalid key, and the attribute lookups.
import type { Attribute, ContentType, Model } from '../model/types';
import { ValidationError } from '../errors';
import { isVisible, type Visibility } from './visibility';
import type { PaginationConfig } from './pagination';

export interface QueryContext {
  model: Model;
  visibility: Visibility;
  /** may the caller `find` this model (relations in filters, sort and populate) */
  canRead(uid: string): boolean;
  pagination: PaginationConfig;
}

export const MAX_POPULATE_DEPTH = 10;
export const MAX_FILTER_DEPTH = 20;

export function invalid(key: string): never {
  throw new ValidationError(`Invalid parameter ${key}`);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** qs turns long arrays into objects with numeric keys */
export function asList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return Object.values(v);
  return [v];
}

/** the model a relation, media or component attribute points at (none for morphs and dynamic zones) */
export function relationTarget(model: Model, attr: Attribute): ContentType | undefined {
  if (attr.kind === 'relation') return attr.relation.startsWith('morph') ? undefined : model.get(attr.target);
  if (attr.kind === 'media') return model.get('plugin::upload.file');
  if (attr.kind === 'component') return model.get(attr.component);
  return undefined;
}

/** an attribute the caller may name in filters and sort, or the 400 */
export function readableAttribute(ctx: QueryContext, ct: ContentType, key: string): Attribute {
  const attr = ct.attributes[key];
  if (!attr || !isVisible(attr, ctx.visibility)) invalid(key);
  if (attr.kind === 'relation' || attr.kind === 'media') {
    const target = relationTarget(ctx.model, attr);
    if (!target || !ctx.canRead(target.uid)) invalid(key);
  }
  return attr;
}
