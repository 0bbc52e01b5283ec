// `strapi.entityService`: v4's entity service for project code and plugins (flat entities, v4 params:
// filters / sort / fields / populate / pagination / start / limit / publicationState / locale; `data` on
// create and update). Like v4 it does not sanitize (private attributes are returned: callers sanitize),
// validates writes with the content-API validator, hashes `password` attributes with bcrypt, and writes
// in one transaction through the document service.
import { ValidationError } from '../errors';
import type { ContentType, Model } from '../model/types';
import { validateInput } from '../documents/validate-input';
import type { DocumentService } from '../documents/document-service';
import type { LocalizedContent, MediaSigning } from '../content/core-service';
import type { QueryFn } from '../query/query-engine';
import type { Entity, FindParams, OrderBy, Populate, PopulateNode, Where } from '../query/types';
import { hashPasswordAttributes } from '../auth/passwords';
import { localDateOrTime } from '../storage/values';
import { nestedSort, sortPaths } from '../query/sort-paths';
import { SORT_PARAMETER } from '../query/parse-sort';
import { entityServiceFilters } from '../query/entity-filters';
import { withPublicationState } from '../query/publication-state';
import type { ReadShape } from '../storage/hooked-entities';

export type V4Params = Record<string, unknown>;

export interface EntityServiceDeps {
  model: Model;
  query: QueryFn;
  documents: DocumentService;
  /** writes of localized types (i18n: default locale, locale check, sibling sync) */
  localized?: Pick<LocalizedContent, 'create' | 'update'>;
  /** called after every committed write (cache invalidation, as the query engine's write listeners) */
  notifyWrite(uid: string): void;
  /** v4's `entry.*` events after a committed write (webhooks/index.ts) */
  events?: { entry(event: 'entry.create' | 'entry.update' | 'entry.delete', uid: string, entity: unknown): void; wants(event: string): boolean };
  /** called when a password attribute of an existing `uid` entity `id` was changed */
  onPasswordSet?(uid: string, id: number): Promise<void>;
  /** v4's upload decorator: media urls signed in every result when the provider is private */
  media?: MediaSigning;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** v4 `convertSortQueryParams`: 'a:desc,b.c' | ['a:desc'] | { a: 'desc' } | [{ a: 'desc' }] -> orderBy (the storage layer's nested form) */
export function toOrderBy(sort: unknown): OrderBy | undefined {
  const items = sortPaths(sort, SORT_PARAMETER);
  return items.length ? items.map(nestedSort) : undefined;
}

/** v4 `convertFieldsQueryParams`: always with `id`; '*' = every field */
function toSelect(fields: unknown): string[] | undefined {
  if (fields === undefined || fields === null || fields === '*') return undefined;
  const list = (Array.isArray(fields) ? fields : String(fields).split(',')).map((f) => String(f).trim()).filter(Boolean);
  if (!list.length || list.includes('*')) return undefined;
  return [...new Set(['id', ...list])];
}

function toNode(value: unknown): PopulateNode | boolean {
  if (value === true || value === '*' || value === 'true') return true;
  if (value === false || value === 'false') return false;
  if (!isObject(value)) return true;
  const node: PopulateNode = {};
  const select = toSelect(value.fields);
  if (select) node.select = select;
  if (value.filters !== undefined) node.where = value.filters as Where;
  if (value.sort !== undefined) node.orderBy = toOrderBy(value.sort);
  if (value.populate !== undefined) node.populate = toPopulate(value.populate);
  if (value.count === true) node.count = true;
  if (isObject(value.on)) node.on = Object.fromEntries(Object.entries(value.on).map(([k, v]) => [k, toNode(v) === true ? true : toNode(v) as PopulateNode])) as PopulateNode['on'];
  if (typeof value.limit === 'number') node.limit = value.limit;
  if (typeof value.start === 'number') node.offset = value.start;
  return node;
}

/** v4 `convertPopulateQueryParams`: '*' | true | 'a,b.c' | ['a', 'b.c'] | { a: true, b: { fields, populate } } */
export function toPopulate(populate: unknown): Populate | undefined {
  if (populate === undefined || populate === null || populate === false || populate === '') return undefined;
  if (populate === true || populate === '*') return true;
  if (typeof populate === 'string') return populate.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(populate)) return populate.flatMap((p) => (typeof p === 'string' ? p.split(',').map((s) => s.trim()) : [])).filter(Boolean);
  if (!isObject(populate)) throw new ValidationError('Invalid populate parameter');
  const out: Record<string, PopulateNode | boolean> = {};
  for (const [k, v] of Object.entries(populate)) {
    const node = toNode(v);
    if (node !== false) out[k] = node;
  }
  return out;
}

function toNumber(v: unknown, name: string): number {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n)) throw new ValidationError(`Invalid ${name} parameter. Expected an integer`);
  return n;
}

/** v4 `transformParamsToQuery` for one content type (`model`: filters kept as v4 keeps them, query/entity-filters.ts) */
export function toFindParams(ct: ContentType, p: V4Params = {}, model?: Model): FindParams {
  const out: FindParams = {};
  const select = toSelect(p.fields);
  if (select) out.select = select;
  const filters = p.filters === undefined || p.filters === null ? undefined : model ? entityServiceFilters(model, ct, p.filters) : p.filters;
  let where = filters as Where | undefined;
  if (ct.draftAndPublish && p.publicationState === 'live') where = { $and: [where ?? {}, { publishedAt: { $notNull: true } }] };
  if (ct.localized && typeof p.locale === 'string' && p.locale !== 'all') where = { $and: [where ?? {}, { locale: p.locale }] };
  if (where) out.where = where;
  const orderBy = toOrderBy(p.sort);
  if (orderBy) out.orderBy = orderBy;
  const populate = toPopulate(p.populate);
  if (populate) out.populate = populate;
  const pg = isObject(p.pagination) ? p.pagination : undefined;
  if (pg && (pg.page !== undefined || pg.pageSize !== undefined)) {
    const page = pg.page === undefined ? 1 : toNumber(pg.page, 'page');
    const pageSize = pg.pageSize === undefined ? 10 : toNumber(pg.pageSize, 'pageSize');
    out.limit = Math.max(pageSize, 0);
    out.offset = Math.max(page - 1, 0) * out.limit;
  } else {
    const start = pg?.start ?? p.start;
    const limit = pg?.limit ?? p.limit;
    if (start !== undefined) out.offset = Math.max(toNumber(start, 'start'), 0);
    if (limit !== undefined && toNumber(limit, 'limit') >= 0) out.limit = toNumber(limit, 'limit');
  }
  return out;
}

/**
 * A live findMany or findPage: v4 hands its publication filter to every populated relation (drafts left out
 * at any depth). The read takes the populate with that filter; lifecycle hooks see it as given
 * (storage/hooked-entities.ts), and one they put in is read with the filter too.
 */
function liveRead(model: Model, ct: ContentType, p: V4Params, find: FindParams): [FindParams, ReadShape | undefined] {
  if (p.publicationState !== 'live' || !find.populate) return [find, undefined];
  const scopePopulate = (populate: Populate) => withPublicationState(model, ct, populate, 'live');
  const read = { ...find, populate: scopePopulate(find.populate) };
  return [read, { select: read.select, populate: read.populate, hookPopulate: find.populate, scopePopulate, prune: false }];
}

function readParams(p: V4Params = {}): Pick<FindParams, 'select' | 'populate'> {
  return { select: toSelect(p.fields), populate: toPopulate(p.populate) };
}

/**
 * Project code passes Date objects (`publishedAt: new Date()`), which v4's database fields accept: as text
 * here, dates and times in the server's time zone as v4 writes them (storage/values.ts localDateOrTime).
 */
function withDatesAsText(ct: ContentType, data: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(data)) {
    const attr = ct.attributes[name];
    if (!(value instanceof Date) || !attr || attr.kind !== 'scalar' || Number.isNaN(value.getTime())) continue;
    out ??= { ...data };
    out[name] = attr.type === 'date' || attr.type === 'time' ? localDateOrTime(attr.type, value) : value.toISOString();
  }
  return out ?? data;
}

export function createEntityService(deps: EntityServiceDeps) {
  const { model, query, documents, media } = deps;
  /** v4's `wrapResult` of the upload plugin (only when its provider is private) */
  const signed = <T>(uid: string, result: T): T | Promise<T> => (media?.active ? media.sign(uid, result) : result);
  const typeOf = (uid: string): ContentType => {
    const ct = model.require(uid);
    if (ct.kind === 'component') throw new ValidationError(`${uid} is a component, not a content type`);
    return ct;
  };

  /**
   * validate first (so rules such as minLength see the plain password), then replace passwords by hashes:
   * here, before the write transaction, so a hash (in a worker thread) never holds the writer
   */
  async function prepare(ct: ContentType, input: Record<string, unknown>, isCreate: boolean, isDraft: boolean): Promise<{ data: Record<string, unknown>; passwordSet: boolean }> {
    const data = withDatesAsText(ct, input);
    validateInput(model, ct, data, { isCreate, isDraft });
    const { data: out, hashed } = await hashPasswordAttributes(ct, { ...data });
    return { data: out, passwordSet: hashed };
  }

  const service = {
    async findMany(uid: string, params: V4Params = {}): Promise<Entity[] | Entity | null> {
      const ct = typeOf(uid);
      const [find, read] = liveRead(model, ct, params, toFindParams(ct, params, model));
      if (ct.kind === 'singleType') return signed(uid, await query(uid).findOne(find, read));
      return signed(uid, await query(uid).findMany(find, read));
    },
    async findPage(uid: string, params: V4Params = {}) {
      const ct = typeOf(uid);
      const pg = isObject(params.pagination) ? params.pagination : {};
      const page = Math.max(pg.page === undefined ? 1 : toNumber(pg.page, 'page'), 1);
      const pageSize = Math.max(pg.pageSize === undefined ? 10 : toNumber(pg.pageSize, 'pageSize'), 1);
      const [find, read] = liveRead(model, ct, params, toFindParams(ct, { ...params, pagination: { page, pageSize } }, model));
      const [results, total] = await Promise.all([query(uid).findMany(find, read), query(uid).count({ where: find.where })]);
      return { results: await signed(uid, results), pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
    },
    async findOne(uid: string, id: number | string, params: V4Params = {}): Promise<Entity | null> {
      typeOf(uid);
      return signed(uid, await query(uid).findOne({ ...readParams(params), where: { id: Number(id) } }));
    },
    async count(uid: string, params: V4Params = {}): Promise<number> {
      return query(uid).count({ where: toFindParams(typeOf(uid), params, model).where });
    },
    async create(uid: string, params: V4Params = {}): Promise<Entity> {
      const ct = typeOf(uid);
      if (!isObject(params.data)) throw new ValidationError('cannot create');
      const raw: Record<string, unknown> = { ...params.data };
      if (ct.draftAndPublish && !('publishedAt' in raw)) raw.publishedAt = null; // v4: a draft unless told
      const { data } = await prepare(ct, raw, true, ct.draftAndPublish && raw.publishedAt === null);
      const created = await signed(uid, ct.localized && deps.localized ? await deps.localized.create(ct, data, readParams(params)) : await documents.create(ct, data, readParams(params)));
      deps.notifyWrite(uid);
      deps.events?.entry('entry.create', uid, created);
      return created;
    },
    async update(uid: string, id: number | string, params: V4Params = {}): Promise<Entity | null> {
      const ct = typeOf(uid);
      // without hooks: the document service's update makes v4's findOne (hooks included)
      const current = await query(uid, undefined, true).findOne({ where: { id: Number(id) }, select: ct.draftAndPublish ? ['id', 'publishedAt'] : ['id'] });
      if (!current) return null;
      const input = isObject(params.data) ? params.data : {};
      const isDraft = ct.draftAndPublish && (input.publishedAt === null || (input.publishedAt === undefined && current.publishedAt === null));
      const { data, passwordSet } = await prepare(ct, input, false, isDraft);
      const updated = await signed(uid, ct.localized && deps.localized ? await deps.localized.update(ct, current.id, data, readParams(params)) : await documents.update(ct, current.id, data, readParams(params)));
      deps.notifyWrite(uid);
      deps.events?.entry('entry.update', uid, updated);
      if (passwordSet && updated) await deps.onPasswordSet?.(uid, updated.id);
      return updated;
    },
    async delete(uid: string, id: number | string, params: V4Params = {}): Promise<Entity | null> {
      const ct = typeOf(uid);
      const deleted = await signed(uid, await documents.delete(ct, Number(id), readParams(params)));
      if (deleted) deps.notifyWrite(uid);
      deps.events?.entry('entry.delete', uid, deleted);
      return deleted;
    },
    async deleteMany(uid: string, params: V4Params = {}): Promise<{ count: number }> {
      const where = toFindParams(typeOf(uid), params, model).where;
      // v4 reads the entries first and sends `entry.delete` for each after the delete (read only when something listens)
      const doomed = deps.events?.wants('entry.delete') ? await signed(uid, await query(uid, undefined, true).findMany({ where, populate: toPopulate(params.populate) })) : [];
      const result = await query(uid).deleteMany({ where });
      for (const entity of doomed) deps.events?.entry('entry.delete', uid, entity);
      return result;
    },
    /** v4 `load(uid, entity, field, params)`: one relation of one entity */
    async load(uid: string, entity: { id: number }, field: string, params: V4Params = {}): Promise<unknown> {
      const ct = typeOf(uid);
      if (typeof field !== 'string' || !ct.attributes[field]) throw new Error(`Invalid load. Expected "${String(field)}" to be a string`);
      const node = toNode(params);
      const found = await query(uid).findOne({ where: { id: entity.id }, select: ['id'], populate: { [field]: node === false ? true : node } });
      if (!found) return null;
      return media?.active ? (await media.sign(uid, { id: found.id, [field]: found[field] ?? null }))[field] : found[field] ?? null;
    },
    /** v4 `decorate(fn)`: `fn(current)` returns methods that replace the current ones (they may call the old) */
    decorate(decorator: (current: Record<string, unknown>) => Record<string, unknown>) {
      if (typeof decorator !== 'function') throw new Error(`Decorator must be a function, received ${typeof decorator}`);
      Object.assign(service, decorator({ ...service }));
      return service;
    },
  };
  return service;
}

export type EntityService = ReturnType<typeof createEntityService>;
