// Read shapes both compile targets must answer alike: every GET of the populate-forms golden list
// (recorded from real Strapi) and the shapes below (fields, filters, sorts, pagination, publication
// state, nested populate with filters, sorts, limits and counts, dynamic zones with `on`, media).
import fs from 'node:fs';
import path from 'node:path';

const GOLDEN = path.resolve(__dirname, '../../golden');

/** GET urls of a golden request list */
export function goldenReads(name: string): string[] {
  const list = JSON.parse(fs.readFileSync(path.join(GOLDEN, `${name}.requests.json`), 'utf8')) as { method: string; url: string }[];
  return list.filter((r) => r.method === 'GET' && r.url.startsWith('/api/') && !r.url.startsWith('/api/users') && !r.url.startsWith('/api/upload') && !r.url.startsWith('/api/i18n')).map((r) => r.url);
}

const A = '/api/articles';

/** shapes on the fixture app's model (test/fixtures/strapi4-app) */
export const FIXTURE_SHAPES: string[] = [
  A, `${A}?populate=*`, `${A}?populate=*&publicationState=preview`, `${A}?publicationState=preview&pagination[pageSize]=100`,
  `${A}?pagination[page]=2&pagination[pageSize]=7`, `${A}?pagination[start]=5&pagination[limit]=3`, `${A}?pagination[withCount]=false`,
  `${A}?pagination[page]=99`, `${A}?pagination[start]=1000&pagination[limit]=5`, `${A}?pagination[limit]=-1`,
  `${A}?sort=title:desc`, `${A}?sort[0]=views:desc&sort[1]=title`, `${A}?sort=author.name:asc&populate=author`,
  `${A}?sort=categories.name:desc&fields[0]=title`, `${A}?sort=seo.metaTitle&populate=seo`,
  `${A}?fields[0]=title&fields[1]=featured&fields[2]=meta&fields[3]=big&fields[4]=publishDate&fields[5]=scheduledAt`,
  `${A}?filters[featured][$eq]=true`, `${A}?filters[categories][slug][$in][0]=cat-kelp&filters[categories][slug][$in][1]=cat-pearl&populate=categories`,
  `${A}?filters[$or][0][views][$gt]=100&filters[$or][1][author][name][$null]=true&populate[author][fields][0]=name`,
  `${A}?filters[$not][seo][metaTitle][$null]=true&populate=seo`, `${A}?_q=jade&populate=*`,
  `${A}?populate[author][populate][avatar]=true&populate[author][populate][articles][fields][0]=title&populate[author][populate][articles][sort]=views:desc`,
  `${A}?populate[categories][populate][articles][populate][categories][fields][0]=slug`,
  `${A}?populate[categories][populate][articles][publicationState]=preview&populate[categories][populate][articles][fields][0]=title`,
  `${A}?publicationState=preview&populate[related][publicationState]=live&populate[related][fields][0]=title&populate[editorPick]=*`,
  `${A}?populate[categories][limit]=0`, `${A}?populate[categories][start]=1&populate[categories][limit]=1&populate[categories][sort]=name`,
  `${A}?populate[categories][start]=5`, `${A}?populate[related][limit]=1&populate[related][populate]=cover`,
  `${A}?populate[author][limit]=0`, `${A}?populate[author][start]=1`, `${A}?populate[gallery][limit]=1`, `${A}?populate[gallery][start]=9`,
  `${A}?populate[links][limit]=1&populate[links][sort]=label:desc`, `${A}?populate[seo][populate][shareImage][fields][0]=url`,
  `${A}?populate[links][count]=true&populate[categories][count]=true&populate[categories][filters][name][$contains]=a`,
  `${A}?populate[blocks][on][blocks.gallery][populate][images][sort]=name:desc&populate[blocks][on][blocks.quote][filters][by][$null]=false`,
  `${A}?populate[blocks][populate]=*&populate[seo][populate]=*&populate[cover][fields][0]=url&populate[gallery][fields][0]=name`,
  `${A}?populate[blocks][on][blocks.text][fields][0]=body&pagination[pageSize]=100`,
  `${A}?populate[author][populate][articles][populate][blocks][populate]=*&pagination[pageSize]=3`,
  `${A}?populate[author][filters][name][$eq]=nobody`, `${A}?populate[categories][filters][$or][0][name][$startsWith]=Cat&populate[categories][filters][$or][1][slug][$null]=true`,
  '/api/authors?populate=*&publicationState=preview', '/api/authors?populate[articles][populate]=*&pagination[pageSize]=2',
  '/api/authors?populate[articles][filters][publishedAt][$null]=true&populate[articles][publicationState]=preview',
  '/api/authors?populate[articles][count]=true&populate[articles][publicationState]=preview',
  '/api/categories?populate[articles][populate][author][populate]=avatar&sort=name',
  '/api/categories?populate[articles][sort]=author.name:desc&populate[articles][fields][0]=title',
  '/api/pages?populate=*', '/api/pages?locale=fr&populate=*', '/api/pages?locale=all&populate[localizations][fields][0]=locale',
  '/api/pages?publicationState=preview&locale=all&populate[localizations][populate]=*',
];

/** findOne of every id up to `n` (drafts and missing ids included), with this query */
export function eachId(plural: string, n: number, query: string): string[] {
  return Array.from({ length: n }, (_, i) => `/api/${plural}/${i + 1}?${query}`);
}
