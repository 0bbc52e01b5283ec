// The users-permissions extension of v4's GraphQL plugin: permissions get no operations, users and roles keep
// their queries but get v4's own create/update/delete mutations, plus `me`, login, register and the
// password flows, with v4's types and descriptions. A project that switches users or roles off loses the
// mutations on them (v4 fails to start).
import { GraphQLBoolean, GraphQLID, GraphQLInputObjectType, GraphQLObjectType, GraphQLString } from 'graphql';
import type { ExtensionService } from '../../extension/extension-service';
import type { SchemaContext } from '../context';
import { nonNull } from '../registry';

const USER = 'plugin::users-permissions.user';
const ROLE = 'plugin::users-permissions.role';

/** v4's register() of the plugin: permissions get no operations, users and roles no shadow-CRUD mutations */
export function configureUsersPermissions(extension: Pick<ExtensionService, 'shadowCRUD'>): void {
  extension.shadowCRUD('plugin::users-permissions.permission').disableQueries().disableMutations();
  for (const uid of [USER, ROLE]) extension.shadowCRUD(uid).disableActions(['create', 'update', 'delete']);
}

export function registerUsersPermissions(ctx: SchemaContext): void {
  const { types } = ctx;
  const meRole = new GraphQLObjectType({
    name: 'UsersPermissionsMeRole',
    fields: { id: { type: nonNull(GraphQLID) }, name: { type: nonNull(GraphQLString) }, description: { type: GraphQLString }, type: { type: GraphQLString } },
  });
  const me = types.register(new GraphQLObjectType({
    name: 'UsersPermissionsMe',
    fields: {
      id: { type: nonNull(GraphQLID) }, username: { type: nonNull(GraphQLString) }, email: { type: GraphQLString },
      confirmed: { type: GraphQLBoolean }, blocked: { type: GraphQLBoolean }, role: { type: meRole },
    },
  }));
  types.register(meRole);
  const registerInput = types.register(new GraphQLInputObjectType({
    name: 'UsersPermissionsRegisterInput',
    fields: { username: { type: nonNull(GraphQLString) }, email: { type: nonNull(GraphQLString) }, password: { type: nonNull(GraphQLString) } },
  }));
  const loginInput = types.register(new GraphQLInputObjectType({
    name: 'UsersPermissionsLoginInput',
    fields: {
      identifier: { type: nonNull(GraphQLString) }, password: { type: nonNull(GraphQLString) },
      provider: { type: nonNull(GraphQLString), defaultValue: 'local' },
    },
  }));
  const ok = (name: string): GraphQLObjectType => types.register(new GraphQLObjectType({ name, fields: { ok: { type: nonNull(GraphQLBoolean) } } }));
  const passwordPayload = ok('UsersPermissionsPasswordPayload');
  const loginPayload = types.register(new GraphQLObjectType({
    name: 'UsersPermissionsLoginPayload',
    fields: { jwt: { type: GraphQLString }, user: { type: nonNull(me) } },
  }));
  const createRole = ok('UsersPermissionsCreateRolePayload');
  const updateRole = ok('UsersPermissionsUpdateRolePayload');
  const deleteRole = ok('UsersPermissionsDeleteRolePayload');

  types.addQuery('me', { type: me });

  const id = { type: nonNull(GraphQLID) };
  const str = { type: nonNull(GraphQLString) };
  const m = types.addMutation.bind(types);
  if (ctx.isEnabled(ROLE)) {
    const roleData = { type: nonNull(types.input('UsersPermissionsRoleInput')) };
    m('createUsersPermissionsRole', { description: 'Create a new role', type: createRole, args: { data: roleData } });
    m('updateUsersPermissionsRole', { description: 'Update an existing role', type: updateRole, args: { id, data: roleData } });
    m('deleteUsersPermissionsRole', { description: 'Delete an existing role', type: deleteRole, args: { id } });
  }
  if (ctx.isEnabled(USER)) {
    const userData = { type: nonNull(types.input('UsersPermissionsUserInput')) };
    const userResponse = nonNull(types.output('UsersPermissionsUserEntityResponse'));
    m('createUsersPermissionsUser', { description: 'Create a new user', type: userResponse, args: { data: userData } });
    m('updateUsersPermissionsUser', { description: 'Update an existing user', type: userResponse, args: { id, data: userData } });
    m('deleteUsersPermissionsUser', { description: 'Delete an existing user', type: userResponse, args: { id } });
  }
  m('login', { type: nonNull(loginPayload), args: { input: { type: nonNull(loginInput) } } });
  m('register', { description: 'Register a user', type: nonNull(loginPayload), args: { input: { type: nonNull(registerInput) } } });
  m('forgotPassword', { description: 'Request a reset password token', type: passwordPayload, args: { email: str } });
  m('resetPassword', {
    description: 'Reset user password. Confirm with a code (resetToken from forgotPassword)',
    type: loginPayload, args: { password: str, passwordConfirmation: str, code: str },
  });
  m('changePassword', {
    description: 'Change user password. Confirm with the current password.',
    type: loginPayload, args: { currentPassword: str, password: str, passwordConfirmation: str },
  });
  m('emailConfirmation', { description: 'Confirm an email users email address', type: loginPayload, args: { confirmation: str } });
}
