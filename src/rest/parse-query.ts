// A REST query string (already parsed by qs) -> validated storage params. Everything a client names is
// checked against the model (query/parse-*.ts): unknown, private or forbidden keys are a 400 `Invalid
// parameter`, values are cast by attribute type, and every depth and size is bounded.
import type { ContentType } from '../model/types';
import { ValidationError } from '../errors';
import type { FindParams } from '../query/types';
import { parsePagination, type Pagination } from '../query/pagination';
import { parseFields } from '../query/parse-fields';
import { parseFilters } from '../query/parse-filters';
import { parsePopulate } from '../query/parse-populate';
import { parseSort } from '../query/parse-sort';
import type { QueryContext } from '../query/query-context';

export type { QueryContext };

export interface RestQuery {
  /** marks a query that was already validated (a service called by a core controller) */
  readonly parsed: true;
  params: FindParams;
  pagination?: Pagination;
  publicationState: 'live' | 'preview';
  locale?: string;
}

export function isRestQuery(v: unknown): v is RestQuery {
  return typeof v === 'object' && v !== null && (v as { parsed?: unknown }).parsed === true;
}

export function parseRestQuery(ctx: QueryContext, ct: ContentType, raw: Record<string, unknown>, action: 'find' | 'findOne' | 'write'): RestQuery {
  const params: FindParams = {
    select: parseFields(ctx, ct, raw.fields),
    populate: parsePopulate(ctx, ct, raw.populate),
  };
  let pagination: Pagination | undefined;
  if (action === 'find') {
    params.where = parseFilters(ctx, ct, raw.filters);
    params.orderBy = parseSort(ctx, ct, raw.sort);
    pagination = parsePagination(raw.pagination, ctx.pagination);
    params.limit = pagination.limit;
    params.offset = pagination.offset;
  }
  const state = raw.publicationState ?? 'live';
  if (state !== 'live' && state !== 'preview') throw new ValidationError(`Invalid publicationState. Expected "live" or "preview"`);
  return {
    parsed: true,
    params,
    pagination,
    publicationState: state,
    locale: typeof raw.locale === 'string' ? raw.locale : undefined,
  };
}
