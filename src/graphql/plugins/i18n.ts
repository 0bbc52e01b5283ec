// i18n's `create<Type>Localization(id, data, locale)`: v4's createLocalization handler (the same as REST's
// `POST /api/<plural>/:id/localizations`) with `data` and `locale` as the body, behind the
// `<uid>.createLocalization` scope; the new entry is then read back with what the selection asks for, as the
// shadow-CRUD writes read theirs.
import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { parseRestQuery } from '../../query/parse-query';
import type { Entity } from '../../query/types';
import type { HttpMethod, RouteDef } from '../../rest/routes';
import type { GraphqlContext } from '../context';
import type { GraphqlDoor } from '../door';
import { selectionParams } from '../resolvers';
import { entryOf } from '../shape';
import { typeName } from '../schema/naming';
import { callRest } from './rest-call';

type Args = Record<string, unknown>;

export interface I18nGraphqlDeps {
  /** a content-API route's handler by method and path below the REST prefix */
  route(method: HttpMethod, path: string): RouteDef['handler'] | undefined;
}

export function attachI18n(schema: GraphQLSchema, door: GraphqlDoor, deps: I18nGraphqlDeps): void {
  const mutation = schema.getMutationType()?.getFields() ?? {};
  for (const ct of door.model.apiTypes()) {
    const field = ct.localized ? mutation[`create${typeName(ct)}Localization`] : undefined;
    if (!field) continue;
    const path = ct.kind === 'singleType' ? `/${ct.singularName}/localizations` : `/${ct.pluralName}/:id/localizations`;
    const handler = deps.route('POST', path);
    if (!handler) throw new Error(`graphql: the i18n route POST ${path} is missing`);
    const resolve: GraphQLFieldResolver<unknown, GraphqlContext, Args> = async (_p, args, ctx, info) => {
      door.authorize(ctx.auth, `${ct.uid}.createLocalization`);
      // validated before the write, as the shadow-CRUD writes validate their selection
      const { params, planner } = selectionParams(door, ctx, ct, info);
      const q = parseRestQuery(door.queryContext(ctx.auth), ct, params, 'write');
      const data = args.data && typeof args.data === 'object' ? { ...(args.data as Args) } : {};
      const target: Record<string, string> = ct.kind === 'singleType' ? {} : { id: String(args.id ?? '') };
      const call = { params: target, body: { ...data, locale: args.locale } };
      const created = (await callRest(handler, ctx, call)) as Entity;
      const entity = await door.core(ct.uid).findOne(created.id, q);
      return { data: entity ? entryOf(door.model, ct, entity, planner.needsLoader) : null };
    };
    field.resolve = resolve as never;
  }
}
