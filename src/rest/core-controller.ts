// v4's core controllers. Methods take the koa-like ctx and return the response body; a project's
// `createCoreController(uid, ...)` overrides sit on top with this object as their prototype (`super.find`).
import { ValidationError } from '../errors';
import type { ContentType, Model } from '../model/types';
import type { Entity } from '../query/types';
import type { RequestContext } from './context';
import type { CoreService, JsonPage } from './core-service';
import { ShapeCache, shapeKey } from '../query/shape-cache';
import { jsonBody } from './json-body';
import { markStable } from '../storage/stable-queries';

/** the methods of a (possibly project-extended) service the core controllers call */
type ServiceLike = Pick<CoreService, 'find' | 'findOne' | 'create' | 'update' | 'delete' | 'findSingle' | 'createOrUpdate' | 'deleteSingle'>;
import { parseRestQuery, type QueryContext, type RestQuery } from './parse-query';
import { transformResponse } from './transform';

/** The core service's JSON reads (core-service.ts `findJson`, `findOneJson`). */
export interface JsonReads {
  find(q: RestQuery): Promise<JsonPage | null>;
  findOne(id: number, q: RestQuery): Promise<string | null | undefined>;
}

export interface ControllerDeps {
  model: Model;
  queryContext(ctx: RequestContext): QueryContext;
  service(): ServiceLike;
  /**
   * The core service (before any project override): while the service in place still has its
   * `find` / `findOne`, only core code sees the query (so it is kept per shape) and the response (so
   * the JSON reads, when given, may answer).
   */
  core?: Pick<ServiceLike, 'find' | 'findOne'>;
  json?: JsonReads;
}

/** parse results depend on the caller only through what it may read, i.e. its Ability */
const NO_ABILITY = {};

function envelope(page: JsonPage): string {
  return `{"data":[${page.entries.join(',')}],"meta":${page.pagination ? `{"pagination":${JSON.stringify(page.pagination)}}` : '{}'}}`;
}

function entryId(ctx: RequestContext): number | null {
  const raw = ctx.params.id;
  return /^\d{1,15}$/.test(raw ?? '') ? Number(raw) : null;
}

function bodyData(ctx: RequestContext): Record<string, unknown> {
  const body = ctx.request.body as { data?: unknown } | undefined;
  const data = body && typeof body === 'object' ? body.data : undefined;
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ValidationError('Missing "data" payload in the request body');
  return data as Record<string, unknown>;
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
    sanitizeInput(data: unknown): unknown {
      return data;
    },
    sanitizeOutput(data: unknown): unknown {
      return data;
    },
    transformResponse(data: Entity | Entity[] | null, meta?: Record<string, unknown>) {
      return transformResponse(model, ct, data, meta);
    },
  };
  const q = (ctx: RequestContext, action: 'find' | 'findOne' | 'write') => parseRestQuery(deps.queryContext(ctx), ct, ctx.query, action);
  /**
   * A validated read query, kept per (caller's Ability, action, query parameters): only for the core
   * service, which never changes it (a project's service receives a fresh one it may change).
   */
  const parsed = new WeakMap<object, ShapeCache<RestQuery>>();
  const cachedQ = (ctx: RequestContext, action: 'find' | 'findOne'): RestQuery => {
    const auth = ctx.state.auth;
    const key = shapeKey(ctx.query);
    if (key === null) return q(ctx, action);
    const owner = auth.kind === 'none' ? NO_ABILITY : auth.ability;
    let cache = parsed.get(owner);
    if (!cache) parsed.set(owner, (cache = new ShapeCache()));
    const k = `${action}${key}`;
    return cache.get(k) ?? cache.set(k, markStable(q(ctx, action)));
  };
  /** whether the service in place still runs the core `find` / `findOne` */
  const isCore = (svc: ServiceLike, method: 'find' | 'findOne'): boolean => deps.core !== undefined && svc[method] === deps.core[method];
  // locale handling (default locale on create, unknown locale, `locale`/`localizations` ignored on update,
  // sibling sync) is the service's, as in v4 (the i18n decorator sits on the entity service)

  if (ct.kind === 'singleType') {
    return {
      ...helpers,
      /** localized with `locale=all`: every locale's entry, as a list (v4) */
      async find(ctx: RequestContext) {
        const entity = await deps.service().findSingle(q(ctx, 'findOne'));
        return entity ? helpers.transformResponse(entity, {}) : null;
      },
      async update(ctx: RequestContext) {
        const data = bodyData(ctx);
        const entity = await deps.service().createOrUpdate(data, q(ctx, 'write'));
        return helpers.transformResponse(entity, {});
      },
      async delete(ctx: RequestContext) {
        const entity = await deps.service().deleteSingle(q(ctx, 'write'));
        return entity ? helpers.transformResponse(entity, {}) : null;
      },
    };
  }
  return {
    ...helpers,
    async find(ctx: RequestContext) {
      const svc = deps.service();
      const core = isCore(svc, 'find');
      const query = core ? cachedQ(ctx, 'find') : q(ctx, 'find');
      const page = core && deps.json ? await deps.json.find(query) : null;
      if (page) return jsonBody(envelope(page));
      const { results, pagination } = await svc.find(query);
      return helpers.transformResponse(results, { pagination });
    },
    async findOne(ctx: RequestContext) {
      const svc = deps.service();
      const core = isCore(svc, 'findOne');
      const id = entryId(ctx);
      const query = core ? cachedQ(ctx, 'findOne') : q(ctx, 'findOne');
      if (id === null) return null;
      const text = core && deps.json ? await deps.json.findOne(id, query) : undefined;
      if (text !== undefined) return text === null ? null : jsonBody(`{"data":${text},"meta":{}}`);
      const entity = await svc.findOne(id, query);
      return entity ? helpers.transformResponse(entity, {}) : null;
    },
    async create(ctx: RequestContext) {
      const data = bodyData(ctx);
      const entity = await deps.service().create(data, q(ctx, 'write'));
      return helpers.transformResponse(entity, {});
    },
    async update(ctx: RequestContext) {
      const id = entryId(ctx);
      const data = bodyData(ctx);
      if (id === null) return null;
      const entity = await deps.service().update(id, data, q(ctx, 'write'));
      return entity ? helpers.transformResponse(entity, {}) : null;
    },
    async delete(ctx: RequestContext) {
      const id = entryId(ctx);
      if (id === null) return null;
      const entity = await deps.service().delete(id, q(ctx, 'write'));
      return entity ? helpers.transformResponse(entity, {}) : null;
    },
  };
}

export type CoreController = ReturnType<typeof createCoreController>;
