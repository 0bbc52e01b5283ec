// The benchmark cases (issue 8), on a dataset written by generate.ts. REST reads are answered by every
// server, the floor included; writes and GraphQL (issue 14) by Tessera and real Strapi only (the floor
// has no GraphQL).
import qs from 'qs';
import { articleData, categoryData, isDraft, RARE_SEARCH_WORD, SEARCH_WORD, type DatasetShape } from './lib/content';
import { fixtureToken } from './lib/fixture';
import { componentTypename, graphqlRequest } from './lib/graphql';
import type { LoadRequest } from './lib/load';
import { seededRandom } from './lib/seeded-random';

export interface CaseContext {
  shape: DatasetShape;
  /** unique per run: keeps created slugs unique across runs on the same database */
  runId: string;
}

export interface InjectRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

export interface BenchCase {
  id: string;
  title: string;
  kind: 'read' | 'write';
  /** a representative request, for the tables */
  example: string;
  /** the floor answers it too */
  floor: boolean;
  /** a POST /graphql case: answers compared by `data`, and an answer with `errors` is a failure (lib/graphql.ts) */
  graphql?: boolean;
  /** run only when named in --cases, alone or through a group (CASE_GROUPS): the response cache's cases (issue 17), the scale ones (issue 22) */
  extra?: boolean;
  /**
   * the requests carry `If-None-Match` with the ETag the server gave for the first one (fetched once per
   * measurement), so a server that keeps answers sends 304s; a server that gives no ETag gets the plain request
   */
  conditional?: boolean;
  /** requests whose answers must be equal on every server before measuring (writes: sent once to each) */
  samples(ctx: CaseContext): InjectRequest[];
  /** the load: one request shape, varied per request where the case needs it */
  load(ctx: CaseContext): LoadRequest;
  /** n requests for counting SQL statements in-process */
  inject(ctx: CaseContext, n: number): InjectRequest[];
  /** reads: every distinct request the load sends (the bare node:http server keeps Tessera's answer to each) */
  distinct?(ctx: CaseContext): InjectRequest[];
}

const q = (o: Record<string, unknown>) => qs.stringify(o, { encodeValuesOnly: true });
const FIND_ONE_QUERY = q({ populate: { author: { populate: 'avatar' }, categories: true } });
const LIST_URL = '/api/articles';
const POPULATE_URL = `/api/articles?${q({ populate: '*' })}`;

/** article ids spread over the dataset, the same on every run */
function idPool(ctx: CaseContext, n = 100): number[] {
  const N = ctx.shape.articles;
  return Array.from({ length: Math.min(n, N) }, (_, k) => 1 + ((k * 7919) % N));
}

const publishedCounts = new Map<string, number>();

/** How many articles are published (the generator's draft choice is deterministic). */
export function publishedCount(shape: DatasetShape): number {
  const key = JSON.stringify(shape);
  let n = publishedCounts.get(key);
  if (n === undefined) {
    n = 0;
    for (let i = 1; i <= shape.articles; i++) if (!isDraft(shape, i)) n++;
    publishedCounts.set(key, n);
  }
  return n;
}

/** the last page of published articles at 25 per page */
const lastPage = (ctx: CaseContext) => Math.max(1, Math.ceil(publishedCount(ctx.shape) / 25));

function deepPage(ctx: CaseContext): number {
  return Math.min(200, lastPage(ctx));
}

/** A GET case with one fixed URL. */
function fixedRead(id: string, title: string, path: (ctx: CaseContext) => string, example?: string): BenchCase {
  return {
    id, title, kind: 'read', floor: true, example: example ?? decodeURIComponent(path({} as CaseContext)),
    samples: (ctx) => [{ method: 'GET', url: path(ctx) }],
    load: (ctx) => ({ method: 'GET', path: path(ctx) }),
    inject: (ctx, n) => Array.from({ length: n }, () => ({ method: 'GET' as const, url: path(ctx) })),
    distinct: (ctx) => [{ method: 'GET', url: path(ctx) }],
  };
}

/** GET /api/articles/:id?<query> over the spread ids, 100 in rotation */
function findOneCase(id: string, title: string, query: string, floor: boolean): BenchCase {
  const url = (articleId: number) => `/api/articles/${articleId}?${query}`;
  return {
    id, title, kind: 'read', floor,
    example: decodeURIComponent(url(0).replace('/0?', '/:id?')),
    samples: (ctx) => idPool(ctx, 8).map((n) => ({ method: 'GET' as const, url: url(n) })),
    load(ctx) {
      const next = rotating(idPool(ctx).map(url));
      return { method: 'GET', path: url(1), setup: (req) => ({ ...req, path: next() }) };
    },
    inject: (ctx, n) => idPool(ctx, n).map((k) => ({ method: 'GET' as const, url: url(k) })),
    distinct: (ctx) => idPool(ctx).map((k) => ({ method: 'GET' as const, url: url(k) })),
  };
}

/** POST /api/articles, a new article (unique slug) per request */
function createCase(id: string, title: string, example: string, body: (ctx: CaseContext, k: number) => Record<string, unknown>): BenchCase {
  return {
    id, title, kind: 'write', floor: false, example,
    samples: () => [],
    load(ctx) {
      return {
        method: 'POST', path: '/api/articles', body: JSON.stringify(body(ctx, createSeq++)),
        setup: (req) => ({ ...req, body: JSON.stringify(body(ctx, createSeq++)) }),
      };
    },
    inject: (ctx, n) => Array.from({ length: n }, () => ({ method: 'POST' as const, url: '/api/articles', payload: body(ctx, createSeq++) })),
  };
}

/** rotating over a list of values, one per request */
function rotating<T>(list: T[]): () => T {
  let i = 0;
  return () => list[i++ % list.length];
}

/** created slugs must be unique (v4 uid): one sequence for the whole process, warm-ups and passes included */
let createSeq = 0;

/** the data of a new article: an entry past the dataset's end, with a unique title and slug */
function newArticle(ctx: CaseContext, k: number | string) {
  const a = articleData(ctx.shape, ctx.shape.articles + 1 + (typeof k === 'number' ? k % 1000 : 0));
  const { createdAt: _c, updatedAt: _u, publishedAt: _p, ...data } = a;
  void _c; void _u; void _p;
  return { ...data, title: `${a.title} (bench ${ctx.runId}-${k})`, slug: `bench-${ctx.runId}-${k}` };
}

function createBody(ctx: CaseContext, k: number): Record<string, unknown> {
  return { data: newArticle(ctx, k) };
}

/** the new article with its author and categories only: no components, no media */
function createLinksBody(ctx: CaseContext, k: number): Record<string, unknown> {
  const { seo: _s, links: _l, blocks: _b, cover: _c, ...data } = newArticle(ctx, k);
  void _s; void _l; void _b; void _c;
  return { data };
}

function updateBody(ctx: CaseContext, id: number): Record<string, unknown> {
  const first = articleData(ctx.shape, id).categories[0];
  const other = (first % ctx.shape.categories) + 1;
  return { data: { categories: { connect: [{ id: other, position: { before: first } }] } } };
}

// ---- GraphQL (POST /graphql, v4's shadow CRUD) ----
// The fixture app's depthLimit is 7 (the top field is depth 0): one relation level under an entry fits;
// `article { data { attributes { author { data { attributes { articles { data { attributes { title` (depth 9)
// is refused by real Strapi and Tessera alike (400 GRAPHQL_VALIDATION_FAILED), so gql-findone stops there.

const GQL_LIST = `query List($pageSize: Int) { articles(pagination: { pageSize: $pageSize }) { data { id attributes {
  title slug
  author { data { id attributes { name } } }
  categories { data { id attributes { name } } } } } } }`;

const GQL_COMPONENTS = `query Components($pageSize: Int) { articles(pagination: { pageSize: $pageSize }) { data { id attributes {
  title
  seo { id metaTitle metaDescription shareImage { data { id attributes { name url } } } }
  links { id label url }
  blocks {
    __typename
    ... on ComponentBlocksText { id body }
    ... on ComponentBlocksQuote { id text by }
    ... on ComponentBlocksGallery { id title images { data { id attributes { name url } } } }
  } } } } }`;

const GQL_FIND_ONE = `query FindOne($id: ID!) { article(id: $id) { data { id attributes {
  title slug publishDate
  author { data { id attributes { name email } } }
  categories { data { id attributes { name slug } } }
  cover { data { id attributes { name url } } } } } } }`;

const GQL_CREATE = `mutation Create($data: ArticleInput!) { createArticle(data: $data) { data { id attributes {
  title slug
  author { data { id } }
  categories { data { id } }
  seo { metaTitle shareImage { data { id } } }
  links { label url }
  blocks { __typename } } } } }`;

/** the GraphQL list request of `gql-list`, at any page size (statements vs rows) */
export const gqlListRequest = (pageSize = 25): InjectRequest => graphqlRequest(GQL_LIST, { pageSize });

/**
 * The REST create's article as ArticleInput: dynamic-zone items name their type by `__typename`, and their
 * file ids are strings, as GraphQL gives ids out. (A dynamic-zone item is a JSON scalar, passed on as is; v4
 * 4.26.2 then counts a number 3 there and the ID "3" of `cover` as two files, finds one, and refuses the
 * entry: "1 relation(s) of type plugin::upload.file associated with this entity do not exist".)
 */
function gqlCreateRequest(ctx: CaseContext, k: number | string): InjectRequest {
  const { blocks, ...data } = newArticle(ctx, k);
  const items = blocks.map(({ __component, ...fields }) => ({
    __typename: componentTypename(__component),
    ...fields,
    ...('images' in fields ? { images: fields.images.map(String) } : {}),
  }));
  return graphqlRequest(GQL_CREATE, { data: { ...data, blocks: items } });
}

const toLoad = (r: InjectRequest): LoadRequest => ({ method: r.method, path: r.url, body: r.payload === undefined ? undefined : JSON.stringify(r.payload), ...(r.headers ? { headers: r.headers } : {}) });

type GraphqlCaseSpec = Pick<BenchCase, 'id' | 'title' | 'kind' | 'example' | 'samples'> & (
  /** reads: the requests, rotated (written once, not per request) */
  | { pool(ctx: CaseContext): InjectRequest[] }
  /** writes: a new request every time */
  | { next(ctx: CaseContext): InjectRequest }
);

/** A GraphQL case: POST /graphql, no floor. */
function graphqlCase(c: GraphqlCaseSpec): BenchCase {
  const { id, title, kind, example, samples } = c;
  return {
    id, title, kind, example, samples, floor: false, graphql: true,
    load(ctx) {
      if ('next' in c) return { ...toLoad(c.next(ctx)), setup: (req) => ({ ...req, ...toLoad(c.next(ctx)) }) };
      const bodies = c.pool(ctx).map(toLoad);
      const next = rotating(bodies);
      return bodies.length === 1 ? bodies[0] : { ...bodies[0], setup: (req) => ({ ...req, ...next() }) };
    },
    inject(ctx, n) {
      if ('next' in c) return Array.from({ length: n }, () => c.next(ctx));
      const next = rotating(c.pool(ctx));
      return Array.from({ length: n }, () => next());
    },
    ...('pool' in c ? { distinct: (ctx: CaseContext) => c.pool(ctx) } : {}),
  };
}

function fixedGraphqlRead(id: string, title: string, example: string, request: InjectRequest): BenchCase {
  return graphqlCase({ id, title, kind: 'read', example, samples: () => [request], pool: () => [request] });
}

// ---- the response cache (issue 17) ----

/** mixed: one request in MIXED_WRITE_EVERY is a write (5 %) */
const MIXED_WRITE_EVERY = 20;

/**
 * The mixed case's requests in order: request k is a write when k % 20 is 0 (so the first one is, and the
 * write probe tests it), a title update of a random article with the API token; the others rotate over the
 * `list`, `populate` and `findone` reads (findOne over its 100 ids). Writes are tagged `write`, reads `read`.
 */
function mixedSequence(ctx: CaseContext, first = 0): () => InjectRequest & { tag: 'read' | 'write' } {
  const reads = [LIST_URL, POPULATE_URL];
  const ids = rotating(idPool(ctx));
  const random = seededRandom(ctx.shape.seed * 31 + first);
  const auth = { authorization: `Bearer ${fixtureToken()}` };
  let k = first, r = 0;
  return () => {
    if (k++ % MIXED_WRITE_EVERY === 0) {
      const id = 1 + Math.floor(random() * ctx.shape.articles);
      return { method: 'PUT', url: `/api/articles/${id}`, payload: { data: { title: `Mixed ${ctx.runId}-${k}` } }, headers: auth, tag: 'write' };
    }
    const family = r++ % (reads.length + 1);
    return { method: 'GET', url: family < reads.length ? reads[family] : `/api/articles/${ids()}?${FIND_ONE_QUERY}`, tag: 'read' };
  };
}

/** the category the `category-author` case filters on (each has 1/25 of the articles) */
const SCALE_CATEGORY = 7;

export const CASES: BenchCase[] = [
  fixedRead('list', 'list, default', () => LIST_URL),
  fixedRead('populate', 'list, populate=*', () => POPULATE_URL),
  fixedRead('search', 'filter $containsi + sort views:desc', () => `/api/articles?${q({ filters: { title: { $containsi: SEARCH_WORD } }, sort: 'views:desc' })}`),
  findOneCase('findone', 'findOne, author.avatar + categories', FIND_ONE_QUERY, true),
  fixedRead('deep-filter', 'filter through categories', () => `/api/articles?${q({ filters: { categories: { slug: { $eq: 'category-3' } } } })}`),
  fixedRead('page-200', 'page 200 (deep offset)', (ctx) => `/api/articles?${q({ pagination: { page: deepPage(ctx) } })}`, '/api/articles?pagination[page]=200'),
  createCase('create', 'create, relations + components + DZ', 'POST /api/articles {author, categories, seo, links, blocks, cover}', createBody),
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
  fixedGraphqlRead('gql-list', 'GraphQL list, 25 with author + categories', '{ articles(pagination: {pageSize: 25}) { data { id attributes { title slug author {…name} categories {…name} } } } }', gqlListRequest(25)),
  fixedGraphqlRead('gql-components', 'GraphQL list, 25 with seo, links, blocks', '{ articles(pagination: {pageSize: 25}) { … seo {…shareImage} links {…} blocks { ... on ComponentBlocksText/Quote/Gallery {…} } } }', graphqlRequest(GQL_COMPONENTS, { pageSize: 25 })),
  graphqlCase({
    id: 'gql-findone', title: 'GraphQL findOne, author + categories + cover', kind: 'read',
    example: 'query($id: ID!) { article(id: $id) { data { id attributes { title slug publishDate author {…} categories {…} cover {…} } } } }',
    samples: (ctx) => idPool(ctx, 8).map((id) => graphqlRequest(GQL_FIND_ONE, { id: String(id) })),
    pool: (ctx) => idPool(ctx).map((id) => graphqlRequest(GQL_FIND_ONE, { id: String(id) })),
  }),
  graphqlCase({
    id: 'gql-create', title: 'GraphQL createArticle, relations + components + DZ', kind: 'write',
    example: 'mutation($data: ArticleInput!) { createArticle(data: $data) {…} } (the create case\'s article)',
    // the same new article on each server (each has its own database): the answers must be equal
    samples: (ctx) => [gqlCreateRequest(ctx, 'same')],
    next: (ctx) => gqlCreateRequest(ctx, createSeq++),
  }),
  {
    ...fixedRead('revalidate', 'revalidate: list with If-None-Match', () => LIST_URL, 'GET /api/articles with If-None-Match: the ETag the server gave (304); without ETag, the plain request'),
    conditional: true, extra: true,
  },
  {
    id: 'mixed', title: 'mixed: list, populate=*, findOne reads + 5 % title updates', kind: 'write', floor: false, extra: true,
    example: 'GET list / populate=* / findOne rotating; every 20th request PUT /api/articles/:id {title} (API token); req/s = reads + writes',
    samples: () => [],
    load(ctx) {
      const next = mixedSequence(ctx);
      const toRequest = (r: ReturnType<typeof next>) => ({ ...toLoad(r), headers: r.headers ?? {}, tag: r.tag });
      // autocannon sends what setup makes of this template, never the template: the first request sent (and
      // the write probe's) is the write k = 0
      return { method: 'GET', path: LIST_URL, tag: 'read', setup: () => toRequest(next()) };
    },
    // the reads in their order, then one write: SQL/req runs from a read to the write
    inject(ctx, n) {
      const next = mixedSequence(ctx, 1);
      const reads = Array.from({ length: Math.max(1, n - 1) }, () => next());
      const write = mixedSequence(ctx, 0)();
      return [...reads, write].map(({ method, url, payload, headers }) => ({ method, url, payload, headers }));
    },
  },
  // ---- issue 22: what a request costs as the table grows (run with `--cases scale --size 10k|100k|1m`) ----
  { ...fixedRead('last-page', 'last page (deepest offset)', (ctx) => `/api/articles?${q({ pagination: { page: lastPage(ctx) } })}`, '/api/articles?pagination[page]=<last: published ÷ 25, 36,007 at 1M>'), extra: true },
  {
    ...fixedRead('search-recent', 'filter $containsi (rare word) + sort publishedAt:desc', () => `/api/articles?${q({ filters: { title: { $containsi: RARE_SEARCH_WORD } }, sort: 'publishedAt:desc' })}`),
    extra: true,
  },
  {
    ...fixedRead('category-author', 'filter categories.name + populate author', (ctx) => `/api/articles?${q({ filters: { categories: { name: { $eq: categoryData(ctx.shape, SCALE_CATEGORY).name } } }, populate: 'author' })}`,
      `/api/articles?filters[categories][name][$eq]=<category ${SCALE_CATEGORY}'s name>&populate=author`),
    // the floor serves no filter on a category's name nor populate=author
    floor: false, extra: true,
  },
  { ...findOneCase('findone-all', 'findOne, populate=*', q({ populate: '*' }), false), extra: true },
  { ...createCase('create-links', 'create, author + 2 categories only', 'POST /api/articles {scalars, author, categories} (no components, no media)', createLinksBody), extra: true },
];

/** names for sets of cases in --cases */
export const CASE_GROUPS: Record<string, string[]> = {
  all: CASES.map((c) => c.id),
  /** what runs without --cases */
  default: CASES.filter((c) => !c.extra).map((c) => c.id),
  /** issue 22's seven cases and the mixed case */
  scale: ['list', 'populate', 'last-page', 'search-recent', 'category-author', 'findone-all', 'create-links', 'mixed'],
};
