// The GraphQL schema Strapi 4.26's graphql plugin generates for a project, built once from the Model, in v4's
// order: scalars, internals, then (shadow CRUD) per component and content type its enums, dynamic zones,
// filters, input, types and operations, GenericMorph, then the upload, users-permissions and i18n extensions.
// Types no operation reaches are dropped, as v4's pruneSchema drops them.
import { GraphQLBoolean, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, type GraphQLNamedType } from 'graphql';
import type { Model } from '../../model/types';
import { SchemaContext } from './context';
import { registerComponent } from './components';
import { registerDynamicZones } from './dynamic-zones';
import { registerEntityTypes } from './entity-types';
import { registerEnums } from './enums';
import { registerFiltersInput, registerScalarFilters } from './filters';
import { registerInput } from './inputs';
import { registerInternals } from './internals';
import { registerMorphTypes } from './morphs';
import { registerMutations } from './mutations';
import { registerQueries } from './queries';
import { TypeRegistry } from './registry';
import { createScalars } from './scalars';
import { configureI18n, registerI18n } from './plugins/i18n';
import { configureUsersPermissions, registerUsersPermissions } from './plugins/users-permissions';
import { registerUpload } from './plugins/upload';

export interface GraphqlSchemaOptions {
  /** `config/plugins.js` graphql.config.shadowCRUD (default true): false generates no content-type types or operations */
  shadowCRUD?: boolean;
  /** config/api.js `responses.privateAttributes` */
  privateAttributes?: Iterable<string>;
}

/**
 * Content types v4 gives no shadow CRUD: the admin's (disabled by the plugin) and content releases (registered
 * only with an Enterprise licence, which 4.26's Community Edition never has).
 */
function withoutShadowCrud(uid: string): boolean {
  return uid.startsWith('admin::') || uid.startsWith('plugin::content-releases.');
}

export function buildGraphqlSchema(model: Model, options: GraphqlSchemaOptions = {}): GraphQLSchema {
  const types = new TypeRegistry();
  const ctx = new SchemaContext(model, types, new Set(options.privateAttributes ?? []));
  for (const scalar of Object.values(createScalars())) types.register(scalar);
  registerInternals(types);
  registerScalarFilters(ctx);

  const shadowCRUD = options.shadowCRUD !== false;
  for (const ct of [...model.components.values(), ...model.contentTypes.values()]) {
    if (!shadowCRUD || withoutShadowCrud(ct.uid)) ctx.shadowCrud(ct.uid).disabled = true;
  }
  if (shadowCRUD) {
    // v4's plugins set their shadow-CRUD switches in register(), before the schema is built
    configureUsersPermissions(ctx);
    configureI18n(ctx);
    for (const ct of ctx.shadowCrudTypes()) {
      registerEnums(ctx, ct);
      registerDynamicZones(ctx, ct);
      registerFiltersInput(ctx, ct);
      registerInput(ctx, ct);
      if (ct.kind === 'component') {
        registerComponent(ctx, ct);
        continue;
      }
      registerEntityTypes(ctx, ct);
      registerQueries(ctx, ct);
      registerMutations(ctx, ct);
    }
    registerMorphTypes(ctx);
    registerUpload(ctx);
    registerUsersPermissions(ctx);
  }
  registerI18n(ctx);
  return assemble(types);
}

function assemble(types: TypeRegistry): GraphQLSchema {
  // nexus answers an empty Query with `ok: Boolean!`
  const query = new GraphQLObjectType({
    name: 'Query',
    fields: () => (types.query.size > 0 ? Object.fromEntries(types.query) : { ok: { type: new GraphQLNonNull(GraphQLBoolean) } }),
  });
  const mutation = types.mutation.size > 0 ? new GraphQLObjectType({ name: 'Mutation', fields: () => Object.fromEntries(types.mutation) }) : undefined;
  // what the operations reach, then listed in registration order (v4's printed order)
  const reachable = new GraphQLSchema({ query, mutation }).getTypeMap();
  const ordered: GraphQLNamedType[] = types.all().filter((t) => reachable[t.name] === t);
  return new GraphQLSchema({ types: ordered, query, mutation });
}
