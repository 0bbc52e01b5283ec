// The plugin's services as v4 project code calls them (`strapi.plugin('users-permissions').service(x)`):
// `user`, `role`, `users-permissions` (actions tree, templates) and `jwt`; same names, parameters and results
// as @strapi/plugin-users-permissions 4.26.2 (UP:services/*.js).
import crypto from 'node:crypto';
import _ from 'lodash';
import { NotFoundError } from '../../errors';
import type { EntityService } from '../../core/entity-service';
import type { QueryFn } from '../../query/query-engine';
import type { Entity } from '../../query/types';
import { UP_PERMISSION_UID, UP_ROLE_UID } from '../../auth/abilities';
import { UP_USER_UID } from '../../auth/jwt-strategy';
import { verifyPassword } from '../../auth/passwords';
import type { JwtService } from '../../auth/jwt';
import { ensureUsersPermissions } from '../../auth/users-permissions-bootstrap';
import { renderTemplate, type EmailService } from '../email';
import type { Settings } from './settings';

export type ActionsTree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }>;

export interface ServicesDeps {
  query: QueryFn;
  entityService: () => EntityService;
  settings: Settings;
  jwt: JwtService;
  email: () => EmailService | undefined;
  /** `api::x` and `plugin::y` -> controller -> actions, in v4's order */
  actions: () => Array<[string, string, string[]]>;
  serverUrl: () => string;
  adminUrl: () => string;
  apiPrefix: string;
  log: { error(msg: string): void };
  /** the user as a template may show it (no private attribute) */
  publicUser(user: Entity): Entity;
}

const urlJoin = (...parts: string[]) => parts.map((p, i) => (i === 0 ? p.replace(/\/+$/, '') : p.replace(/^\/+|\/+$/g, ''))).filter(Boolean).join('/');

export function createServices(d: ServicesDeps) {
  const users = () => d.query(UP_USER_UID);
  const roles = () => d.query(UP_ROLE_UID);
  const permissions = () => d.query(UP_PERMISSION_UID);

  const usersPermissions = {
    getActions({ defaultEnable = false } = {}): ActionsTree {
      const tree: ActionsTree = {};
      for (const [type, controller, actions] of d.actions()) {
        tree[type] ??= { controllers: {} };
        tree[type].controllers[controller] = Object.fromEntries(actions.map((a) => [a, { enabled: defaultEnable, policy: '' }]));
      }
      return tree;
    },
    async initialize(): Promise<void> {
      await ensureUsersPermissions({ query: d.query });
    },
    updateUserRole(user: { id: number }, role: number) {
      return users().update({ where: { id: user.id }, data: { role } });
    },
    template(layout: string, data: Record<string, unknown>): string {
      return renderTemplate(layout, data);
    },
  };

  const user = {
    count: (params?: Record<string, unknown>) => users().count({ where: params }),
    add: (values: Record<string, unknown>) => d.entityService().create(UP_USER_UID, { data: values, populate: ['role'] }),
    edit: (userId: number | string, params: Record<string, unknown> = {}) => d.entityService().update(UP_USER_UID, userId, { data: params, populate: ['role'] }),
    fetch: (id: number | string, params?: Record<string, unknown>) => d.entityService().findOne(UP_USER_UID, id, params),
    fetchAuthenticatedUser: (id: number) => users().findOne({ where: { id }, populate: ['role'] }),
    fetchAll: (params?: Record<string, unknown>) => d.entityService().findMany(UP_USER_UID, params) as Promise<Entity[]>,
    remove: (params: Record<string, unknown>) => users().delete({ where: params }),
    validatePassword: (password: unknown, hash: unknown) => verifyPassword(password, hash),
    async sendConfirmationEmail(u: Entity): Promise<void> {
      const settings = (await d.settings.email()).email_confirmation.options;
      const confirmationToken = crypto.randomBytes(20).toString('hex');
      await user.edit(u.id, { confirmationToken });
      let message: string;
      let subject: string;
      try {
        const data = {
          URL: urlJoin(d.serverUrl(), d.apiPrefix, '/auth/email-confirmation'),
          SERVER_URL: d.serverUrl(), ADMIN_URL: d.adminUrl(), USER: d.publicUser(u), CODE: confirmationToken,
        };
        message = renderTemplate(settings.message, data);
        subject = renderTemplate(settings.object, { USER: data.USER });
      } catch {
        d.log.error('[plugin::users-permissions.sendConfirmationEmail]: Failed to generate a template for "user confirmation email". Please make sure your email template is valid and does not contain invalid characters or patterns');
        return;
      }
      await d.email()?.send({
        to: u.email as string,
        from: settings.from.email && settings.from.name ? `${settings.from.name} <${settings.from.email}>` : undefined,
        replyTo: settings.response_email, subject, text: message, html: message,
      });
    },
  };

  const actionsOf = (tree: ActionsTree | undefined): string[] => {
    const out: string[] = [];
    for (const [type, t] of Object.entries(tree ?? {})) {
      for (const [controller, actions] of Object.entries(t?.controllers ?? {})) {
        for (const [action, v] of Object.entries(actions ?? {})) if ((v as { enabled?: unknown })?.enabled) out.push(`${type}.${controller}.${action}`);
      }
    }
    return out;
  };

  const role = {
    async createRole(params: Record<string, unknown>): Promise<void> {
      const data = _.pick(params, ['name', 'description', 'type']);
      if (!data.type) data.type = _.snakeCase(_.deburr(_.toLower(String(params.name ?? ''))));
      const created = await roles().create({ data });
      for (const action of actionsOf(params.permissions as ActionsTree)) await permissions().create({ data: { action, role: created.id } });
    },
    async findOne(roleID: number | string) {
      const found = await roles().findOne({ where: { id: Number(roleID) }, populate: ['permissions'] });
      if (!found) throw new NotFoundError('Role not found');
      const tree = usersPermissions.getActions();
      for (const p of found.permissions as Array<{ action: string }>) {
        const [type, controller, action] = p.action.split('.');
        _.set(tree, [type, 'controllers', controller, action], { enabled: true, policy: '' });
      }
      return { ...found, permissions: tree };
    },
    async find() {
      // v4 passes `sort: ['name']`, which its query engine ignores: the roles come in id order
      const list = await roles().findMany({ orderBy: [{ id: 'asc' }] });
      for (const r of list) r.nb_users = await users().count({ where: { role: { id: r.id } } });
      return list;
    },
    async updateRole(roleID: number | string, data: Record<string, unknown>): Promise<void> {
      const found = await roles().findOne({ where: { id: Number(roleID) }, populate: ['permissions'] });
      if (!found) throw new NotFoundError('Role not found');
      await roles().update({ where: { id: found.id }, data: _.pick(data, ['name', 'description']) });
      const wanted = actionsOf(data.permissions as ActionsTree);
      const current = found.permissions as Array<{ id: number; action: string }>;
      for (const p of current.filter((c) => !wanted.includes(c.action))) await permissions().delete({ where: { id: p.id } });
      const have = current.map((c) => c.action);
      for (const action of wanted.filter((a) => !have.includes(a))) await permissions().create({ data: { action, role: found.id } });
    },
    async deleteRole(roleID: number | string, publicRoleID: number): Promise<void> {
      const found = await roles().findOne({ where: { id: Number(roleID) }, populate: ['users', 'permissions'] });
      if (!found) throw new NotFoundError('Role not found');
      for (const u of found.users as Entity[]) await users().update({ where: { id: u.id }, data: { role: publicRoleID } });
      for (const p of found.permissions as Entity[]) await permissions().delete({ where: { id: p.id } });
      await roles().delete({ where: { id: found.id } });
    },
  };

  const permission = {
    findRolePermissions: (roleID: number) => permissions().findMany({ where: { role: { id: roleID } } }),
    findPublicPermissions: () => permissions().findMany({ where: { role: { type: 'public' } } }),
    toContentAPIPermission: (p: { action: string }) => ({ action: p.action }),
  };

  return { user, role, 'users-permissions': usersPermissions, jwt: d.jwt, permission };
}

export type UpServices = ReturnType<typeof createServices>;
