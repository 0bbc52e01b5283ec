// A REST query string (already parsed by qs) -> validated storage params. Everything a client names is
// checked against the model (query/parse-*.ts): unknown, private or forbidden keys are a 400 `Invalid
// parameter`, values are cast by attribute type, and every depth and size is bounded. Only the known
// parameters are read: anything else in the query string never reaches the storage layer.
import type { ContentType } from '../model/types';
import { ValidationError } from '../errors';
import type { FindParams, Where } from './types';
import { parsePagination, type Pagination } from './pagination';
import { parseFields } from './parse-fields';
import { parseFilters } from './parse-filters';
import { parsePopulate, populateNames } from './parse-populate';
import { parseSearch } from './parse-search';
import { parseSort } from './parse-sort';
import { orderByJoins, selectWithSortAttributes, whereJoins } from './sort-selection';
import type { QueryContext } from './query-context';

export type { QueryContext };

export interface RestQuery {
  /** marks a query that was already validated (a service called by a core controller) */
  readonly parsed: true;
  params: FindParams;
  pagination?: Pagination;
  /** `invalid`: a bad value where v4 ignores the parameter (parsePublicationStateParam) */
  publicationState: 'live' | 'preview' | 'invalid';
  /**
   * localized types: `locale=fr`, `all`, or what v4 also takes as a condition on `locale` (a list: any of
   * them; operators: `locale[$ne]=en`), already parsed as a filter value
   */
  locale?: string | unknown[] | Record<string, unknown>;
  /** what lifecycle hooks see as `populate` when the request names what to populate (parse-populate.ts populateNames) */
  hookPopulate?: string[];
}

export function isRestQuery(v: unknown): v is RestQuery {
  return typeof v === 'object' && v !== null && (v as { parsed?: unknown }).parsed === true;
}

function and(a: Where | undefined, b: Where | undefined): Where | undefined {
  return a && b ? { $and: [a, b] } : a ?? b;
}

/**
 * v4 validates `filters`, `sort`, `fields` and `populate` on every action (a findOne or a write with an
 * unknown filter key is a 400 too) and reports a validation mistake before a conversion mistake; filters
 * and sort apply to a collection's `find` and to a single type's read, not to a findOne by id.
 */
export function parseRestQuery(ctx: QueryContext, ct: ContentType, raw: Record<string, unknown>, action: 'find' | 'findOne' | 'write'): RestQuery {
  const later: ValidationError[] = [];
  const where = parseFilters(ctx, ct, raw.filters, later);
  const orderBy = parseSort(ctx, ct, raw.sort, later);
  const params: FindParams = {
    select: parseFields(ctx, ct, raw.fields),
    populate: parsePopulate(ctx, ct, raw.populate),
  };
  let pagination: Pagination | undefined;
  if (action === 'find') pagination = parsePagination(raw.pagination, ctx.pagination);
  if (later.length) throw later[0];
  const search = parseSearch(ctx.visibility, ct, raw._q);
  if (action === 'find' || (action === 'findOne' && ct.kind === 'singleType')) {
    params.where = and(where, search);
    params.orderBy = orderBy;
    params.select = selectWithSortAttributes(ct, params.select, orderBy, whereJoins(ct, where) || orderByJoins(orderBy));
  }
  if (pagination) {
    params.limit = pagination.limit;
    params.offset = pagination.offset;
  }
  return {
    parsed: true,
    params,
    pagination,
    publicationState: parsePublicationStateParam(raw.publicationState, action === 'find' || ct.kind === 'singleType'),
    locale: ct.localized ? parseLocale(ctx, ct, raw.locale) : undefined,
    hookPopulate: populateNames(ct, raw.populate, params.populate, ctx.maxPopulateDepth),
  };
}

/**
 * A find reads `publicationState`, and rejects a bad one; a findOne by id or a write ignores it in v4
 * (verified on 4.26.2), so a bad value there is kept as `invalid`: only findOne's opt-in switch
 * (rest.findOnePublicationState, content/core-service.ts) reads it, and rejects it then.
 */
function parsePublicationStateParam(raw: unknown, used: boolean): RestQuery['publicationState'] {
  const state = raw ?? 'live';
  if (state === 'live' || state === 'preview') return state;
  if (used) throw invalidPublicationState();
  return 'invalid';
}

export function invalidPublicationState(): ValidationError {
  return new ValidationError(`Invalid publicationState. Expected "live" or "preview"`);
}

/**
 * v4's i18n puts whatever `locale` holds into the filters as `{ locale: <value> }` (verified on 4.26.2: a list
 * selects any of its locales, `locale[$ne]=en` the others, keys that are no operator select every locale), so
 * anything but a plain code goes through the filter parser as a condition on the `locale` attribute.
 */
function parseLocale(ctx: QueryContext, ct: ContentType, raw: unknown): RestQuery['locale'] {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'string') return raw;
  const where = parseFilters(ctx, ct, { locale: raw });
  return (where?.locale ?? undefined) as RestQuery['locale'];
}
