// v4's `service('utils')` (naming, attributes, mappers) and `service('constants')`, as extensions and custom
// resolvers use them: the same names as the schema builder gives (schema/naming.ts), for a content type given
// as v4 passes it (`strapi.contentType(uid)`, or anything with its `uid`).
import { upperFirst } from 'lodash';
import type { ContentType, Model } from '../../model/types';
import { toV4Filters } from '../filters';
import * as naming from '../schema/naming';

const GRAPHQL_SCALARS = ['ID', 'Boolean', 'Int', 'String', 'Long', 'Float', 'JSON', 'Date', 'Time', 'DateTime'];
const SCALARS_ASSOCIATIONS: Record<string, string> = {
  uid: 'String', email: 'String', password: 'String', text: 'String', boolean: 'Boolean', integer: 'Int', string: 'String',
  enumeration: 'String', richtext: 'String', blocks: 'JSON', biginteger: 'Long', float: 'Float', decimal: 'Float', json: 'JSON',
  date: 'Date', time: 'Time', datetime: 'DateTime', timestamp: 'DateTime',
};
const STRAPI_SCALARS = Object.keys(SCALARS_ASSOCIATIONS);
const OPERATORS = ['and', 'or', 'not', 'eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains', 'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte', 'null', 'notNull', 'in', 'notIn', 'between'];

/** v4's `service('constants')` */
export function createConstantsService() {
  return {
    PAGINATION_TYPE_NAME: 'Pagination',
    RESPONSE_COLLECTION_META_TYPE_NAME: 'ResponseCollectionMeta',
    PUBLICATION_STATE_TYPE_NAME: 'PublicationState',
    ERROR_TYPE_NAME: 'Error',
    GENERIC_MORPH_TYPENAME: 'GenericMorph',
    GRAPHQL_SCALARS,
    STRAPI_SCALARS,
    SCALARS_ASSOCIATIONS,
    GRAPHQL_SCALAR_OPERATORS: Object.fromEntries(GRAPHQL_SCALARS.map((s) => [s, OPERATORS])),
    ERROR_CODES: { emptyDynamicZone: 'dynamiczone.empty' },
    KINDS: {
      type: 'type', component: 'component', dynamicZone: 'dynamic-zone', enum: 'enum', entity: 'entity', entityResponse: 'entity-response',
      entityResponseCollection: 'entity-response-collection', relationResponseCollection: 'relation-response-collection', query: 'query',
      mutation: 'mutation', input: 'input', filtersInput: 'filters-input', scalar: 'scalar', morph: 'polymorphic', internal: 'internal',
    },
  };
}

type Attr = { type?: unknown; relation?: unknown; component?: unknown };

/** v4's `service('utils')` */
export function createUtilsService(model: Model) {
  /** the model of a content type or component v4 code hands over (its schema object, or a uid) */
  const ctOf = (contentType: unknown): ContentType => {
    const uid = typeof contentType === 'string' ? contentType : (contentType as { uid?: unknown } | null)?.uid;
    const ct = typeof uid === 'string' ? model.get(uid) : undefined;
    if (!ct) throw new Error(`graphql utils: not a content type or component: ${typeof uid === 'string' ? uid : JSON.stringify(contentType)}`);
    return ct;
  };
  const getTypeName = (ct: unknown, { plurality = 'singular' }: { plurality?: string } = {}) => naming.typeName(ctOf(ct), plurality === 'plural');
  const buildCustomTypeNameGenerator = (options: { prefix?: string; suffix?: string; plurality?: string; firstLetterCase?: string } = {}) => {
    const { prefix = '', suffix = '', plurality = 'singular', firstLetterCase = 'upper' } = options;
    if (!['plural', 'singular'].includes(plurality)) throw new Error(`"plurality" param must be either "plural" or "singular", but got: "${plurality}"`);
    return (ct: unknown) => {
      const name = getTypeName(ct, { plurality });
      return `${prefix}${firstLetterCase === 'upper' ? upperFirst(name) : name.charAt(0).toLowerCase() + name.slice(1)}${suffix}`;
    };
  };
  const getComponentName = (ct: unknown) => naming.componentName(ctOf(ct));

  const attributes = {
    isStrapiScalar: (a: Attr) => STRAPI_SCALARS.includes(String(a?.type)),
    isGraphQLScalar: (a: Attr) => GRAPHQL_SCALARS.includes(String(a?.type)),
    isMorphRelation: (a: Attr) => a?.type === 'relation' && String(a.relation).includes('morph'),
    isMedia: (a: Attr) => a?.type === 'media',
    isRelation: (a: Attr) => a?.type === 'relation',
    isEnumeration: (a: Attr) => a?.type === 'enumeration',
    isComponent: (a: Attr) => a?.type === 'component',
    isDynamicZone: (a: Attr) => a?.type === 'dynamiczone',
  };

  /** v4's graphQLFiltersToStrapiQuery: a `…FiltersInput` value (or a list of them) -> `$` operators; nil -> {} */
  const graphQLFiltersToStrapiQuery = (filters: unknown, contentType: unknown): unknown => {
    if (filters === null || filters === undefined) return {};
    if (Array.isArray(filters)) return filters.map((f) => graphQLFiltersToStrapiQuery(f, contentType));
    const ct = ctOf(contentType);
    return toV4Filters(model, ct, filters) ?? {};
  };
  const entityToResponseEntity = (entity: { id?: unknown }) => ({ id: entity.id, attributes: entity });

  return {
    naming: {
      getTypeName,
      getEnumName: (ct: unknown, attribute: string) => naming.enumName(ctOf(ct), attribute),
      getEntityName: (ct: unknown) => naming.entityName(ctOf(ct)),
      getEntityMetaName: (ct: unknown) => `${naming.entityName(ctOf(ct))}Meta`,
      getEntityResponseName: (ct: unknown) => naming.entityResponseName(ctOf(ct)),
      getEntityResponseCollectionName: (ct: unknown) => naming.entityResponseCollectionName(ctOf(ct)),
      getRelationResponseCollectionName: (ct: unknown) => naming.relationResponseCollectionName(ctOf(ct)),
      getComponentName,
      getComponentNameFromAttribute: (attribute: Attr) => getComponentName(attribute.component),
      getDynamicZoneName: (ct: unknown, attribute: string) => naming.dynamicZoneName(ctOf(ct), attribute),
      getDynamicZoneInputName: (ct: unknown, attribute: string) => naming.dynamicZoneInputName(ctOf(ct), attribute),
      getComponentInputName: (ct: unknown) => `${getComponentName(ct)}Input`,
      getContentTypeInputName: (ct: unknown) => `${getTypeName(ct)}Input`,
      getEntityQueriesTypeName: (ct: unknown) => `${naming.entityName(ctOf(ct))}Queries`,
      getEntityMutationsTypeName: (ct: unknown) => `${naming.entityName(ctOf(ct))}Mutations`,
      getFiltersInputTypeName: (ct: unknown) => naming.filtersInputName(ctOf(ct)),
      getScalarFilterInputTypeName: (scalar: string) => naming.scalarFilterInputName(scalar),
      getMorphRelationTypeName: (ct: unknown, attribute: string) => naming.morphRelationName(ctOf(ct), attribute),
      buildCustomTypeNameGenerator,
      getFindQueryName: (ct: unknown) => naming.findQueryName(ctOf(ct)),
      getFindOneQueryName: (ct: unknown) => naming.findOneQueryName(ctOf(ct)),
      getCreateMutationTypeName: (ct: unknown) => naming.createMutationName(ctOf(ct)),
      getUpdateMutationTypeName: (ct: unknown) => naming.updateMutationName(ctOf(ct)),
      getDeleteMutationTypeName: (ct: unknown) => naming.deleteMutationName(ctOf(ct)),
    },
    attributes,
    mappers: {
      strapiScalarToGraphQLScalar: (type: string) => SCALARS_ASSOCIATIONS[type],
      graphQLFiltersToStrapiQuery,
      entityToResponseEntity,
      entitiesToResponseEntities: (entities: Array<{ id?: unknown }>) => entities.map(entityToResponseEntity),
    },
  };
}
