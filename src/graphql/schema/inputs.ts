// `<Type>Input` / `<Component>Input`: the writable attributes (v4's isWritableAttribute: not id, createdAt,
// updatedAt or `writable: false`) minus those a plugin turned off (i18n's locale and localizations);
// relations and media as IDs, components as their inputs, dynamic zones as `[<Zone>Input!]`.
// Private attributes stay writable, as in v4's REST and GraphQL (a user's password, an author's secret).
// Fields switched off (`field(name).disableInput()`: a component's `id` too) and fields whose target is switched
// off are left out; for a switched-off component (v4 fails to start) the field goes too.
import { GraphQLID, GraphQLInputObjectType, type GraphQLInputFieldConfig, type GraphQLInputFieldConfigMap } from 'graphql';
import type { Attribute, ContentType } from '../../model/types';
import type { SchemaContext } from './context';
import { dynamicZoneInputName, enumName, inputName } from './naming';
import { list, nonNull } from './registry';
import { SCALAR_OF } from './scalars';

function inputField(ctx: SchemaContext, ct: ContentType, attr: Attribute): GraphQLInputFieldConfig | undefined {
  const { types, model } = ctx;
  switch (attr.kind) {
    case 'scalar':
      return { type: types.input(attr.type === 'enumeration' ? enumName(ct, attr.name) : SCALAR_OF[attr.type]) };
    case 'media':
      if (!ctx.isEnabled('plugin::upload.file')) return undefined;
      return { type: attr.multiple ? list(GraphQLID) : GraphQLID };
    case 'relation':
      if (attr.relation.startsWith('morph') || !ctx.isEnabled(attr.target)) return undefined;
      return { type: attr.relation.endsWith('Many') ? list(GraphQLID) : GraphQLID };
    case 'component': {
      if (!ctx.isEnabled(attr.component)) return undefined;
      const type = types.input(inputName(model.require(attr.component)));
      return { type: attr.repeatable ? list(type) : type };
    }
    case 'dynamiczone':
      return { type: list(nonNull(types.input(dynamicZoneInputName(ct, attr.name)))) };
  }
}

export function registerInput(ctx: SchemaContext, ct: ContentType): void {
  ctx.types.register(new GraphQLInputObjectType({
    name: inputName(ct),
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {};
      if (ct.kind === 'component' && ctx.hasInput(ct.uid, 'id')) fields.id = { type: GraphQLID };
      for (const attr of Object.values(ct.attributes)) {
        if (!attr.writable || !ctx.hasInput(ct.uid, attr.name)) continue;
        const field = inputField(ctx, ct, attr);
        if (field) fields[attr.name] = field;
      }
      return fields;
    },
  }), ct);
}
