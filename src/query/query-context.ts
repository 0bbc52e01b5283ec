// What every query-parameter parser shares: the context a request is checked in (model, visibility,
// what the caller may read, pagination settings), the 400 for an invalid key, and the attribute lookups.
import type { Attribute, ContentType, Model } from '../model/types';
import { ValidationError } from '../errors';
import type { Visibility } from './visibility';
import type { PaginationConfig } from './pagination';

export interface QueryContext {
  model: Model;
  visibility: Visibility;
  /** may the caller `find` this model (relations in filters, sort and populate) */
  canRead(uid: string): boolean;
  pagination: PaginationConfig;
  /** config/api.js `rest.maxPopulateDepth`: levels of `populate` (MAX_POPULATE_DEPTH when absent) */
  maxPopulateDepth?: number;
  /** bounds for requests from clients; absent for project code (only the depth bound applies) */
  limits?: QueryLimits;
}

/** What one request may ask for (config/api.js `rest.maxFilter*`, docs/configuration.md). */
export interface QueryLimits {
  /** nesting levels of one `filters` tree */
  filterDepth: number;
  /** conditions in one `filters` tree: each operator applied to an attribute, each relation crossed */
  filterConditions: number;
  /** values in one list (`$in`, `$notIn`, or a list given to any operator) */
  listLength: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { filterDepth: 20, filterConditions: 200, listLength: 1000 };

/** config/api.js `rest.maxFilterDepth`, `rest.maxFilterConditions`, `rest.maxFilterListLength` over the defaults */
export function queryLimits(get: (key: string) => unknown): QueryLimits {
  const n = (key: string, fallback: number) => {
    const v = Number(get(`api.rest.${key}`) ?? fallback);
    return Number.isInteger(v) && v > 0 ? v : fallback;
  };
  return {
    filterDepth: n('maxFilterDepth', DEFAULT_QUERY_LIMITS.filterDepth),
    filterConditions: n('maxFilterConditions', DEFAULT_QUERY_LIMITS.filterConditions),
    listLength: n('maxFilterListLength', DEFAULT_QUERY_LIMITS.listLength),
  };
}

export const MAX_POPULATE_DEPTH = 10;
export const MAX_FILTER_DEPTH = 20;

export function invalid(key: string): never {
  throw new ValidationError(`Invalid parameter ${key}`);
}

/**
 * The first mistake found for each of v4's validation rules. v4 runs its rules one after another over a
 * whole parameter, so with several mistakes the earliest rule decides the message; rule 0 (an unknown
 * key) always comes first, so it throws at once.
 */
export class FirstMistake {
  private readonly found: (string | undefined)[] = [];
  report(rule: number, message: string): void {
    if (rule === 0) throw new ValidationError(message);
    this.found[rule] ??= message;
  }
  /** throws the first mistake; with `later`, mistakes of rules from `laterFrom` on are handed over instead */
  finish(later?: ValidationError[], laterFrom = Infinity): void {
    this.found.forEach((message, rule) => {
      if (message === undefined) return;
      if (later && rule >= laterFrom) later.push(new ValidationError(message));
      else throw new ValidationError(message);
    });
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** the model a relation, media or component attribute points at (none for morphs and dynamic zones) */
export function relationTarget(model: Model, attr: Attribute): ContentType | undefined {
  if (attr.kind === 'relation') return attr.relation.startsWith('morph') ? undefined : model.get(attr.target);
  if (attr.kind === 'media') return model.get('plugin::upload.file');
  if (attr.kind === 'component') return model.get(attr.component);
  return undefined;
}

