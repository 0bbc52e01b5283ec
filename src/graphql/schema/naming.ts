// v4's GraphQL type and field names (plugin-graphql utils/naming), pure functions of the model.
import { camelCase, upperFirst, lowerFirst } from 'lodash';
import type { ContentType } from '../../model/types';

/** `plugin::users-permissions.user` -> `users-permissions`; undefined for api types */
function pluginName(ct: ContentType): string | undefined {
  const m = /^plugin::([^.]+)\./.exec(ct.uid);
  return m ? m[1] : undefined;
}

/** `Article`, `UsersPermissionsUser`, `I18NLocale`; `plural` gives the plural form (find query names) */
export function typeName(ct: ContentType, plural = false): string {
  const name = plural ? ct.pluralName : ct.singularName;
  return `${upperFirst(camelCase(pluginName(ct) ?? ''))}${upperFirst(camelCase(name))}`;
}

/** v4's component globalId: `ComponentSharedSeo` for `shared.seo` (a schema may set its own) */
export function componentName(ct: ContentType): string {
  const own = ct.schema.globalId;
  return typeof own === 'string' && own ? own : upperFirst(camelCase(`component_${ct.uid}`));
}

/** the object type of a content type or component */
export function baseName(ct: ContentType): string {
  return ct.kind === 'component' ? componentName(ct) : typeName(ct);
}

export const entityName = (ct: ContentType): string => `${typeName(ct)}Entity`;
export const entityResponseName = (ct: ContentType): string => `${entityName(ct)}Response`;
export const entityResponseCollectionName = (ct: ContentType): string => `${entityName(ct)}ResponseCollection`;
export const relationResponseCollectionName = (ct: ContentType): string => `${typeName(ct)}RelationResponseCollection`;
export const filtersInputName = (ct: ContentType): string => `${baseName(ct)}FiltersInput`;
export const inputName = (ct: ContentType): string => `${baseName(ct)}Input`;
export const scalarFilterInputName = (scalar: string): string => `${scalar}FilterInput`;

export function enumName(ct: ContentType, attribute: string): string {
  const own = ct.attributes[attribute]?.raw.enumName;
  if (typeof own === 'string' && own) return own;
  return `ENUM_${baseName(ct).toUpperCase()}_${attribute.toUpperCase()}`;
}

export const dynamicZoneName = (ct: ContentType, attribute: string): string =>
  `${typeName(ct)}${upperFirst(camelCase(attribute))}DynamicZone`;
export const dynamicZoneInputName = (ct: ContentType, attribute: string): string => `${dynamicZoneName(ct, attribute)}Input`;
export const morphRelationName = (ct: ContentType, attribute: string): string =>
  `${typeName(ct)}${upperFirst(camelCase(attribute))}Morph`;

export const findQueryName = (ct: ContentType): string => lowerFirst(typeName(ct, true));
export const findOneQueryName = (ct: ContentType): string => lowerFirst(typeName(ct));
export const createMutationName = (ct: ContentType): string => `create${typeName(ct)}`;
export const updateMutationName = (ct: ContentType): string => `update${typeName(ct)}`;
export const deleteMutationName = (ct: ContentType): string => `delete${typeName(ct)}`;
