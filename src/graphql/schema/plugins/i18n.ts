// The i18n extension of v4's GraphQL plugin: locales get no mutations, localized types take no `locale` or
// `localizations` in their input, every Query and Mutation field returning a localized type takes
// `locale: I18NLocaleCode`, and each localized type gets `create<Type>Localization`.
import { GraphQLID, getNamedType } from 'graphql';
import type { Model } from '../../../model/types';
import type { ExtensionService } from '../../extension/extension-service';
import type { SchemaContext } from '../context';
import { entityResponseName, inputName, typeName } from '../naming';
import type { RootField } from '../registry';
import { createLocaleScalar } from '../scalars';

/** v4's register() of the plugin's GraphQL part */
export function configureI18n(extension: Pick<ExtensionService, 'shadowCRUD'>, model: Model): void {
  extension.shadowCRUD('plugin::i18n.locale').disableMutations();
  for (const ct of model.contentTypes.values()) {
    if (!ct.localized) continue;
    extension.shadowCRUD(ct.uid).field('locale').disableInput();
    extension.shadowCRUD(ct.uid).field('localizations').disableInput();
  }
}

export function registerI18n(ctx: SchemaContext): void {
  const { types } = ctx;
  const locale = types.register(createLocaleScalar());
  for (const ct of ctx.shadowCrudTypes()) {
    if (!ct.localized || ct.kind === 'component') continue;
    types.addMutation(`create${typeName(ct)}Localization`, {
      type: types.output(entityResponseName(ct)),
      args: { id: { type: GraphQLID }, data: { type: types.input(inputName(ct)) } },
    });
  }
  // v4 adds the argument in a nexus plugin when each root field is defined, after the field's own arguments
  const addLocale = (field: RootField): void => {
    const owner = types.ownerOf(getNamedType(field.type).name);
    if (owner?.localized) field.args = { ...field.args, locale: { type: locale } };
  };
  for (const field of types.query.values()) addLocale(field);
  for (const field of types.mutation.values()) addLocale(field);
}
