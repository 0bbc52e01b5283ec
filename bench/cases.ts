// The benchmark cases (issue 8), on a dataset written by generate.ts. Reads are answered by every server,
// the floor included; writes by Tessera and real Strapi only. GraphQL is not a case yet: Tessera has no
// GraphQL front door so far (add "GraphQL list of 25 articles with author and categories" when it does).
import qs from 'qs';
import { articleData, SEARCH_WORD, type DatasetShape } from './lib/content';
import type { LoadRequest } from './lib/load';

export interface CaseContext {
  shape: DatasetShape;
  /** unique per run: keeps created slugs unique across runs on the same database */
  runId: string;
}

export interface InjectRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  payload?: unknown;
}

export interface BenchCase {
  id: string;
  title: string;
  kind: 'read' | 'write';
  /** a representative request, for the tables */
  example: string;
  /** the floor answers it too */
  floor: boolean;
  /** GET paths whose answers must be equal on every server before measuring (reads) */
  samples(ctx: CaseContext): string[];
  /** the load: one request shape, varied per request where the case needs it */
  load(ctx: CaseContext): LoadRequest;
  /** n requests for counting SQL statements in-process */
  inject(ctx: CaseContext, n: number): InjectRequest[];
}

const q = (o: Record<string, unknown>) => qs.stringify(o, { encodeValuesOnly: true });
const FIND_ONE_QUERY = q({ populate: { author: { populate: 'avatar' }, categories: true } });

/** article ids spread over the dataset, the same on every run */
function idPool(ctx: CaseContext, n = 100): number[] {
  const N = ctx.shape.articles;
  return Array.from({ length: Math.min(n, N) }, (_, k) => 1 + ((k * 7919) % N));
}

/** How many articles are published (the generator's draft choice is deterministic). */
export function publishedCount(shape: DatasetShape): number {
  let n = 0;
  for (let i = 1; i <= shape.articles; i++) if (articleData(shape, i).publishedAt !== null) n++;
  return n;
}

function deepPage(ctx: CaseContext): number {
  return Math.max(1, Math.min(200, Math.ceil(publishedCount(ctx.shape) / 25)));
}

/** A GET case with one fixed URL. */
function fixedRead(id: string, title: string, path: (ctx: CaseContext) => string, example?: string): BenchCase {
  return {
    id, title, kind: 'read', floor: true, example: example ?? decodeURIComponent(path({} as CaseContext)),
    samples: (ctx) => [path(ctx)],
    load: (ctx) => ({ method: 'GET', path: path(ctx) }),
    inject: (ctx, n) => Array.from({ length: n }, () => ({ method: 'GET' as const, url: path(ctx) })),
  };
}

/** rotating over a list of values, one per request */
function rotating<T>(list: T[]): () => T {
  let i = 0;
  return () => list[i++ % list.length];
}

/** created slugs must be unique (v4 uid): one sequence for the whole process, warm-ups and passes included */
let createSeq = 0;

function createBody(ctx: CaseContext, k: number): Record<string, unknown> {
  const a = articleData(ctx.shape, ctx.shape.articles + 1 + (k % 1000));
  const { createdAt: _c, updatedAt: _u, publishedAt: _p, ...data } = a;
  void _c; void _u; void _p;
  return { data: { ...data, title: `${a.title} (bench ${ctx.runId}-${k})`, slug: `bench-${ctx.runId}-${k}` } };
}

function updateBody(ctx: CaseContext, id: number): Record<string, unknown> {
  const first = articleData(ctx.shape, id).categories[0];
  const other = (first % ctx.shape.categories) + 1;
  return { data: { categories: { connect: [{ id: other, position: { before: first } }] } } };
}

export const CASES: BenchCase[] = [
  fixedRead('list', 'list, default', () => '/api/articles'),
  fixedRead('populate', 'list, populate=*', () => `/api/articles?${q({ populate: '*' })}`),
  fixedRead('search', 'filter $containsi + sort views:desc', () => `/api/articles?${q({ filters: { title: { $containsi: SEARCH_WORD } }, sort: 'views:desc' })}`),
  {
    id: 'findone', title: 'findOne, author.avatar + categories', kind: 'read', floor: true,
    example: `/api/articles/:id?${FIND_ONE_QUERY}`,
    samples: (ctx) => idPool(ctx, 8).map((id) => `/api/articles/${id}?${FIND_ONE_QUERY}`),
    load(ctx) {
      const next = rotating(idPool(ctx).map((id) => `/api/articles/${id}?${FIND_ONE_QUERY}`));
      return { method: 'GET', path: `/api/articles/1?${FIND_ONE_QUERY}`, setup: (req) => ({ ...req, path: next() }) };
    },
    inject: (ctx, n) => idPool(ctx, n).map((id) => ({ method: 'GET' as const, url: `/api/articles/${id}?${FIND_ONE_QUERY}` })),
  },
  fixedRead('deep-filter', 'filter through categories', () => `/api/articles?${q({ filters: { categories: { slug: { $eq: 'category-3' } } } })}`),
  fixedRead('page-200', 'page 200 (deep offset)', (ctx) => `/api/articles?${q({ pagination: { page: deepPage(ctx) } })}`, '/api/articles?pagination[page]=200'),
  {
    id: 'create', title: 'create, relations + components + DZ', kind: 'write', floor: false,
    example: 'POST /api/articles {author, categories, seo, links, blocks, cover}',
    samples: () => [],
    load(ctx) {
      return {
        method: 'POST', path: '/api/articles', body: JSON.stringify(createBody(ctx, createSeq++)),
        setup: (req) => ({ ...req, body: JSON.stringify(createBody(ctx, createSeq++)) }),
      };
    },
    inject: (ctx, n) => Array.from({ length: n }, () => ({ method: 'POST' as const, url: '/api/articles', payload: createBody(ctx, createSeq++) })),
  },
  {
    id: 'update-connect', title: 'update, connect at a position', kind: 'write', floor: false,
    example: 'PUT /api/articles/:id {categories: {connect: [{id, position: {before}}]}}',
    samples: () => [],
    load(ctx) {
      const next = rotating(idPool(ctx));
      return {
        method: 'PUT', path: '/api/articles/1', body: JSON.stringify(updateBody(ctx, 1)),
        setup: (req) => {
          const id = next();
          return { ...req, path: `/api/articles/${id}`, body: JSON.stringify(updateBody(ctx, id)) };
        },
      };
    },
    inject: (ctx, n) => idPool(ctx, n).map((id) => ({ method: 'PUT' as const, url: `/api/articles/${id}`, payload: updateBody(ctx, id) })),
  },
];
