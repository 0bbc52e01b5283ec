// The writes of one crash round, generated from a seed before the round starts, and what each must leave
// behind. Writes come in chains: the writes on one entry, sent one after the other (each waits for the
// previous answer), so what the entry holds after any acknowledged prefix of its chain is known exactly; chains
// run side by side. Writes on different chains never touch the same rows: updates and deletes only go to
// articles of their own chain, and relations point at the fixture's authors, categories and files, which no
// write changes.
import { seededRandom } from '../../bench/lib/seeded-random';

/** the fixture app's rows the writes link to (test/fixtures/strapi4-app/fixture-data) */
const AUTHOR_IDS = [1, 2, 3, 4, 5, 6, 7, 8];
const CATEGORY_IDS = [1, 2, 3, 4, 5, 6];
const FILE_IDS = [1, 2, 3];

export interface Seo { metaTitle: string; metaDescription: string }
export interface Link { label: string; url: string }
export type Block =
  | { __component: 'blocks.text'; body: string }
  | { __component: 'blocks.quote'; text: string; by: string }
  | { __component: 'blocks.gallery'; title: string; images: number[] };

/** an article as a read with every part populated shows it (ids of relations and media, components without ids) */
export interface ArticleState {
  title: string;
  slug: string;
  body: string;
  views: number;
  rating: number;
  featured: boolean;
  kind: string;
  meta: Record<string, unknown>;
  seo: Seo | null;
  links: Link[];
  blocks: Block[];
  author: number | null;
  /** sorted */
  categories: number[];
  /** `fromAnswer`: the file a multipart create stored, known from its answer only */
  cover: number | null | 'fromAnswer';
  /** sorted */
  gallery: number[];
}

export interface AuthorState { name: string; email: string; bio: string; avatar: number | null }

export type Write =
  | { kind: 'create-article'; body: Record<string, unknown>; multipart: boolean; after: ArticleState }
  | { kind: 'update-article'; body: Record<string, unknown>; after: ArticleState }
  | { kind: 'delete-article'; after: null }
  | { kind: 'create-author'; body: Record<string, unknown>; after: AuthorState }
  | { kind: 'upload'; files: number };

export interface Chain {
  /** unique in the round: the slug of its article, the name of its author, the file names of its upload */
  key: string;
  writes: Write[];
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
const subset = (rng: Rng, list: readonly number[], max: number) => [...new Set(Array.from({ length: int(rng, 0, max) }, () => pick(rng, list)))].sort((a, b) => a - b);
const sorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);
const text = (rng: Rng, key: string, what: string) => `${what} of ${key} #${int(rng, 0, 1e6)}`;

function seo(rng: Rng, key: string): Seo {
  return { metaTitle: text(rng, key, 'meta title'), metaDescription: text(rng, key, 'description') };
}

function links(rng: Rng, key: string): Link[] {
  return Array.from({ length: int(rng, 0, 3) }, (_, i) => ({ label: text(rng, key, `link ${i}`), url: `https://example.com/${key}/${i}` }));
}

function blocks(rng: Rng, key: string): Block[] {
  return Array.from({ length: int(rng, 0, 3) }, (): Block => {
    const r = rng();
    if (r < 0.4) return { __component: 'blocks.text', body: text(rng, key, 'block body') };
    if (r < 0.7) return { __component: 'blocks.quote', text: text(rng, key, 'quote'), by: text(rng, key, 'by') };
    return { __component: 'blocks.gallery', title: text(rng, key, 'gallery'), images: subset(rng, FILE_IDS, 2) };
  });
}

function scalars(rng: Rng, key: string) {
  return {
    title: text(rng, key, 'title'),
    body: text(rng, key, 'body'),
    views: int(rng, 0, 100000),
    rating: int(rng, 0, 40) / 8, // exact in binary: compared as sent
    featured: rng() < 0.5,
    kind: pick(rng, ['news', 'review', 'opinion']),
    meta: { n: int(rng, 0, 1000), tags: [key, text(rng, key, 'tag')] },
  };
}

function createArticle(rng: Rng, key: string, multipart: boolean): Extract<Write, { kind: 'create-article' }> {
  const author = rng() < 0.8 ? pick(rng, AUTHOR_IDS) : null;
  const after: ArticleState = {
    ...scalars(rng, key),
    slug: key,
    seo: rng() < 0.8 ? seo(rng, key) : null,
    links: links(rng, key),
    blocks: blocks(rng, key),
    author,
    categories: subset(rng, CATEGORY_IDS, 3),
    cover: multipart ? 'fromAnswer' : rng() < 0.5 ? pick(rng, FILE_IDS) : null,
    gallery: multipart ? [] : subset(rng, FILE_IDS, 2),
  };
  // the multipart create sends its cover as files.cover
  const { cover: _sentAsFile, ...body } = after;
  return { kind: 'create-article', body: multipart ? body : { ...after }, multipart, after };
}

/** a relation operation on `categories` in one of v4's forms, and the ids it leaves */
function categoriesOp(rng: Rng, current: number[]): { op: unknown; after: number[] } {
  const r = rng();
  const some = subset(rng, CATEGORY_IDS, 3);
  if (r < 0.3) return { op: { connect: some }, after: sorted([...current, ...some]) };
  if (r < 0.5) {
    const gone = current.filter(() => rng() < 0.6);
    return { op: { disconnect: gone }, after: current.filter((id) => !gone.includes(id)) };
  }
  if (r < 0.7) return { op: { set: some }, after: some };
  if (r < 0.85) return { op: some, after: some }; // a plain list: set
  const gone = current.filter(() => rng() < 0.5);
  const added = some.filter((id) => !gone.includes(id));
  return { op: { connect: added, disconnect: gone }, after: sorted([...current.filter((id) => !gone.includes(id)), ...added]) };
}

function authorOp(rng: Rng, current: number | null): { op: unknown; after: number | null } {
  const r = rng();
  const other = pick(rng, AUTHOR_IDS);
  if (r < 0.3) return { op: { connect: [other] }, after: other };
  if (r < 0.45 && current !== null) return { op: { disconnect: [current] }, after: null };
  if (r < 0.6) return { op: { set: [other] }, after: other };
  if (r < 0.75) return { op: { set: [] }, after: null };
  if (r < 0.9) return { op: other, after: other };
  return { op: null, after: null };
}

function updateArticle(rng: Rng, key: string, before: ArticleState): Extract<Write, { kind: 'update-article' }> {
  const body: Record<string, unknown> = {};
  const after: ArticleState = { ...before };
  const all = scalars(rng, key);
  for (const field of Object.keys(all) as Array<keyof typeof all>) {
    if (rng() < 0.4) Object.assign(body, { [field]: all[field] }), Object.assign(after, { [field]: all[field] });
  }
  if (rng() < 0.4) after.seo = (body.seo = rng() < 0.8 ? seo(rng, key) : null) as Seo | null;
  if (rng() < 0.4) after.links = (body.links = links(rng, key)) as Link[];
  if (rng() < 0.4) after.blocks = (body.blocks = blocks(rng, key)) as Block[];
  if (rng() < 0.6) {
    const c = categoriesOp(rng, before.categories);
    body.categories = c.op;
    after.categories = c.after;
  }
  if (rng() < 0.5) {
    const a = authorOp(rng, before.author);
    body.author = a.op;
    after.author = a.after;
  }
  if (rng() < 0.2) after.cover = (body.cover = rng() < 0.7 ? pick(rng, FILE_IDS) : null) as number | null;
  if (rng() < 0.2) after.gallery = (body.gallery = subset(rng, FILE_IDS, 3)) as number[];
  if (!Object.keys(body).length) body.views = after.views = before.views + 1;
  return { kind: 'update-article', body, after };
}

/**
 * About `total` writes in chains, the same for the same seed: articles created (a sixth of them as multipart
 * with a cover file), updated with relation operations and deleted; authors created; files uploaded.
 */
export function generateChains(seed: number, prefix: string, total: number): Chain[] {
  const rng = seededRandom(seed);
  const chains: Chain[] = [];
  let count = 0;
  while (count < total) {
    const key = `${prefix}${chains.length}`;
    const r = rng();
    let writes: Write[];
    if (r < 0.12) {
      writes = [{ kind: 'upload', files: int(rng, 1, 2) }];
    } else if (r < 0.2) {
      const after: AuthorState = { name: key, email: `${key}@example.com`, bio: text(rng, key, 'bio'), avatar: rng() < 0.5 ? pick(rng, FILE_IDS) : null };
      writes = [{ kind: 'create-author', body: { ...after }, after }];
    } else {
      const create = createArticle(rng, key, rng() < 1 / 6);
      writes = [create];
      let state = create.after;
      for (let i = int(rng, 0, 3); i > 0; i--) {
        const update = updateArticle(rng, key, state);
        writes.push(update);
        state = update.after;
      }
      if (rng() < 0.25) writes.push({ kind: 'delete-article', after: null });
    }
    chains.push({ key, writes });
    count += writes.length;
  }
  return chains;
}
