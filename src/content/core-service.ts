// v4's core service for one content type: find/findOne/create/update/delete for collection types,
// find/createOrUpdate/delete for single types. Takes validated queries; applies publication state and
// locale scoping; localized types write through the i18n plugin (locale check, sibling sync).
import { ValidationError } from '../errors';
import type { ContentType, Model } from '../model/types';
import type { Entity, FindParams, Populate, Where } from '../query/types';
import type { Database } from '../storage/dialect';
import type { DocumentService, ReadParams } from '../documents/document-service';
import { countEntities, findEntities } from '../storage/read-entities';
import { findEntriesJson, findEntryJson } from '../storage/read-json';
import { countHooked, findManyHooked, findOneHooked, validatedRead } from '../storage/hooked-entities';
import type { Lifecycles } from '../storage/lifecycles';
import { isStable, markStable } from '../storage/stable-queries';
import { invalidPublicationState, type RestQuery } from '../query/parse-query';
import { paginationMeta } from '../query/pagination';
import { LIVE, and, withPublicationState, type PublicationState } from '../query/publication-state';
import { webhooksOf } from '../webhooks/registry';
import type { EntryEvent } from '../webhooks/index';

/** What the i18n plugin does for localized types (v4's entity-service decorator). */
export interface LocalizedContent {
  /** `data.locale` checked (unknown: 400) or the default; siblings synced when the entry came back with `localizations` */
  create(ct: ContentType, data: Record<string, unknown>, read: ReadParams): Promise<Entity>;
  /** `locale`/`localizations` ignored; shared attributes synced to siblings when the entry came back with `localizations` */
  update(ct: ContentType, id: number, data: Record<string, unknown>, read: ReadParams): Promise<Entity | null>;
  /** entry-level `meta.availableLocales` on each entity (one query for all of them) */
  attachAvailableLocales(ct: ContentType, entities: Entity[], state: PublicationState): Promise<void>;
}

/** What the upload plugin does for entry results when its provider is private (v4's entity-service decorator). */
export interface MediaSigning {
  /** set once at start-up: the provider is private. False: results pass untouched (no traversal) */
  active: boolean;
  /** the result (an entity, a list or null) of model `uid` with every media file's urls signed, at any depth */
  sign<T>(uid: string, result: T): Promise<T>;
}

export interface ServiceContext {
  db: Database;
  model: Model;
  documents: DocumentService;
  defaultLocale(): string;
  i18n?: LocalizedContent;
  /** `config/api.js` `rest.findOnePublicationState`: findOne honours publicationState as find does */
  findOnePublicationState?: boolean;
  /** the models' lifecycle hooks: a type with read hooks reads through JavaScript objects (the hooks see them) */
  lifecycles?: Lifecycles;
  /** signed media urls in every result (upload plugin, private providers) */
  media?: MediaSigning;
}

type Action = 'find' | 'findOne' | 'write';

/**
 * Which publication state filters a request, as v4 does it: `find` (and single-type find) always (live by
 * default); `findOne` and writes never (v4's entity service keeps only fields and populate there), unless
 * the findOne switch is on.
 */
function stateFor(sc: ServiceContext, q: RestQuery, action: Action): PublicationState {
  if (action === 'find' || (action === 'findOne' && sc.findOnePublicationState)) {
    if (q.publicationState === 'invalid') throw invalidPublicationState();
    return q.publicationState;
  }
  return undefined;
}

function readParamsOf(sc: ServiceContext, ct: ContentType, q: RestQuery, action: Action = 'write'): ReadParams {
  return { select: q.params.select, populate: withPublicationState(sc.model, ct, q.params.populate, stateFor(sc, q, action)) };
}

/** Options of a write through the core service. */
export interface WriteOptions {
  /** a created entry stays a draft unless `publishedAt` is given (v4's entity service; GraphQL) */
  unpublished?: boolean;
}

/** what a write answers: the validated read, marked so lifecycle hooks cannot widen it */
function writeReadOf(sc: ServiceContext, ct: ContentType, q: RestQuery, opts: WriteOptions = {}): ReadParams {
  return { ...readParamsOf(sc, ct, q), contentApi: true, ...(opts.unpublished ? { unpublished: true } : {}) };
}

function localeWhere(sc: ServiceContext, ct: ContentType, q: RestQuery): Where | undefined {
  if (!ct.localized || q.locale === 'all') return undefined;
  return { locale: q.locale ?? sc.defaultLocale() };
}

/** what find and single-type find select: the request's filters, live unless preview, the locale */
function scopeWhere(sc: ServiceContext, ct: ContentType, q: RestQuery, state: PublicationState): Where | undefined {
  let where = q.params.where;
  if (ct.draftAndPublish && state === 'live') where = and(where, LIVE);
  return and(where, localeWhere(sc, ct, q));
}

/** A page written by the JSON read path: the entries' JSON texts and `meta.pagination`. */
export interface JsonPage {
  entries: string[];
  pagination?: Record<string, number>;
}

export function createCoreService(sc: ServiceContext, ct: ContentType) {
  const { db, model, documents } = sc;
  const lc = sc.lifecycles;
  const media = sc.media;
  /** read hooks need entities as objects, and so does signing media urls: then the JSON read path is off */
  const jsonAllowed = () => (!lc || !lc.hasReads(ct.uid)) && !media?.active;
  /** v4's upload decorator on every entity-service result: media urls signed when the provider is private */
  const signed = <T extends Entity | Entity[] | null>(result: T): T | Promise<T> => (media?.active ? media.sign(ct.uid, result) : result);
  const hooked = (op: 'findMany' | 'findOne' | 'count') => lc !== undefined && lc.has(ct.uid, op);
  const i18n = ct.localized ? sc.i18n : undefined;
  /**
   * The storage params of a validated query, kept per query object when the controller keeps that one
   * per query shape (marked stable): the same object every time, so the storage layer's compiled
   * statements are reused. A query made for one call gets params made for that call (no WeakMap entry
   * per request: those would outlive young-generation GCs).
   */
  const memo = new WeakMap<RestQuery, Map<string, FindParams>>();
  const paramsOf = (q: RestQuery, key: string, make: () => FindParams): FindParams => {
    if (!isStable(q)) return make();
    const k = ct.localized ? `${key}:${sc.defaultLocale()}` : key;
    let byKey = memo.get(q);
    if (!byKey) memo.set(q, (byKey = new Map()));
    let params = byKey.get(k);
    if (!params) byKey.set(k, (params = markStable(make())));
    return params;
  };
  const findParams = (q: RestQuery): FindParams => paramsOf(q, 'find', () => {
    const state = stateFor(sc, q, 'find');
    return { ...q.params, ...readParamsOf(sc, ct, q, 'find'), where: scopeWhere(sc, ct, q, state) };
  });
  /** findOne's params without the id (the JSON read path binds it per request) */
  const findOneParams = (q: RestQuery): FindParams => paramsOf(q, 'findOne', () => {
    const state = stateFor(sc, q, 'findOne');
    return { ...readParamsOf(sc, ct, q, 'findOne'), where: ct.draftAndPublish && state === 'live' ? LIVE : undefined, limit: 1 };
  });
  /** a populate lifecycle hooks put in, read in the request's publication state (storage/hooked-entities.ts) */
  const scopeTo = (state: PublicationState) => (populate: Populate) => withPublicationState(model, ct, populate, state);
  const withLocales = async <T extends Entity | Entity[] | null>(result: T, state: PublicationState): Promise<T> => {
    if (i18n && result) await i18n.attachAvailableLocales(ct, Array.isArray(result) ? result : [result], state);
    return result;
  };
  /** v4's entity service events, after the write's transaction committed (webhooks/index.ts) */
  const emitted = <T extends Entity | null>(event: EntryEvent, entity: T): T => {
    webhooksOf(db)?.entry(event, ct.uid, entity);
    return entity;
  };
  const createEntry = (data: Record<string, unknown>, read: ReadParams) => (i18n ? i18n.create(ct, data, read) : documents.create(ct, data, read));
  const updateEntry = (id: number, data: Record<string, unknown>, read: ReadParams) => (i18n ? i18n.update(ct, id, data, read) : documents.update(ct, id, data, read));
  /** single types: the entry a write addresses (v4: the first row in the request's locale and publication state) */
  const findSingleEntry = async (q: RestQuery, state: PublicationState) => {
    const where = and(ct.draftAndPublish && state === 'live' ? LIVE : undefined, localeWhere(sc, ct, q));
    return (await findEntities(db, model, ct, { select: [], where, limit: 1 }))[0];
  };

  return {
    async find(q: RestQuery): Promise<{ results: Entity[]; pagination?: Record<string, number> }> {
      const state = stateFor(sc, q, 'find');
      const params = findParams(q);
      const p = q.pagination!;
      if (lc && (hooked('findMany') || hooked('count'))) {
        // v4: findMany, then count with the same query without its page (each with its hooks)
        const results = await findManyHooked(db, model, lc, ct, definedOnly(params), undefined, validatedRead(params, q.hookPopulate, scopeTo(state)));
        const { limit: _l, offset: _o, ...countParams } = params;
        const total = p.withCount ? await countHooked(db, model, lc, ct, definedOnly(countParams)) : undefined;
        return { results: await withLocales(await signed(results), state), pagination: paginationMeta(p, total) };
      }
      const results = await findEntities(db, model, ct, params);
      const total = p.withCount ? await countEntities(db, model, ct, params.where) : undefined;
      return { results: await withLocales(await signed(results), state), pagination: paginationMeta(p, total) };
    },
    /**
     * `find` written by SQLite as JSON (storage/read-json.ts); null where the JavaScript path answers:
     * localized types (i18n adds `meta.availableLocales` to each entry) and shapes it does not cover.
     */
    async findJson(q: RestQuery): Promise<JsonPage | null> {
      if (i18n || !jsonAllowed()) return null;
      const p = q.pagination!;
      const page = await findEntriesJson(db, model, ct, findParams(q), p.withCount);
      return page && { entries: page.entries, pagination: paginationMeta(p, page.total) };
    },
    /** `findOne` as JSON text: null when there is no such entry, undefined where the JavaScript path answers */
    async findOneJson(id: number, q: RestQuery): Promise<string | null | undefined> {
      if (i18n || !jsonAllowed()) return undefined;
      return findEntryJson(db, model, ct, findOneParams(q), id);
    },
    /** v4: findOne by id ignores filters, locale and (unless switched on) publicationState; see docs/compatibility.md */
    async findOne(id: number, q: RestQuery): Promise<Entity | null> {
      const state = stateFor(sc, q, 'findOne');
      const base = findOneParams(q);
      const where = base.where ? { id, ...base.where } : { id };
      if (lc && hooked('findOne')) return withLocales(await signed(await findOneHooked(db, model, lc, ct, definedOnly({ ...base, where }), undefined, validatedRead(base, q.hookPopulate, scopeTo(state)))), state);
      const rows = await findEntities(db, model, ct, { ...base, where });
      return withLocales(await signed(rows[0] ?? null), state);
    },
    /** single types: the one entry; localized with `locale=all`: every locale's entry, as a list (v4) */
    async findSingle(q: RestQuery): Promise<Entity | Entity[] | null> {
      const state = stateFor(sc, q, 'find');
      const single = ct.localized && q.locale === 'all' ? undefined : 1;
      const params = { ...readParamsOf(sc, ct, q, 'find'), where: scopeWhere(sc, ct, q, state) };
      // v4's entity service reads a single type with findOne (its hooks run)
      if (lc && hooked('findOne') && single) return withLocales(await signed(await findOneHooked(db, model, lc, ct, definedOnly(params), undefined, validatedRead(params, q.hookPopulate, scopeTo(state)))), state);
      const rows = await findEntities(db, model, ct, { ...params, limit: single });
      if (!single) return withLocales(await signed(rows), state);
      return withLocales(await signed(rows[0] ?? null), state);
    },
    async create(data: Record<string, unknown>, q: RestQuery, opts?: WriteOptions): Promise<Entity> {
      return withLocales(emitted('entry.create', await signed(await createEntry(data, writeReadOf(sc, ct, q, opts)))), undefined);
    },
    async update(id: number, data: Record<string, unknown>, q: RestQuery): Promise<Entity | null> {
      return withLocales(emitted('entry.update', await signed(await updateEntry(id, data, writeReadOf(sc, ct, q)))), undefined);
    },
    async delete(id: number, q: RestQuery): Promise<Entity | null> {
      // the siblings are read first: the links go with the entry
      const shell = i18n ? await withLocales({ id } as Entity, undefined) : undefined;
      const entity = emitted('entry.delete', await signed(await documents.delete(ct, id, writeReadOf(sc, ct, q))));
      return entity && shell ? moveMeta(shell, entity) : entity;
    },
    /**
     * v4's single-type createOrUpdate: the entry in the request's locale (drafts included) is updated;
     * when there is none it is created, unless the type already has an entry elsewhere (another locale):
     * then 400 `singleType.alreadyExists`.
     */
    async createOrUpdate(data: Record<string, unknown>, q: RestQuery, opts?: WriteOptions): Promise<Entity | null> {
      const read = writeReadOf(sc, ct, q, opts);
      const existing = await findSingleEntry(q, 'preview');
      if (existing) return withLocales(emitted('entry.update', await signed(await updateEntry(existing.id, data, read))), undefined);
      if ((await countEntities(db, model, ct, undefined)) >= 1) throw new ValidationError('singleType.alreadyExists');
      return withLocales(emitted('entry.create', await signed(await createEntry(data, read))), undefined); // publishedAt = now unless given (document service)
    },
    /** v4: the entry single-type find would show (live, locale), deleted and returned without fields/populate */
    async deleteSingle(q: RestQuery): Promise<Entity | null> {
      const existing = await findSingleEntry(q, stateFor(sc, q, 'find'));
      if (!existing) return null;
      const shell = i18n ? await withLocales({ id: existing.id } as Entity, undefined) : undefined;
      const entity = emitted('entry.delete', await signed(await documents.delete(ct, existing.id, {})));
      return entity && shell ? moveMeta(shell, entity) : entity;
    },
  };
}

/** the params with only the keys that are set (what lifecycle hooks see: v4's query has only the keys given) */
function definedOnly<T extends object>(params: T): T {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as T;
}

/** the entry meta (symbol properties) read on a shell before a delete, moved onto the deleted entity */
function moveMeta(shell: Entity, entity: Entity): Entity {
  for (const s of Object.getOwnPropertySymbols(shell)) (entity as Record<symbol, unknown>)[s] = (shell as Record<symbol, unknown>)[s];
  return entity;
}

export type CoreService = ReturnType<typeof createCoreService>;
