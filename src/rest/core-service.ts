// v4's core service for one content type: find/findOne/create/update/delete for collection types,
// find/createOrUpdate/delete for single types. Takes validated queries; applies publication state and locale.
import type { ContentType, Model } from '../model/types';
import type { Entity, FindParams, Populate, PopulateNode, Where } from '../query/types';
import type { Database } from '../storage/dialect';
import type { DocumentService, ReadParams } from '../documents/document-service';
import { countEntities, findEntities } from '../storage/read-entities';
import type { RestQuery } from './parse-query';
import { paginationMeta } from '../query/pagination';

export interface ServiceContext {
  db: Database;
  model: Model;
  documents: DocumentService;
  defaultLocale(): string;
}

const LIVE: Where = { publishedAt: { $notNull: true } };

function and(a: Where | undefined, b: Where | undefined): Where | undefined {
  if (!a) return b;
  if (!b) return a;
  return { $and: [a, b] };
}

/** Under `live`, populated targets with draft & publish show published entries only. */
function livePopulate(model: Model, ct: ContentType, populate: Populate | undefined): Populate | undefined {
  if (!populate || typeof populate !== 'object' || Array.isArray(populate)) return populate;
  const out: Record<string, PopulateNode | boolean> = {};
  for (const [name, node] of Object.entries(populate)) {
    const attr = ct.attributes[name];
    if (typeof node !== 'object' || !attr) { out[name] = node; continue; }
    const target = attr.kind === 'relation' ? model.get(attr.target) : attr.kind === 'component' ? model.get(attr.component) : undefined;
    if (!target) { out[name] = node; continue; }
    out[name] = {
      ...node,
      where: target.draftAndPublish ? and(node.where, LIVE) : node.where,
      populate: livePopulate(model, target, node.populate),
    };
  }
  return out;
}

export function readParamsOf(sc: ServiceContext, ct: ContentType, q: RestQuery): ReadParams {
  const populate = q.publicationState === 'live' ? livePopulate(sc.model, ct, q.params.populate) : q.params.populate;
  return { select: q.params.select, populate };
}

function scopeWhere(sc: ServiceContext, ct: ContentType, q: RestQuery): Where | undefined {
  let where = q.params.where;
  if (ct.draftAndPublish && q.publicationState === 'live') where = and(where, LIVE);
  if (ct.localized && q.locale !== 'all') where = and(where, { locale: q.locale ?? sc.defaultLocale() });
  return where;
}

export function createCoreService(sc: ServiceContext, ct: ContentType) {
  const { db, model, documents } = sc;
  return {
    async find(q: RestQuery): Promise<{ results: Entity[]; pagination?: Record<string, number> }> {
      const where = scopeWhere(sc, ct, q);
      const params: FindParams = { ...q.params, ...readParamsOf(sc, ct, q), where };
      const results = await findEntities(db, model, ct, params);
      const p = q.pagination!;
      const total = p.withCount ? await countEntities(db, model, ct, where) : undefined;
      return { results, pagination: paginationMeta(p, total) };
    },
    /** v4: findOne by id ignores publicationState and filters (see docs/compatibility.md) */
    async findOne(id: number, q: RestQuery): Promise<Entity | null> {
      const rows = await findEntities(db, model, ct, { ...readParamsOf(sc, ct, q), where: { id }, limit: 1 });
      return rows[0] ?? null;
    },
    /** single types: the one entry */
    async findSingle(q: RestQuery): Promise<Entity | null> {
      const rows = await findEntities(db, model, ct, { ...readParamsOf(sc, ct, q), where: scopeWhere(sc, ct, q), limit: 1 });
      return rows[0] ?? null;
    },
    create: (data: Record<string, unknown>, q: RestQuery) => documents.create(ct, data, readParamsOf(sc, ct, q)),
    update: (id: number, data: Record<string, unknown>, q: RestQuery) => documents.update(ct, id, data, readParamsOf(sc, ct, q)),
    delete: (id: number, q: RestQuery) => documents.delete(ct, id, readParamsOf(sc, ct, q)),
    async createOrUpdate(data: Record<string, unknown>, q: RestQuery): Promise<Entity | null> {
      const existing = await findEntities(db, model, ct, { select: [], where: ct.localized ? { locale: q.locale ?? sc.defaultLocale() } : undefined, limit: 1 });
      if (existing.length) return documents.update(ct, existing[0].id, data, readParamsOf(sc, ct, q));
      return documents.create(ct, ct.localized && data.locale === undefined ? { ...data, locale: q.locale ?? sc.defaultLocale() } : data, readParamsOf(sc, ct, q));
    },
    async deleteSingle(q: RestQuery): Promise<Entity | null> {
      const existing = await findEntities(db, model, ct, { select: [], where: ct.localized ? { locale: q.locale ?? sc.defaultLocale() } : undefined, limit: 1 });
      return existing.length ? documents.delete(ct, existing[0].id, readParamsOf(sc, ct, q)) : null;
    },
  };
}

export type CoreService = ReturnType<typeof createCoreService>;
