// Shadow-CRUD mutations: create/update/delete for collection types, update (create-or-update) and delete for
// single types, each unless its switches turn it off. Operation fields only.
import type { ContentType } from '../../model/types';
import type { SchemaContext } from './context';
import { requiredIdArg } from './internals';
import { createMutationName, deleteMutationName, entityResponseName, inputName, updateMutationName } from './naming';
import { nonNull } from './registry';

export function registerMutations(ctx: SchemaContext, ct: ContentType): void {
  const { types } = ctx;
  const response = types.output(entityResponseName(ct));
  const data = { data: { type: nonNull(types.input(inputName(ct))) } };
  const single = ct.kind === 'singleType';
  if (!single && ctx.hasOperation(ct.uid, 'create')) {
    types.addMutation(createMutationName(ct), { type: response, args: { ...data } });
  }
  if (ctx.hasOperation(ct.uid, 'update')) {
    types.addMutation(updateMutationName(ct), { type: response, args: single ? { ...data } : { ...requiredIdArg, ...data } });
  }
  if (ctx.hasOperation(ct.uid, 'delete')) {
    types.addMutation(deleteMutationName(ct), { type: response, args: single ? {} : { ...requiredIdArg } });
  }
}
