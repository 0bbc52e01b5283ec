// v4's internal types (Error, Pagination, ResponseCollectionMeta, PublicationState, PaginationArg) and the list
// arguments every collection field takes.
import {
  GraphQLEnumType, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLObjectType, GraphQLString,
  type GraphQLFieldConfigArgumentMap,
} from 'graphql';
import type { ContentType } from '../../model/types';
import { filtersInputName } from './naming';
import { list, nonNull, type TypeRegistry } from './registry';

export function registerInternals(types: TypeRegistry): void {
  types.register(new GraphQLObjectType({
    name: 'Error',
    fields: { code: { type: nonNull(GraphQLString) }, message: { type: GraphQLString } },
  }));
  const pagination = types.register(new GraphQLObjectType({
    name: 'Pagination',
    fields: {
      total: { type: nonNull(GraphQLInt) }, page: { type: nonNull(GraphQLInt) },
      pageSize: { type: nonNull(GraphQLInt) }, pageCount: { type: nonNull(GraphQLInt) },
    },
  }));
  types.register(new GraphQLObjectType({ name: 'ResponseCollectionMeta', fields: { pagination: { type: nonNull(pagination) } } }));
  types.register(new GraphQLEnumType({ name: 'PublicationState', values: { LIVE: { value: 'live' }, PREVIEW: { value: 'preview' } } }));
  types.register(new GraphQLInputObjectType({
    name: 'PaginationArg',
    fields: { page: { type: GraphQLInt }, pageSize: { type: GraphQLInt }, start: { type: GraphQLInt }, limit: { type: GraphQLInt } },
  }));
}

/** `filters`, `pagination = {}`, `sort = []`, and `publicationState = LIVE` where the target has drafts */
export function listArgs(types: TypeRegistry, ct: ContentType): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {
    filters: { type: types.input(filtersInputName(ct)) },
    pagination: { type: types.input('PaginationArg'), defaultValue: {} },
    sort: { type: list(GraphQLString), defaultValue: [] },
  };
  if (ct.kind === 'collectionType' && ct.draftAndPublish) Object.assign(args, publicationStateArg(types));
  return args;
}

export function publicationStateArg(types: TypeRegistry): GraphQLFieldConfigArgumentMap {
  return { publicationState: { type: types.input('PublicationState'), defaultValue: 'live' } };
}

export const idArg: GraphQLFieldConfigArgumentMap = { id: { type: GraphQLID } };
export const requiredIdArg: GraphQLFieldConfigArgumentMap = { id: { type: nonNull(GraphQLID) } };
