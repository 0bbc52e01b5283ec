// Each dynamic zone: a union of its components' types and `Error` (what v4 answers for an unknown component),
// and an input scalar taking `{ __typename: "<ComponentType>", ...fields }` objects: as in v4, an item names
// its component by GraphQL type name (anything else is a document error), and becomes `{ __component, ... }`.
// A switched-off component is no member (v4 fails to start) and no accepted item.
import { GraphQLScalarType, GraphQLUnionType, Kind, valueFromASTUntyped, type GraphQLObjectType } from 'graphql';
import type { ContentType } from '../../model/types';
import type { SchemaContext } from './context';
import { componentName, dynamicZoneInputName, dynamicZoneName } from './naming';

export function registerDynamicZones(ctx: SchemaContext, ct: ContentType): void {
  const { types, model } = ctx;
  for (const attr of Object.values(ct.attributes)) {
    if (attr.kind !== 'dynamiczone') continue;
    const components = attr.components.filter((uid) => ctx.isEnabled(uid));
    const byTypeName = new Map(components.map((uid) => [componentName(model.require(uid)), uid]));
    types.register(new GraphQLUnionType({
      name: dynamicZoneName(ct, attr.name),
      types: () => [...byTypeName.keys(), 'Error'].map((name) => types.output(name) as GraphQLObjectType),
    }), ct);
    const toItem = (value: unknown): Record<string, unknown> => {
      const item = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
      const uid = typeof item.__typename === 'string' ? byTypeName.get(item.__typename) : undefined;
      if (!uid) throw new TypeError(`Component not found. expected one of: ${[...byTypeName.keys()].join(', ')}`);
      const { __typename: _t, ...fields } = item;
      return { __component: uid, ...fields };
    };
    types.register(new GraphQLScalarType({
      name: dynamicZoneInputName(ct, attr.name),
      serialize: (value) => value,
      parseValue: toItem,
      parseLiteral: (ast, variables) => toItem(ast.kind === Kind.OBJECT ? valueFromASTUntyped(ast, variables ?? undefined) : undefined),
    }), ct);
  }
}
