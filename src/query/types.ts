// The storage-level query language: the shape of Strapi v4's `strapi.query(uid)` params, which is also
// what the REST and GraphQL front doors produce after validating a request.

export type Where = Record<string, unknown>;

export type OrderBy = string | Record<string, unknown> | Array<string | Record<string, unknown>>;

export interface PopulateNode {
  select?: string[];
  where?: Where;
  orderBy?: OrderBy;
  limit?: number;
  offset?: number;
  count?: boolean;
  populate?: Populate;
  /** dynamic zones: per component uid */
  on?: Record<string, PopulateNode | true>;
  /** v4 `populate[x][publicationState]`: overrides the request's state for this relation and below */
  publicationState?: 'live' | 'preview';
}

/** `true`: every relation one level; string[]: these attributes; object: per attribute */
export type Populate = true | string[] | Record<string, PopulateNode | boolean>;

export interface FindParams {
  select?: string[];
  where?: Where;
  orderBy?: OrderBy;
  limit?: number;
  offset?: number;
  populate?: Populate;
}

export interface WriteParams {
  data: Record<string, unknown>;
  where?: Where;
  select?: string[];
  populate?: Populate;
}

/** A flat entity as v4's query engine returns it. */
export type Entity = { id: number } & Record<string, unknown>;

export const OPERATORS = [
  '$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn',
  '$contains', '$notContains', '$containsi', '$notContainsi', '$null', '$notNull', '$between',
  '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
] as const;
export const LOGICAL = ['$and', '$or', '$not'] as const;
export type Operator = (typeof OPERATORS)[number];
export const OPERATOR_SET: ReadonlySet<string> = new Set(OPERATORS);
