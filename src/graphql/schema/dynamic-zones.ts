// Each dynamic zone: a union of its components' types and `Error` (what v4 answers for an unknown component),
// and an input scalar taking `{ __component, ...fields }` objects.
import { GraphQLScalarType, GraphQLUnionType, Kind, valueFromASTUntyped, type GraphQLObjectType } from 'graphql';
import type { ContentType } from '../../model/types';
import type { SchemaContext } from './context';
import { componentName, dynamicZoneInputName, dynamicZoneName } from './naming';

export function registerDynamicZones(ctx: SchemaContext, ct: ContentType): void {
  const { types, model } = ctx;
  for (const attr of Object.values(ct.attributes)) {
    if (attr.kind !== 'dynamiczone') continue;
    types.register(new GraphQLUnionType({
      name: dynamicZoneName(ct, attr.name),
      types: () => [...attr.components.map((uid) => componentName(model.require(uid))), 'Error']
        .map((name) => types.output(name) as GraphQLObjectType),
    }), ct);
    types.register(new GraphQLScalarType({
      name: dynamicZoneInputName(ct, attr.name),
      serialize: (value) => value,
      parseValue: (value) => value,
      parseLiteral: (ast, variables) => (ast.kind === Kind.OBJECT ? valueFromASTUntyped(ast, variables ?? undefined) : undefined),
    }), ct);
  }
}
