// The soak's request mix (issue 18 part 5): REST and GraphQL, reads and writes, in a fixed cycle, as one
// autocannon request whose `setup` picks each next request. Every request of the mix must answer 2xx (and a
// GraphQL answer without `errors`), so any other answer is an error of the soak.
//
// The database must not grow with the run (a growing table would make "flat memory" measure data, not leaks):
// entries the mix creates are deleted again. Their ids come from the create answers (read by `failed`, the
// only hook of runLoad that sees a body), queued, and each is deleted once; the cycle has more delete slots
// than creates, and a delete slot with nothing to delete sends a read instead, so the queue stays short.
// Updates change base articles only (never one a delete may remove, which would be a 404 the mix caused).
import qs from 'qs';
import { CASES, type CaseContext, type InjectRequest } from '../cases';
import { articleData, isDraft, SEARCH_WORD } from '../lib/content';
import { fixtureToken } from '../lib/fixture';
import { graphqlFailedUnderLoad, graphqlRequest } from '../lib/graphql';
import type { LoadRequest, SentRequest } from '../lib/load';

const q = (o: Record<string, unknown>) => qs.stringify(o, { encodeValuesOnly: true });

/** what one request of the mix is, for the per-family counts */
export type Family =
  | 'rest-list' | 'rest-populate' | 'rest-relation-filter' | 'rest-search' | 'rest-findone'
  | 'gql-list' | 'gql-findone'
  | 'rest-create' | 'gql-create' | 'rest-update' | 'gql-update' | 'rest-delete' | 'gql-delete';

/**
 * One cycle: 14 reads, 2 creates, 2 updates and 3 delete slots (21 requests, ~1/3 writes). Delete slots
 * outnumber creates 3:2 so the queue of entries to delete drains whenever the server answers creates.
 */
const CYCLE: (Family | 'delete')[] = [
  'rest-list', 'gql-list', 'rest-create', 'rest-findone', 'rest-populate', 'delete', 'gql-findone',
  'rest-relation-filter', 'rest-update', 'rest-search', 'gql-list', 'delete', 'rest-findone', 'gql-create',
  'rest-list', 'gql-findone', 'gql-update', 'rest-populate', 'delete', 'rest-findone', 'rest-relation-filter',
];

const FIND_ONE_QUERY = q({ populate: { author: { populate: 'avatar' }, categories: true } });

// the fixture app's GraphQL depthLimit is 7: one relation level under an entry (no author.avatar)
const GQL_LIST = `query List($min: Int, $page: Int) {
  articles(filters: { views: { gte: $min } }, sort: ["views:desc"], pagination: { page: $page, pageSize: 10 }) {
    data { id attributes { title slug views
      author { data { id attributes { name email } } }
      categories(sort: ["name:asc"]) { data { id attributes { name slug } } } } }
    meta { pagination { total pageCount } } } }`;

const GQL_FIND_ONE = `query FindOne($id: ID!) { article(id: $id) { data { id attributes {
  title slug publishDate
  author { data { id attributes { name email } } }
  categories { data { id attributes { name slug } } }
  seo { metaTitle shareImage { data { id attributes { url } } } }
  cover { data { id attributes { name url } } } } } } }`;

const GQL_UPDATE = `mutation Update($id: ID!, $data: ArticleInput!) { updateArticle(id: $id, data: $data) {
  data { id attributes { title categories { data { id } } } } } }`;

const GQL_DELETE = `mutation Delete($id: ID!) { deleteArticle(id: $id) { data { id } } }`;

export interface Mix {
  /** the load: pass to runLoad as `request`, with `failed` */
  request: LoadRequest;
  /** runLoad's `failed`: a GraphQL answer with errors; also reads the ids of created entries */
  failed(status: number, body: string): boolean;
  /** entries created and not yet sent to be deleted */
  pendingDeletes(): number;
  /** entries created (answers seen) and delete requests set up so far */
  counts(): { created: number; deleteSent: number };
}

/**
 * The mix on a dataset of `ctx.shape.articles` generated articles (ids 1..N). `ctx.runId` marks what the run
 * creates (slug `bench-<runId>-<k>`, the create cases' bodies).
 */
export function soakMix(ctx: CaseContext): Mix {
  const N = ctx.shape.articles;
  const auth = { authorization: `Bearer ${fixtureToken()}` };
  // published base articles spread over the dataset: public findOne answers 404 for a draft
  const published = Array.from({ length: Math.min(100, N) }, (_, k) => 1 + ((k * 7919) % N)).filter((i) => !isDraft(ctx.shape, i));
  const createCase = CASES.find((c) => c.id === 'create')!;
  const gqlCreateCase = CASES.find((c) => c.id === 'gql-create')!;

  // the variants of each read family: finite, so every cache reaches its steady state during the warm-up
  const reads: Record<string, () => InjectRequest> = {
    'rest-list': rotate([0, 25_000, 50_000, 75_000].flatMap((min) => [1, 2, 3, 4, 5].map((page) => get(`/api/articles?${q({ filters: { views: { $gte: min } }, sort: ['views:desc', 'title:asc'], pagination: { page, pageSize: 10 } })}`)))),
    'rest-populate': rotate([1, 2, 3, 4].map((page) => get(`/api/articles?${q({ populate: '*', pagination: { page, pageSize: 10 } })}`))),
    'rest-relation-filter': rotate(Array.from({ length: 10 }, (_, k) => get(`/api/articles?${q({ filters: { categories: { slug: { $eq: `category-${k + 1}` } } }, populate: { author: { populate: ['avatar'] }, categories: true }, sort: 'publishedAt:desc', pagination: { pageSize: 10 } })}`))),
    'rest-search': rotate(['harbor', SEARCH_WORD, 'Meadow', 'onyx'].map((w) => get(`/api/articles?${q({ filters: { $or: [{ title: { $containsi: w } }, { body: { $containsi: w } }] }, fields: ['title', 'views'], sort: 'title:asc', pagination: { pageSize: 5 } })}`))),
    'rest-findone': rotate(published.map((id) => get(`/api/articles/${id}?${FIND_ONE_QUERY}`))),
    'gql-list': rotate([0, 50_000].flatMap((min) => [1, 2, 3].map((page) => graphqlRequest(GQL_LIST, { min, page })))),
    'gql-findone': rotate(published.map((id) => graphqlRequest(GQL_FIND_ONE, { id: String(id) }))),
  };
  const readFamilies = Object.keys(reads);
  const updateIds = rotate(published);
  // an update sets the article's categories to the ones it was generated with: relation writes, same data
  const categoriesOf = (id: number) => articleData(ctx.shape, id).categories;

  const toDelete: number[] = [];
  const seen = new Set<number>();
  let created = 0, deleteSent = 0, step = 0, fallback = 0, updates = 0;
  const marker = `"slug":"bench-${ctx.runId}-`;

  function next(): InjectRequest & { tag: Family } {
    const slot = CYCLE[step++ % CYCLE.length];
    switch (slot) {
      case 'rest-create':
        return { ...createCase.inject(ctx, 1)[0], headers: auth, tag: slot };
      case 'gql-create':
        return { ...gqlCreateCase.inject(ctx, 1)[0], headers: auth, tag: slot };
      case 'rest-update': {
        const id = updateIds();
        return { method: 'PUT', url: `/api/articles/${id}`, payload: { data: { title: `Soak ${ctx.runId} ${updates++}`, categories: { set: categoriesOf(id) } } }, headers: auth, tag: slot };
      }
      case 'gql-update': {
        const id = updateIds();
        return { ...graphqlRequest(GQL_UPDATE, { id: String(id), data: { title: `Soak ${ctx.runId} ${updates++}`, categories: categoriesOf(id).map(String) } }), headers: auth, tag: slot };
      }
      case 'delete': {
        const id = toDelete.shift();
        if (id === undefined) {
          // nothing created yet (or every entry already on its way out): a read keeps the load level
          const family = readFamilies[fallback++ % readFamilies.length] as Family;
          return { ...reads[family](), tag: family };
        }
        deleteSent++;
        // one delete in two through each door
        // (InjectRequest names the benchmark's methods only; autocannon sends any)
        if (deleteSent % 2) return { method: 'DELETE' as 'GET', url: `/api/articles/${id}`, headers: auth, tag: 'rest-delete' };
        return { ...graphqlRequest(GQL_DELETE, { id: String(id) }), headers: auth, tag: 'gql-delete' };
      }
      default:
        return { ...reads[slot](), tag: slot };
    }
  }

  const toSent = (r: InjectRequest & { tag: Family }): SentRequest => ({
    method: r.method, path: r.url, tag: r.tag,
    ...(r.payload === undefined ? {} : { body: JSON.stringify(r.payload) }),
    ...(r.headers ? { headers: r.headers } : {}),
  });

  return {
    // autocannon sends what setup makes of this template, never the template itself
    request: { method: 'GET', path: '/api/articles', tag: 'rest-list', setup: () => toSent(next()) },
    failed(status, body) {
      // a create's answer (REST `{"data":{"id":7,...` or GraphQL `{"data":{"createArticle":{"data":{"id":"7"`)
      // names the run's slug; a delete's answer names it too, but its id was seen before (ids are never reused)
      if (body.includes(marker)) {
        const m = /^\{"data":\{(?:"createArticle":\{"data":\{)?"id":"?(\d+)/.exec(body);
        if (m) {
          const id = Number(m[1]);
          if (!seen.has(id)) {
            seen.add(id);
            created++;
            toDelete.push(id);
          }
        }
      }
      return graphqlFailedUnderLoad(status, body);
    },
    pendingDeletes: () => toDelete.length,
    counts: () => ({ created, deleteSent }),
  };
}

function get(url: string): InjectRequest {
  return { method: 'GET', url };
}

function rotate<T>(list: T[]): () => T {
  let i = 0;
  return () => list[i++ % list.length];
}
