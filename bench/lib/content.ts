// The benchmark dataset's content, as plain data: the same entries whether they are written in bulk
// through Tessera's storage layer (generate.ts) or sent to real Strapi's REST API (seed-rest.ts).
// Every entry is derived from (seed, index) alone, so any prefix of a dataset is the same dataset.

import { seededRandom } from './seeded-random';

export const FILE_IDS = [1, 2, 3]; // the three images of the fixture data (landscape, portrait, small)

export interface DatasetShape {
  articles: number;
  authors: number;
  categories: number;
  /** share of articles left as drafts (publishedAt null) */
  draftRatio: number;
  seed: number;
}

/** issue 22's measured data: every article with an author and two categories of 50 */
export const DEFAULT_SHAPE: Omit<DatasetShape, 'articles'> = { authors: 20, categories: 50, draftRatio: 0.1, seed: 42 };
/** categories per article */
const CATEGORIES_PER_ARTICLE = 2;
/** one article in RARE_EVERY has RARE_WORD in its title (7, 1007, 2007, ...: one even in the smoke run's 200): the same small share at every size */
const RARE_EVERY = 1000;
const RARE_AT = 7;
const RARE_WORD = 'quokka';

const WORDS = [
  'amber', 'basalt', 'cedar', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper',
  'kelp', 'lagoon', 'meadow', 'nectar', 'onyx', 'pearl', 'quartz', 'river', 'saffron', 'tundra',
  'umber', 'violet', 'willow', 'xenon', 'yarrow', 'zephyr', 'canyon', 'dune', 'glacier', 'moss',
];
const KINDS = ['news', 'review', 'opinion'];
const BASE_TIME = Date.UTC(2025, 0, 1);

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)];
const iso = (ms: number) => new Date(ms).toISOString();

function sentence(r: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(pick(r, WORDS));
  const s = out.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

export interface CategoryData { name: string; slug: string; priority: number; createdAt: string; updatedAt: string }
export interface AuthorData { name: string; email: string; bio: string; secret: string; avatar: number; createdAt: string; updatedAt: string }
export type BlockData =
  | { __component: 'blocks.text'; body: string }
  | { __component: 'blocks.quote'; text: string; by: string }
  | { __component: 'blocks.gallery'; title: string; images: number[] };
export interface ArticleData {
  title: string; slug: string; body: string; views: number; rating: number; price: number; featured: boolean;
  kind: string; publishDate: string; scheduledAt: string | null; meta: { n: number; tags: string[] }; big: string;
  createdAt: string; updatedAt: string; publishedAt: string | null;
  /** 1-based index of the author and categories (their ids in a dataset written from the base) */
  author: number; categories: number[];
  seo: { metaTitle: string; metaDescription: string; shareImage: number };
  links: { label: string; url: string }[];
  blocks: BlockData[];
  cover: number;
}

export function categoryData(shape: DatasetShape, k: number): CategoryData {
  const t = iso(BASE_TIME - 86_400_000 + k * 1000);
  return { name: `Category ${WORDS[(k - 1) % WORDS.length]} ${k}`, slug: `category-${k}`, priority: k * 10, createdAt: t, updatedAt: t };
}

export function authorData(shape: DatasetShape, k: number): AuthorData {
  const r = seededRandom(shape.seed * 7919 + k);
  const t = iso(BASE_TIME - 43_200_000 + k * 1000);
  return {
    name: `Author ${k} ${pick(r, WORDS)}`, email: `author${k}@example.com`, bio: sentence(r, 12),
    secret: `secret-${k}`, avatar: FILE_IDS[k % FILE_IDS.length], createdAt: t, updatedAt: t,
  };
}

/** article i's random source: its first number decides whether it is a draft */
const articleRandom = (shape: DatasetShape, i: number) => seededRandom(shape.seed * 104_729 + i);

/** whether article i is a draft, without building the article */
export const isDraft = (shape: DatasetShape, i: number): boolean => articleRandom(shape, i)() < shape.draftRatio;

/** Article number i (1-based). */
export function articleData(shape: DatasetShape, i: number): ArticleData {
  const r = articleRandom(shape, i);
  const created = BASE_TIME + i * 60_000;
  const draft = r() < shape.draftRatio;
  const cats: number[] = [];
  while (cats.length < Math.min(CATEGORIES_PER_ARTICLE, shape.categories)) {
    const c = 1 + Math.floor(r() * shape.categories);
    if (!cats.includes(c)) cats.push(c);
  }
  const nBlocks = 2 + Math.floor(r() * 2);
  const blocks: BlockData[] = [];
  for (let b = 0; b < nBlocks; b++) {
    const kind = Math.floor(r() * 3);
    if (kind === 0) blocks.push({ __component: 'blocks.text', body: sentence(r, 20) });
    else if (kind === 1) blocks.push({ __component: 'blocks.quote', text: sentence(r, 10), by: `Author ${1 + Math.floor(r() * shape.authors)}` });
    else blocks.push({ __component: 'blocks.gallery', title: `Gallery ${i}.${b}`, images: [pick(r, FILE_IDS), pick(r, FILE_IDS)].filter((v, x, a) => a.indexOf(v) === x) });
  }
  const first = pick(r, WORDS);
  const second = pick(r, WORDS);
  const title = `${first} ${i % RARE_EVERY === RARE_AT ? RARE_WORD : second} ${i}`;
  return {
    title,
    slug: `article-${i}`,
    body: `${sentence(r, 14)} ${sentence(r, 12)} ${sentence(r, 10)}`,
    views: Math.floor(r() * 100_000),
    rating: Math.round(r() * 50) / 10,
    price: Math.round(r() * 100_000) / 100,
    featured: r() < 0.2,
    kind: pick(r, KINDS),
    publishDate: iso(created).slice(0, 10),
    scheduledAt: r() < 0.3 ? iso(created + 7 * 86_400_000) : null,
    meta: { n: i, tags: [pick(r, WORDS), pick(r, WORDS)] },
    // below 2^53: v4 reads bigintegers as JS numbers and rounds larger ones (Tessera is exact), and the
    // benchmark compares answers before it compares speed
    big: String(1_000_000_000_000 + i * 1_000_003),
    createdAt: iso(created),
    updatedAt: iso(created + 1000),
    publishedAt: draft ? null : iso(created + 2000),
    author: 1 + Math.floor(r() * shape.authors),
    categories: cats,
    seo: { metaTitle: `SEO ${title}`, metaDescription: sentence(r, 16), shareImage: pick(r, FILE_IDS) },
    links: [
      { label: `Read ${pick(r, WORDS)}`, url: `https://example.com/a/${i}/1` },
      { label: `See ${pick(r, WORDS)}`, url: `https://example.com/a/${i}/2` },
    ],
    blocks,
    cover: pick(r, FILE_IDS),
  };
}

/** A word that occurs in some titles (~6.5 %), in mixed case: the `search` case searches for it. */
export const SEARCH_WORD = 'HarBor';

/** A word in one title in 1,000 (articles 7, 1007, ...), in mixed case: the `search-recent` case searches for it. */
export const RARE_SEARCH_WORD = 'QuoKKa';
