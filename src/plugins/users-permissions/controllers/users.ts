// /api/users: find, findOne, count, me, create, update, destroy (UP:controllers/user.js). Plain bodies,
// no data envelope; queries validated like every content-API query (private fields, unreadable relations).
import _ from 'lodash';
import { ApplicationError, NotFoundError, UnauthorizedError, ValidationError } from '../../../errors';
import type { RequestContext } from '../../../rest/context';
import { parseRestQuery } from '../../../query/parse-query';
import type { Entity, FindParams } from '../../../query/types';
import { validatedRead, type ReadShape } from '../../../storage/hooked-entities';
import { UP_ROLE_UID } from '../../../auth/abilities';
import { UP_USER_UID } from '../../../auth/jwt-strategy';
import { schemas, validateBody } from '../validation';
import { body, sanitizeUser, stateUser, type ControllerDeps } from './context';

/** v4 sets `ctx.body = null` here, which koa answers with 204 */
function noContent(ctx: RequestContext): null {
  ctx.status = 204;
  return null;
}

const userId = (ctx: RequestContext): number | null => (/^\d{1,15}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : null);

export function createUserController(d: ControllerDeps) {
  const users = () => d.query(UP_USER_UID);
  /** a validated read and its shape (lifecycle hooks see v4's populate: storage/hooked-entities.ts) */
  const readOf = (ctx: RequestContext, action: 'find' | 'findOne'): [FindParams, ReadShape] => {
    const q = parseRestQuery(d.queryContext(ctx), d.userType, ctx.query, action);
    return [q.params, validatedRead(q.params, q.hookPopulate)];
  };
  const listQuery = (ctx: RequestContext): [FindParams, ReadShape] => {
    const [params, read] = readOf(ctx, 'find');
    // v4 pages this list only when asked to (entityService.findMany has no default limit)
    if (ctx.query.pagination === undefined && ctx.query.start === undefined && ctx.query.limit === undefined) {
      delete params.limit;
      delete params.offset;
    }
    return [params, read];
  };

  return {
    async find(ctx: RequestContext) {
      return sanitizeUser(d, await users().findMany(...listQuery(ctx)), ctx);
    },

    async findOne(ctx: RequestContext) {
      const id = userId(ctx);
      const [params, read] = readOf(ctx, 'findOne');
      const user = id === null ? null : await users().findOne({ ...params, where: { id } }, read);
      if (!user) return noContent(ctx);
      return sanitizeUser(d, user, ctx);
    },

    async count(ctx: RequestContext) {
      const { params } = parseRestQuery(d.queryContext(ctx), d.userType, ctx.query, 'find');
      return users().count({ where: params.where });
    },

    async me(ctx: RequestContext) {
      const current = stateUser(ctx);
      if (!current) throw new UnauthorizedError('Unauthorized');
      const [params, read] = readOf(ctx, 'findOne');
      const user = await users().findOne({ ...params, where: { id: current.id } }, read);
      return sanitizeUser(d, user, ctx);
    },

    async create(ctx: RequestContext) {
      const advanced = await d.settings.advanced();
      validateBody(schemas.createUser, ctx.request.body);
      const input = body(ctx);
      const email = String(input.email);
      if (advanced.unique_email && (await users().findOne({ where: { email: email.toLowerCase() }, select: ['id'] }))) {
        throw new ApplicationError('Email already taken');
      }
      const data: Record<string, unknown> = { ...input, email: email.toLowerCase(), provider: 'local' };
      if (!data.role) {
        const role = await d.query(UP_ROLE_UID).findOne({ where: { type: advanced.default_role }, select: ['id'] });
        data.role = role?.id;
      }
      let user: Entity;
      try {
        user = await d.services.user.add(data);
      } catch (err) {
        throw new ApplicationError((err as Error).message);
      }
      ctx.status = 201;
      return sanitizeUser(d, user, ctx);
    },

    async update(ctx: RequestContext) {
      const advanced = await d.settings.advanced();
      const id = userId(ctx);
      const user = id === null ? null : await d.services.user.fetch(id);
      if (!user) throw new NotFoundError('User not found');
      validateBody(schemas.updateUser, ctx.request.body);
      const input = { ...body(ctx) };
      if (user.provider === 'local' && _.has(input, 'password') && !input.password) throw new ValidationError('password.notNull');
      if (_.has(input, 'username')) {
        const same = await users().findOne({ where: { username: input.username }, select: ['id'] });
        if (same && String(same.id) !== String(user.id)) throw new ApplicationError('Username already taken');
      }
      if (_.has(input, 'email') && advanced.unique_email) {
        const same = await users().findOne({ where: { email: String(input.email).toLowerCase() }, select: ['id'] });
        if (same && String(same.id) !== String(user.id)) throw new ApplicationError('Email already taken');
        input.email = String(input.email).toLowerCase();
      }
      return sanitizeUser(d, await d.services.user.edit(user.id, input), ctx);
    },

    async destroy(ctx: RequestContext) {
      const id = userId(ctx);
      const deleted = id === null ? null : await d.services.user.remove({ id });
      return deleted ? sanitizeUser(d, deleted, ctx) : noContent(ctx);
    },
  };
}
