// `GenericMorph`: the union of every type and component type (what a target-less morph relation such as a
// file's `related` returns), and `<Type><Attribute>Morph` unions for morph relations with a target list (of
// the targets not switched off: v4 fails to start on one).
import { GraphQLUnionType, type GraphQLObjectType } from 'graphql';
import type { SchemaContext } from './context';
import { baseName, morphRelationName, typeName } from './naming';

export function registerMorphTypes(ctx: SchemaContext): void {
  const { types, model } = ctx;
  const members = ctx.shadowCrudTypes().map(baseName);
  types.register(new GraphQLUnionType({ name: 'GenericMorph', types: () => members.map((n) => types.output(n) as GraphQLObjectType) }));
  for (const ct of ctx.shadowCrudTypes()) {
    for (const attr of Object.values(ct.attributes)) {
      const targets = attr.raw.target;
      if (attr.kind !== 'relation' || !attr.relation.startsWith('morph') || !Array.isArray(targets)) continue;
      const enabled = targets.map(String).filter((uid) => ctx.isEnabled(uid));
      types.register(new GraphQLUnionType({
        name: morphRelationName(ct, attr.name),
        types: () => enabled.map((uid) => types.output(typeName(model.require(uid))) as GraphQLObjectType),
      }), ct);
    }
  }
}
