// users-permissions' own GraphQL operations, as v4's plugin resolves them (UP:server/graphql): `me` answers the
// signed-in user; login, register and the password and email flows call the auth controller with their
// arguments as the body (anyone may run them, v4's `auth: false`; changePassword needs its scope); users and
// roles get create/update/delete from the users and roles controllers, each behind v4's scope. The controllers
// are reached through their REST routes, so the auth routes' rate limits count GraphQL attempts in the same
// windows as REST ones (v4 has no limit on GraphQL: a login there was an unthrottled password guess).
import { GraphQLError, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { ForbiddenError } from '../../errors';
import type { Entity } from '../../query/types';
import type { RequestContext } from '../../rest/context';
import type { HttpMethod, RouteDef } from '../../rest/routes';
import type { GraphqlContext } from '../context';
import type { GraphqlDoor } from '../door';
import { entryOf } from '../shape';
import { callRest, restContext, type RestCall } from './rest-call';

const USER = 'plugin::users-permissions.user';
const SCOPE = 'plugin::users-permissions';

type Args = Record<string, unknown>;
type Resolver = GraphQLFieldResolver<unknown, GraphqlContext, Args>;

export interface UsersPermissionsGraphqlDeps {
  /**
   * the plugin's controller action, as v4's resolvers call it (`strapi.plugin('users-permissions').controller(name)`):
   * an extension that replaces it is called, a route it closes does not matter, no route middleware runs
   */
  action(controller: string, action: string): RouteDef['handler'] | undefined;
  /** v4's `emailConfirmation(ctx, next, returnUser)`: with `returnUser`, a JWT and the user instead of a redirect */
  emailConfirmation(ctx: RequestContext, next: unknown, returnUser: boolean): Promise<unknown>;
}

/** graphql-js may hand arguments over as objects without a prototype: the controllers get plain ones */
const plain = (value: unknown): Args => (value && typeof value === 'object' ? { ...(value as Args) } : {});

/** v4's LoginPayload from a controller's answer: `{ jwt, user }`, or the user alone */
function loginPayload(out: unknown): { jwt: unknown; user: unknown } {
  const o = (out ?? {}) as { jwt?: unknown; user?: unknown };
  return { user: o.user || out, jwt: o.jwt };
}

export function attachUsersPermissions(schema: GraphQLSchema, door: GraphqlDoor, deps: UsersPermissionsGraphqlDeps): void {
  const query = schema.getQueryType()?.getFields() ?? {};
  const mutation = schema.getMutationType()?.getFields() ?? {};
  if (!query.me) return; // the schema has no users-permissions operations (shadow CRUD off, or the types disabled)
  const userType = door.model.require(USER);

  const rest = (controller: string, action: string) => (ctx: GraphqlContext, call: RestCall) => {
    const handler = deps.action(controller, action);
    if (!handler) throw new Error(`graphql: the users-permissions action ${controller}.${action} is missing`);
    return callRest(handler, ctx, call);
  };
  const scoped = (action: string, resolve: Resolver): Resolver => (parent, args, ctx, info) => {
    door.authorize(ctx.auth, `${SCOPE}.${action}`);
    return resolve(parent, args, ctx, info);
  };
  /** `<Type>EntityResponse` of a user the controller answered; relations below it are loaded when selected */
  const userResponse = (value: unknown) => ({ data: value ? entryOf(door.model, userType, value as Entity, true) : null });

  const login = rest('auth', 'callback');
  const register = rest('auth', 'register');
  const forgotPassword = rest('auth', 'forgotPassword');
  const resetPassword = rest('auth', 'resetPassword');
  const changePassword = rest('auth', 'changePassword');
  const createUser = rest('user', 'create');
  const updateUser = rest('user', 'update');
  const deleteUser = rest('user', 'destroy');
  const createRole = rest('role', 'createRole');
  const updateRole = rest('role', 'updateRole');
  const deleteRole = rest('role', 'deleteRole');

  const resolvers: Record<string, Resolver> = {
    async login(_p, args, ctx) {
      const input = plain(args.input);
      return loginPayload(await login(ctx, { params: { provider: String(input.provider ?? 'local') }, body: input }));
    },
    async register(_p, args, ctx) {
      return loginPayload(await register(ctx, { body: plain(args.input) }));
    },
    async forgotPassword(_p, args, ctx) {
      const out = (await forgotPassword(ctx, { body: plain(args) })) as { ok?: unknown } | null;
      return { ok: out?.ok || out };
    },
    async resetPassword(_p, args, ctx) {
      return loginPayload(await resetPassword(ctx, { body: plain(args) }));
    },
    changePassword: scoped('auth.changePassword', async (_p, args, ctx) => loginPayload(await changePassword(ctx, { body: plain(args) }))),
    async emailConfirmation(_p, args, ctx) {
      return loginPayload(await deps.emailConfirmation(restContext(ctx, { query: plain(args) }), null, true));
    },
    createUsersPermissionsUser: scoped('user.create', async (_p, args, ctx) => userResponse(await createUser(ctx, { body: plain(args.data) }))),
    updateUsersPermissionsUser: scoped('user.update', async (_p, args, ctx) => userResponse(await updateUser(ctx, { params: { id: String(args.id) }, body: plain(args.data) }))),
    deleteUsersPermissionsUser: scoped('user.destroy', async (_p, args, ctx) => userResponse(await deleteUser(ctx, { params: { id: String(args.id) } }))),
    createUsersPermissionsRole: scoped('role.createRole', async (_p, args, ctx) => {
      await createRole(ctx, { body: plain(args.data) });
      return { ok: true };
    }),
    // v4 adds `role: id` to the body, so an empty `data` still passes the controller's empty-body check
    updateUsersPermissionsRole: scoped('role.updateRole', async (_p, args, ctx) => {
      await updateRole(ctx, { params: { id: String(args.id) }, body: { ...plain(args.data), role: args.id } });
      return { ok: true };
    }),
    deleteUsersPermissionsRole: scoped('role.deleteRole', async (_p, args, ctx) => {
      await deleteRole(ctx, { params: { id: String(args.id) } });
      return { ok: true };
    }),
  };
  for (const [name, resolve] of Object.entries(resolvers)) if (mutation[name]) mutation[name].resolve = resolve as never;

  query.me.resolve = ((_p: unknown, _a: Args, ctx: GraphqlContext) => {
    // v4 verifies that someone is authenticated (Public: Forbidden), then wants a user, not an API token
    if (ctx.auth.kind === 'public' || ctx.auth.kind === 'none') throw new ForbiddenError();
    if (ctx.auth.kind !== 'user') throw new GraphQLError('Authentication requested');
    return ctx.auth.user;
  }) as never;
}
