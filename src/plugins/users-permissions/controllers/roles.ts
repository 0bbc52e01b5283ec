// /api/users-permissions/roles and /permissions (UP:controllers/role.js, permissions.js).
import _ from 'lodash';
import { ApplicationError, NotFoundError, ValidationError } from '../../../errors';
import type { RequestContext } from '../../../rest/context';
import { UP_ROLE_UID } from '../../../auth/abilities';
import { body, type ControllerDeps } from './context';

export function createRoleController(d: ControllerDeps) {
  const { services } = d;
  const roleParam = (ctx: RequestContext, key: string): number => {
    const raw = ctx.params[key];
    if (!/^\d{1,15}$/.test(raw ?? '')) throw new NotFoundError('Role not found');
    return Number(raw);
  };
  return {
    async find() {
      return { roles: await services.role.find() };
    },
    async findOne(ctx: RequestContext) {
      return { role: await services.role.findOne(roleParam(ctx, 'id')) };
    },
    async createRole(ctx: RequestContext) {
      if (_.isEmpty(body(ctx))) throw new ValidationError('Request body cannot be empty');
      await services.role.createRole(body(ctx));
      return { ok: true };
    },
    async updateRole(ctx: RequestContext) {
      const id = roleParam(ctx, 'id');
      if (_.isEmpty(body(ctx))) throw new ValidationError('Request body cannot be empty');
      await services.role.updateRole(id, body(ctx));
      return { ok: true };
    },
    async deleteRole(ctx: RequestContext) {
      const publicRole = await d.query(UP_ROLE_UID).findOne({ where: { type: 'public' }, select: ['id'] });
      if (!publicRole) throw new ApplicationError('Cannot find the public role');
      if (String(ctx.params.id) === String(publicRole.id)) throw new ApplicationError('Cannot delete public role');
      await services.role.deleteRole(roleParam(ctx, 'id'), publicRole.id);
      return { ok: true };
    },
    async getPermissions() {
      return { permissions: services['users-permissions'].getActions() };
    },
  };
}
