// `<Scalar>FilterInput` for every filterable scalar and `<Type>FiltersInput` for content types and components,
// as v4 builds them: scalars, relations (not morph) and components, then and/or/not. Media and dynamic zones
// are not filterable; nor are fields switched off (`field(name).disableFilters()`, a collection type's `id` too)
// and relations or components to a switched-off type. Stricter than v4: private and password attributes (a
// user's password and tokens, a file's folder, `secret`s) are left out, so they cannot be reached through
// filters (v4 lists them in the schema and rejects them when a query uses them).
import { GraphQLBoolean, GraphQLInputObjectType, type GraphQLInputFieldConfigMap } from 'graphql';
import type { ContentType } from '../../model/types';
import type { SchemaContext } from './context';
import { filtersInputName, scalarFilterInputName } from './naming';
import { list } from './registry';
import { FILTERABLE_SCALARS, SCALAR_OF } from './scalars';

/** v4's operators, in its order; `and`/`or` take lists, `null`/`notNull` booleans, `in`/`notIn`/`between` lists */
const OPERATORS = ['and', 'or', 'not', 'eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains',
  'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte', 'null', 'notNull', 'in', 'notIn', 'between'] as const;
const LIST_OPERATORS = new Set(['and', 'or', 'in', 'notIn', 'between']);

export function registerScalarFilters(ctx: SchemaContext): void {
  const { types } = ctx;
  for (const scalarName of FILTERABLE_SCALARS) {
    const scalar = types.input(scalarName);
    const filter: GraphQLInputObjectType = types.register(new GraphQLInputObjectType({
      name: scalarFilterInputName(scalarName),
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        for (const op of OPERATORS) {
          if (op === 'not') fields[op] = { type: filter };
          else if (op === 'null' || op === 'notNull') fields[op] = { type: GraphQLBoolean };
          else fields[op] = { type: LIST_OPERATORS.has(op) ? list(scalar) : scalar };
        }
        return fields;
      },
    }));
  }
}

export function registerFiltersInput(ctx: SchemaContext, ct: ContentType): void {
  const { types } = ctx;
  const name = filtersInputName(ct);
  types.register(new GraphQLInputObjectType({
    name,
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {};
      if (ct.kind === 'collectionType' && ctx.hasFilters(ct.uid, 'id')) fields.id = { type: types.input(scalarFilterInputName('ID')) };
      for (const attr of Object.values(ct.attributes)) {
        if (ctx.isHidden(attr) || !ctx.hasFilters(ct.uid, attr.name)) continue;
        if (attr.kind === 'scalar') {
          fields[attr.name] = { type: types.input(scalarFilterInputName(SCALAR_OF[attr.type])) };
        } else if (attr.kind === 'relation') {
          if (attr.relation.startsWith('morph') || !ctx.isEnabled(attr.target)) continue;
          fields[attr.name] = { type: types.input(filtersInputName(ctx.model.require(attr.target))) };
        } else if (attr.kind === 'component') {
          if (!ctx.isEnabled(attr.component)) continue;
          fields[attr.name] = { type: types.input(filtersInputName(ctx.model.require(attr.component))) };
        }
      }
      const self = types.input(name);
      fields.and = { type: list(self) };
      fields.or = { type: list(self) };
      fields.not = { type: self };
      return fields;
    },
  }), ct);
}
