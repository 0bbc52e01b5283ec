// Shadow-CRUD queries: `<type>(id)` and `<types>(filters, pagination, sort[, publicationState])` for collection
// types, `<type>[(publicationState)]` for single types, each unless its switches turn it off. Operation fields
// only; resolvers are attached elsewhere.
import type { GraphQLFieldConfigArgumentMap } from 'graphql';
import type { ContentType } from '../../model/types';
import type { SchemaContext } from './context';
import { idArg, listArgs, publicationStateArg } from './internals';
import { entityResponseCollectionName, entityResponseName, findOneQueryName, findQueryName } from './naming';

export function registerQueries(ctx: SchemaContext, ct: ContentType): void {
  const { types } = ctx;
  if (ct.kind === 'singleType') {
    if (!ctx.hasOperation(ct.uid, 'find')) return;
    const args: GraphQLFieldConfigArgumentMap = ct.draftAndPublish ? publicationStateArg(types) : {};
    types.addQuery(findOneQueryName(ct), { type: types.output(entityResponseName(ct)), args });
    return;
  }
  if (ctx.hasOperation(ct.uid, 'findOne')) {
    types.addQuery(findOneQueryName(ct), { type: types.output(entityResponseName(ct)), args: { ...idArg } });
  }
  if (ctx.hasOperation(ct.uid, 'find')) {
    types.addQuery(findQueryName(ct), { type: types.output(entityResponseCollectionName(ct)), args: listArgs(types, ct) });
  }
}
