// The GraphQL schema Strapi 4.26's graphql plugin generates for a project, built once from the Model, in v4's
// order: scalars, internals, then (shadow CRUD) per component and content type its enums, dynamic zones,
// filters, input, types and operations, GenericMorph, then the upload, users-permissions and i18n extensions.
// The shadow-CRUD switches of the extension service decide what is generated; then the schema is pruned as
// v4's is (prune.ts): types no operation reaches or without fields go, and every field that referred to them.
import { GraphQLBoolean, GraphQLNonNull, GraphQLObjectType, GraphQLSchema } from 'graphql';
import type { Model } from '../../model/types';
import { createExtensionService, type ExtensionService } from '../extension/extension-service';
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
import { pruneSchema } from './prune';
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
  /**
   * the project's switches (strapi.plugin('graphql').service('extension'), with applyPluginSwitches applied);
   * none: a fresh service with the plugins' switches only
   */
  extension?: ExtensionService;
  /** false: every registered type kept, for extensions merged first and pruned after (pruneSchema), as v4 */
  prune?: boolean;
}

/**
 * The switches v4's users-permissions and i18n plugins set in their register(), before the project's: the graphql
 * plugin sets them on its extension service when it is created, so the project's register() reads them there.
 */
export function applyPluginSwitches(extension: Pick<ExtensionService, 'shadowCRUD'>, model: Model): void {
  configureUsersPermissions(extension);
  configureI18n(extension, model);
}

export function buildGraphqlSchema(model: Model, options: GraphqlSchemaOptions = {}): GraphQLSchema {
  const shadowCRUD = options.shadowCRUD !== false;
  let extension = options.extension;
  if (!extension) applyPluginSwitches((extension = createExtensionService()), model);
  const types = new TypeRegistry();
  const ctx = new SchemaContext(model, types, extension, new Set(options.privateAttributes ?? []), shadowCRUD);
  for (const scalar of Object.values(createScalars())) types.register(scalar);
  registerInternals(types);
  registerScalarFilters(ctx);

  if (shadowCRUD) {
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
  return assemble(types, options.prune !== false);
}

function assemble(types: TypeRegistry, prune: boolean): GraphQLSchema {
  // nexus answers an empty Query with `ok: Boolean!`
  const query = new GraphQLObjectType({
    name: 'Query',
    fields: () => (types.query.size > 0 ? Object.fromEntries(types.query) : { ok: { type: new GraphQLNonNull(GraphQLBoolean) } }),
  });
  const mutation = types.mutation.size > 0 ? new GraphQLObjectType({ name: 'Mutation', fields: () => Object.fromEntries(types.mutation) }) : undefined;
  // every type in registration order (v4's printed order); pruning keeps that order
  const schema = new GraphQLSchema({ types: types.all(), query, mutation });
  return prune ? pruneSchema(schema) : schema;
}
