// v4's core controllers. Methods take the koa-like ctx and return the response body; a project's
// `createCoreController(uid, ...)` overrides sit on top with this object as their prototype (`super.find`).
import { ValidationError } from '../errors';
import type { ContentType, Model } from '../model/types';
import type { Entity } from '../query/types';
import type { RequestContext } from './context';
import type { CoreService } from './core-service';

/** the methods of a (possibly project-extended) service the core controllers call */
type ServiceLike = Pick<CoreService, 'find' | 'findOne' | 'create' | 'update' | 'delete' | 'findSingle' | 'createOrUpdate' | 'deleteSingle'>;
import { parseRestQuery, type QueryContext, type RestQuery } from './parse-query';
import { transformResponse } from './transform';

export interface ControllerDeps {
  model: Model;
  queryContext(ctx: RequestContext): QueryContext;
  service(): ServiceLike;
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
      const { results, pagination } = await deps.service().find(q(ctx, 'find'));
      return helpers.transformResponse(results, { pagination });
    },
    async findOne(ctx: RequestContext) {
      const id = entryId(ctx);
      const query = q(ctx, 'findOne');
      if (id === null) return null;
      const entity = await deps.service().findOne(id, query);
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
