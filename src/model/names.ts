// Storage names exactly as Strapi v4's database layer derives them (lodash snakeCase, link-table rules).
import snakeCase from 'lodash/snakeCase';

export { snakeCase };

export function columnName(attributeName: string): string {
  return snakeCase(attributeName);
}

export function linkTableName(tableName: string, attributeName: string): string {
  return `${tableName}_${snakeCase(attributeName)}_links`;
}

export function componentsTableName(tableName: string): string {
  return `${tableName}_components`;
}

/** `shared.seo` -> `components_shared_seos`, v4's default when a component has no collectionName. */
export function defaultComponentTable(category: string, modelName: string, pluralName: string): string {
  return `components_${snakeCase(category)}_${snakeCase(pluralName || modelName + 's')}`;
}

export const MEDIA_MORPH_TABLE = 'files_related_morphs';
export const COMPONENT_LINK = {
  entity: 'entity_id',
  component: 'component_id',
  type: 'component_type',
  field: 'field',
  order: 'order',
} as const;
