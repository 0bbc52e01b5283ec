// The `filters` of v4's entity service (`strapi.entityService.findMany(uid, { filters })`), as @strapi/utils'
// convertFiltersQueryParams keeps them: a key that is neither an operator nor an attribute of the type is
// dropped (not refused), through relations, components and media; filters on dynamic zones and passwords are
// dropped; `$null` / `$notNull` values become booleans; an object left empty goes. Plugins rely on it: slugify
// passes a request's raw query on (`?filters[nope][$eq]=1` finds the entry in v4).
import _ from 'lodash';
import { ValidationError } from '../errors';
import type { ContentType, Model } from '../model/types';
import type { Where } from './types';

// @strapi/utils' isOperator: where, cast, group and array operators (case-sensitive)
const V4_OPERATORS = new Set([
  '$and', '$or', '$not', '$in', '$notIn', '$eq', '$eqi', '$ne', '$nei', '$gt', '$gte', '$lt', '$lte', '$null', '$notNull',
  '$between', '$startsWith', '$endsWith', '$startsWithi', '$endsWithi', '$contains', '$notContains', '$containsi',
  '$notContainsi', '$jsonSupersetOf',
]);

/** @strapi/utils parseType boolean with forceCast */
function toBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (['true', 't', '1', 1].includes(value as string)) return true;
  if (['false', 'f', '0', 0].includes(value as string)) return false;
  return Boolean(value);
}

export function entityServiceFilters(model: Model, ct: ContentType, filters: unknown): Where {
  // v4 throws a plain Error (a 500 when a controller passes it on): a 400 here
  if (!_.isObject(filters)) throw new ValidationError('The filters parameter must be an object or an array');
  return convert(model, _.cloneDeep(filters), ct) as Where;
}

function convert(model: Model, filters: unknown, ct: ContentType | undefined): unknown {
  if (Array.isArray(filters)) {
    return filters.map((f) => convert(model, f, ct)).filter((f) => !_.isPlainObject(f) || !_.isEmpty(f));
  }
  if (!_.isPlainObject(filters)) return filters;
  const node = filters as Record<string, unknown>;
  for (const [key, value] of Object.entries(node)) {
    const attr = ct?.attributes[key];
    const valid = V4_OPERATORS.has(key) || key === 'id' || attr !== undefined;
    if (!valid) {
      delete node[key];
    } else if (attr) {
      if (attr.kind === 'relation') node[key] = convert(model, value, attr.target ? model.get(attr.target) : undefined);
      else if (attr.kind === 'component') node[key] = convert(model, value, model.get(attr.component));
      else if (attr.kind === 'media') node[key] = convert(model, value, model.get('plugin::upload.file'));
      else if (attr.kind === 'dynamiczone' || (attr.kind === 'scalar' && attr.type === 'password')) delete node[key];
      else node[key] = convert(model, value, ct);
    } else if (key === '$null' || key === '$notNull') {
      node[key] = toBoolean(value);
    } else if (_.isObject(value)) {
      node[key] = convert(model, value, ct);
    }
    if (_.isPlainObject(node[key]) && _.isEmpty(node[key])) delete node[key];
  }
  return node;
}
