// The output types of a content type as v4 builds them: `<Type>` (its visible attributes), `<Type>Entity`
// (`id` + `attributes`), `<Type>EntityResponse`, `<Type>EntityResponseCollection` (with `meta`) and
// `<Type>RelationResponseCollection`. Types nothing refers to are left out when the schema is assembled,
// as v4's pruneSchema does. Fields switched off (`field(name).disableOutput()`) and fields whose target is
// switched off are left out; for a switched-off component (v4 fails to start) the field goes too.
import { GraphQLID, GraphQLObjectType, type GraphQLFieldConfig, type GraphQLFieldConfigMap, type GraphQLOutputType } from 'graphql';
import type { Attribute, ContentType } from '../../model/types';
import type { SchemaContext } from './context';
import { listArgs } from './internals';
import {
  baseName, componentName, dynamicZoneName, entityName, entityResponseCollectionName, entityResponseName, enumName,
  morphRelationName, relationResponseCollectionName, typeName,
} from './naming';
import { list, nonNull } from './registry';
import { SCALAR_OF } from './scalars';

const FILE_UID = 'plugin::upload.file';

/** the field of one attribute, or undefined when v4 leaves it out (a disabled target) */
function attributeField(ctx: SchemaContext, ct: ContentType, attr: Attribute): GraphQLFieldConfig<unknown, unknown> | undefined {
  const { types, model } = ctx;
  switch (attr.kind) {
    case 'scalar':
      return { type: types.output(attr.type === 'enumeration' ? enumName(ct, attr.name) : SCALAR_OF[attr.type]) };
    case 'component': {
      if (!ctx.isEnabled(attr.component)) return undefined;
      const component = model.require(attr.component);
      const type = types.output(componentName(component));
      return attr.repeatable ? { type: list(type), args: listArgs(types, component) } : { type };
    }
    case 'dynamiczone':
      return { type: list(types.output(dynamicZoneName(ct, attr.name))) };
    case 'media': {
      if (!ctx.isEnabled(FILE_UID)) return undefined;
      const file = model.require(FILE_UID);
      return attr.multiple
        ? { type: types.output(relationResponseCollectionName(file)), args: listArgs(types, file) }
        : { type: types.output(entityResponseName(file)) };
    }
    case 'relation': {
      const many = attr.many;
      if (attr.relation.startsWith('morph')) {
        const targets = attr.raw.target;
        if (targets === undefined || targets === null || targets === '') {
          const type = types.output('GenericMorph');
          return { type: many ? list(type) : type };
        }
        if (!Array.isArray(targets) || !targets.some((uid) => ctx.isEnabled(String(uid)))) return undefined;
        const type = types.output(morphRelationName(ct, attr.name));
        return { type: many ? list(type) : type };
      }
      if (!ctx.isEnabled(attr.target)) return undefined;
      const target = model.require(attr.target);
      return many
        ? { type: types.output(relationResponseCollectionName(target)), args: listArgs(types, target) }
        : { type: types.output(entityResponseName(target)) };
    }
  }
}

/** `<Type>` or a component's type: `id` first for components, then the attributes that are not private or off */
export function registerObjectType(ctx: SchemaContext, ct: ContentType): void {
  ctx.types.register(new GraphQLObjectType({
    name: baseName(ct),
    fields: () => {
      const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
      if (ct.kind === 'component' && ctx.hasOutput(ct.uid, 'id')) fields.id = { type: nonNull(GraphQLID) };
      for (const attr of Object.values(ct.attributes)) {
        if (ctx.isHidden(attr) || !ctx.hasOutput(ct.uid, attr.name)) continue;
        const field = attributeField(ctx, ct, attr);
        if (!field) continue;
        fields[attr.name] = attr.required ? { ...field, type: nonNull(field.type as GraphQLOutputType) } : field;
      }
      return fields;
    },
  }), ct);
}

export function registerEntityTypes(ctx: SchemaContext, ct: ContentType): void {
  const { types } = ctx;
  registerObjectType(ctx, ct);
  const entity = types.register(new GraphQLObjectType({
    name: entityName(ct),
    fields: () => ({
      id: { type: GraphQLID },
      ...(Object.keys(ct.attributes).length > 0 ? { attributes: { type: types.output(typeName(ct)) } } : {}),
    }),
  }), ct);
  types.register(new GraphQLObjectType({ name: entityResponseName(ct), fields: { data: { type: entity } } }), ct);
  types.register(new GraphQLObjectType({
    name: entityResponseCollectionName(ct),
    fields: () => ({
      data: { type: nonNull(list(nonNull(entity))) },
      meta: { type: nonNull(types.output('ResponseCollectionMeta')) },
    }),
  }), ct);
  types.register(new GraphQLObjectType({
    name: relationResponseCollectionName(ct),
    fields: { data: { type: nonNull(list(nonNull(entity))) } },
  }), ct);
}
