// v4's core controllers. Methods take the koa-like ctx and return the response body; a project's
// `createCoreController(uid, ...)` overrides sit on top with this object as their prototype (`super.find`).
import { ValidationError } from '../errors';
import { isMultipartRequest, withMultipartData, type EntryUploads } from './entry-uploads';
import type { ContentType, Model } from '../model/types';
import type { Entity } from '../query/types';
import type { RequestContext } from './context';
import type { CoreService, JsonPage } from '../content/core-service';
import type { ContentReads } from '../content/content-reads';
import { jsonBody } from './json-body';
import { sanitizeInput } from '../content/sanitize-input';
import { sanitizeOutput } from '../content/sanitize-output';

/** the methods of a (possibly project-extended) service the core controllers call */
type ServiceLike = Pick<CoreService, 'find' | 'findOne' | 'create' | 'update' | 'delete' | 'findSingle' | 'createOrUpdate' | 'deleteSingle'>;
import { parseRestQuery, type QueryContext, type RestQuery } from '../query/parse-query';
import { transformResponse } from '../content/entry-shape';
import { markCoreAnswer } from '../cache/core-answer';

export interface ControllerDeps {
  model: Model;
  queryContext(ctx: RequestContext): QueryContext;
  service(): ServiceLike;
  /**
   * The core service (before any project override): while the service in place still has its
   * `find` / `findOne`, only core code sees the query (so `reads` keeps it per shape) and the response
   * (so the JSON reads, when on, may answer).
   */
  core?: Pick<ServiceLike, 'find' | 'findOne'>;
  /** the content layer's read entry for this type (content/content-reads.ts) */
  reads?: ContentReads;
  /** multipart entry writes (`data` + `files.<path>`), when the upload plugin is there */
  uploads?: EntryUploads;
  /** config/api.js `responses.privateAttributes` (what sanitizeOutput strips besides the schemas' private attributes) */
  privateAttributes?: ReadonlySet<string>;
}

const NO_NAMES: ReadonlySet<string> = new Set();

function envelope(page: JsonPage): string {
  return `{"data":[${page.entries.join(',')}],"meta":${page.pagination ? `{"pagination":${JSON.stringify(page.pagination)}}` : '{}'}}`;
}

function entryId(ctx: RequestContext): number | null {
  const raw = ctx.params.id;
  return /^\d{1,15}$/.test(raw ?? '') ? Number(raw) : null;
}

const MISSING_DATA = 'Missing "data" payload in the request body';

function asData(data: unknown): Record<string, unknown> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ValidationError(MISSING_DATA);
  return data as Record<string, unknown>;
}

function bodyData(ctx: RequestContext): Record<string, unknown> {
  const body = ctx.request.body as { data?: unknown } | undefined;
  return asData(body && typeof body === 'object' ? body.data : undefined);
}

/** What the core actions call through `this`, so a project's overrides of these helpers take part (v4). */
interface ControllerSelf {
  sanitizeQuery(ctx: RequestContext): Record<string, unknown> | Promise<Record<string, unknown>>;
  sanitizeInput(data: unknown, ctx?: RequestContext): unknown;
  sanitizeOutput(data: unknown, ctx?: RequestContext): unknown;
  transformResponse(data: unknown, meta?: Record<string, unknown>): unknown;
}

export function createCoreController(deps: ControllerDeps, ct: ContentType) {
  const { model } = deps;
  const helpers = {
    /** v4 helpers a project controller may call */
    validateQuery(ctx: RequestContext): RestQuery {
      return parseRestQuery(deps.queryContext(ctx), ct, ctx.query, 'find');
    },
    sanitizeQuery(ctx: RequestContext): Record<string, unknown> {
      return ctx.query;
    },
    /**
     * v4's input sanitizer (sanitize-input.ts), a promise as in v4. Without a ctx v4 has no auth to verify:
     * every relation goes.
     */
    async sanitizeInput(data: unknown, ctx?: RequestContext): Promise<unknown> {
      const qc = ctx && deps.queryContext(ctx);
      return sanitizeInput(model, ct, data, (uid) => !!qc && qc.canRead(uid));
    },
    /**
     * v4's output sanitizer (sanitize-output.ts), a promise as in v4: what a service returns may hold private
     * attributes and password hashes (project code sees them, as in v4), which the Content API never answers.
     * Without a ctx v4 has no auth to verify: relations stay.
     */
    async sanitizeOutput(data: unknown, ctx?: RequestContext): Promise<unknown> {
      const canRead = ctx && deps.queryContext(ctx).canRead;
      return sanitizeOutput(model, ct, data, { canRead, globalPrivate: deps.privateAttributes ?? NO_NAMES });
    },
    transformResponse(data: Entity | Entity[] | null, meta?: Record<string, unknown>) {
      return transformResponse(model, ct, data, meta);
    },
  };
  /** the query a core action reads: `ctx.query`, or what the project's own `sanitizeQuery` makes of it */
  const rawQuery = async (self: ControllerSelf, ctx: RequestContext): Promise<Record<string, unknown>> =>
    self.sanitizeQuery === helpers.sanitizeQuery ? ctx.query : await self.sanitizeQuery(ctx);
  const q = async (self: ControllerSelf, ctx: RequestContext, action: 'find' | 'findOne' | 'write') =>
    parseRestQuery(deps.queryContext(ctx), ct, await rawQuery(self, ctx), action);
  /** v4's last two steps of every action: `this.sanitizeOutput`, then `this.transformResponse` */
  const respond = async (self: ControllerSelf, ctx: RequestContext, data: Entity | Entity[] | null, meta: Record<string, unknown> = {}) =>
    self.transformResponse(await self.sanitizeOutput(data, ctx), meta);
  /**
   * Runs an entry write with the request's `data`: a JSON body's, or a multipart body's `data` field with
   * the files of `files.<path>` stored first and their ids merged in (rest/entry-uploads.ts); the stored
   * files go again when the write fails.
   */
  const withEntryData = async <T>(ctx: RequestContext, isCreate: boolean, write: (data: Record<string, unknown>) => Promise<T>): Promise<T> => {
    if (!isMultipartRequest(ctx) || !deps.uploads) return write(bodyData(ctx));
    return withMultipartData(deps.uploads, model, ct, ctx, { isCreate, toData: asData }, write);
  };
  /** none of the helpers a response passes through is the project's: the JSON text may be the answer */
  const plainHelpers = (self: ControllerSelf) =>
    self.sanitizeQuery === helpers.sanitizeQuery && self.sanitizeOutput === helpers.sanitizeOutput && self.transformResponse === helpers.transformResponse;
  /** the validated read query for the core service: the content layer keeps it per (caller's Ability, action, parameters) */
  const reads = deps.reads;
  const sharedQ = (r: ContentReads, ctx: RequestContext, action: 'find' | 'findOne'): RestQuery => {
    const auth = ctx.state.auth;
    return r.sharedQuery(() => deps.queryContext(ctx), auth.kind === 'none' ? undefined : auth.ability, ctx.query, action);
  };
  /** whether the service in place still runs the core `find` / `findOne` (and the read entry is there) */
  const isCore = (svc: ServiceLike, method: 'find' | 'findOne'): boolean => reads !== undefined && deps.core !== undefined && svc[method] === deps.core[method];
  // locale handling (default locale on create, unknown locale, `locale`/`localizations` ignored on update,
  // sibling sync) is the service's, as in v4 (the i18n decorator sits on the entity service)

  // the actions' names, as the routes that call them have them (what the response cache checks)
  const FIND = `${ct.uid}.find`;
  const FIND_ONE = `${ct.uid}.findOne`;
  // v4: the actions are the controller's own, the helpers (sanitizeOutput, transformResponse...) its prototype's
  const withHelpers = <T extends object>(actions: T): T & typeof helpers => Object.assign(Object.create(helpers) as typeof helpers, actions);
  if (ct.kind === 'singleType') {
    const single = withHelpers({
      /** localized with `locale=all`: every locale's entry, as a list (v4) */
      async find(this: ControllerSelf & { find?: unknown }, ctx: RequestContext) {
        const svc = deps.service();
        const entity = await svc.findSingle(await q(this, ctx, 'findOne'));
        const body = entity ? await respond(this, ctx, entity) : null;
        return isCore(svc, 'find') && plainHelpers(this) && this.find === single.find ? markCoreAnswer(ctx, FIND, body) : body;
      },
      async update(this: ControllerSelf, ctx: RequestContext) {
        const query = await q(this, ctx, 'write');
        const entity = await withEntryData(ctx, false, async (data) => deps.service().createOrUpdate((await this.sanitizeInput(data, ctx)) as Record<string, unknown>, query));
        return respond(this, ctx, entity);
      },
      async delete(this: ControllerSelf, ctx: RequestContext) {
        const entity = await deps.service().deleteSingle(await q(this, ctx, 'write'));
        return entity ? respond(this, ctx, entity) : null;
      },
    });
    return single;
  }
  const collection = withHelpers({
    async find(this: ControllerSelf & { find?: unknown }, ctx: RequestContext) {
      const svc = deps.service();
      const fast = isCore(svc, 'find') && plainHelpers(this);
      const query = fast ? sharedQ(reads!, ctx, 'find') : await q(this, ctx, 'find');
      const page = fast && reads!.json ? await reads!.json.find(query) : null;
      const body = page ? jsonBody(envelope(page)) : await svc.find(query).then(({ results, pagination }) => respond(this, ctx, results, { pagination }));
      return fast && this.find === collection.find ? markCoreAnswer(ctx, FIND, body) : body;
    },
    async findOne(this: ControllerSelf & { findOne?: unknown }, ctx: RequestContext) {
      const svc = deps.service();
      const fast = isCore(svc, 'findOne') && plainHelpers(this);
      const id = entryId(ctx);
      const query = fast ? sharedQ(reads!, ctx, 'findOne') : await q(this, ctx, 'findOne');
      const answer = async () => {
        if (id === null) return null;
        const text = fast && reads!.json ? await reads!.json.findOne(id, query) : undefined;
        if (text !== undefined) return text === null ? null : jsonBody(`{"data":${text},"meta":{}}`);
        const entity = await svc.findOne(id, query);
        return entity ? respond(this, ctx, entity) : null;
      };
      const body = await answer();
      return fast && this.findOne === collection.findOne ? markCoreAnswer(ctx, FIND_ONE, body) : body;
    },
    async create(this: ControllerSelf, ctx: RequestContext) {
      const query = await q(this, ctx, 'write');
      const entity = await withEntryData(ctx, true, async (data) => deps.service().create((await this.sanitizeInput(data, ctx)) as Record<string, unknown>, query));
      // null when findOne hooks hide the entry just written (v4 then answers 404, the entry stays)
      return entity ? respond(this, ctx, entity) : null;
    },
    async update(this: ControllerSelf, ctx: RequestContext) {
      const id = entryId(ctx);
      const query = await q(this, ctx, 'write');
      // the body is checked first (v4: a 400 for a missing `data` even when the id names nothing)
      const entity = await withEntryData(ctx, false, async (data) => (id === null ? null : deps.service().update(id, (await this.sanitizeInput(data, ctx)) as Record<string, unknown>, query)));
      return entity ? respond(this, ctx, entity) : null;
    },
    async delete(this: ControllerSelf, ctx: RequestContext) {
      const id = entryId(ctx);
      if (id === null) return null;
      const entity = await deps.service().delete(id, await q(this, ctx, 'write'));
      return entity ? respond(this, ctx, entity) : null;
    },
  });
  return collection;
}

export type CoreController = ReturnType<typeof createCoreController>;
