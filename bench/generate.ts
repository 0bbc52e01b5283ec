// Bulk dataset generator: N articles (author, 1-3 categories, an `seo` component with an image, 2 links,
// 2-3 dynamic-zone blocks, a cover), 20 authors, 15 categories, 10 % drafts, written through Tessera's
// storage layer (`insertEntity` inside one transaction per batch) into a copy of the fixture database.
// Because Tessera keeps v4's table layout, real Strapi 4.26.2 opens the result unchanged.
//
//   npx tsx bench/generate.ts --articles 10000 [--out file.db] [--seed 42]
import fs from 'node:fs';
import path from 'node:path';
import { SqliteDatabase } from '../src/storage/sqlite/sqlite-database';
import type { Executor } from '../src/storage/dialect';
import { insertEntity } from '../src/storage/write-entities';
import { DEFAULT_SHAPE, articleData, authorData, categoryData, type DatasetShape } from './lib/content';
import { CACHE_DIR, FIXTURE_DATA, fixtureModel } from './lib/fixture';

/** bump when the content or the way it is written changes: cached datasets are then rebuilt */
export const GENERATOR_VERSION = 2;
const BATCH = 1000;

const ARTICLE = 'api::article.article';

/**
 * The fixture database (written by real Strapi: schema, roles, Public permissions, API token, the three
 * uploaded files) without its content, so ids of authors, categories, articles and components start at 1.
 */
export async function writeBaseDb(file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  fs.copyFileSync(path.join(FIXTURE_DATA, 'data.db'), file);
  fs.chmodSync(file, 0o644); // the fixture copy is read-only
  const db = new SqliteDatabase(file);
  try {
    await db.transaction(async (tx) => {
      const tables = (await tx.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table'`)).map((t) => t.name);
      const cleared = tables.filter((t) => /^(articles|authors|categories|homepages)(_|$)/.test(t) || t.startsWith('components_'));
      await tx.run(`DELETE FROM files_related_morphs WHERE related_type NOT LIKE 'plugin::%' AND related_type NOT LIKE 'admin::%'`);
      for (const t of cleared) await tx.run(`DELETE FROM \`${t}\``);
      await tx.run(`DELETE FROM sqlite_sequence WHERE name IN (SELECT value FROM json_each(?))`, [JSON.stringify(cleared)]);
    });
  } finally {
    await db.close();
  }
}

export interface GenerateResult {
  file: string;
  shape: DatasetShape;
  ms: number;
  counts: Record<string, number>;
}

async function insertArticleLinks(tx: Executor, id: number, a: { author: number; categories: number[] }, inverseOrder: Map<string, number>): Promise<void> {
  // Link rows are written here rather than by writeRelation(): it reads MAX(inverse order) per target on
  // every insert (thousands of rows per author at 100k), so the generator keeps those counters in memory.
  const next = (key: string) => {
    const n = (inverseOrder.get(key) ?? 0) + 1;
    inverseOrder.set(key, n);
    return n;
  };
  await tx.run('INSERT INTO articles_author_links (article_id, author_id, article_order) VALUES (?, ?, ?)', [id, a.author, next(`a${a.author}`)]);
  for (const [pos, c] of a.categories.entries()) {
    await tx.run('INSERT INTO articles_categories_links (article_id, category_id, category_order, article_order) VALUES (?, ?, ?, ?)', [id, c, pos + 1, next(`c${c}`)]);
  }
}

export async function generateDataset(file: string, shape: DatasetShape, onProgress?: (done: number) => void): Promise<GenerateResult> {
  const t0 = performance.now();
  const tmp = `${file}.${process.pid}.partial`; // concurrent runs never share a half-written file
  await writeBaseDb(tmp);
  const model = fixtureModel();
  const db = new SqliteDatabase(tmp);
  try {
    await db.transaction(async (tx) => {
      for (let k = 1; k <= shape.categories; k++) await insertEntity(tx, model, model.require('api::category.category'), { ...categoryData(shape, k) });
      for (let k = 1; k <= shape.authors; k++) await insertEntity(tx, model, model.require('api::author.author'), { ...authorData(shape, k) });
    });
    const ct = model.require(ARTICLE);
    const inverseOrder = new Map<string, number>();
    for (let start = 1; start <= shape.articles; start += BATCH) {
      const end = Math.min(shape.articles, start + BATCH - 1);
      await db.transaction(async (tx) => {
        for (let i = start; i <= end; i++) {
          const { author, categories, ...rest } = articleData(shape, i);
          const id = await insertEntity(tx, model, ct, rest as unknown as Record<string, unknown>);
          await insertArticleLinks(tx, id, { author, categories }, inverseOrder);
        }
      });
      onProgress?.(end);
    }
    const counts: Record<string, number> = {};
    for (const t of ['articles', 'authors', 'categories', 'articles_components', 'articles_categories_links', 'files_related_morphs']) {
      counts[t] = Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`))?.n ?? 0);
    }
    await db.close(); // checkpoints the WAL: the .db file alone is the dataset
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    fs.renameSync(tmp, file);
    return { file, shape, ms: performance.now() - t0, counts };
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
}

export function datasetFile(articles: number, seed = DEFAULT_SHAPE.seed, cacheDir = CACHE_DIR): string {
  return path.join(cacheDir, 'datasets', `articles-${articles}-seed${seed}-v${GENERATOR_VERSION}.db`);
}

/** The cached dataset of this size, generated first when missing. */
export async function ensureDataset(articles: number, log: (m: string) => void = () => undefined, cacheDir = CACHE_DIR): Promise<{ file: string; generatedMs?: number }> {
  const file = datasetFile(articles, DEFAULT_SHAPE.seed, cacheDir);
  if (fs.existsSync(file)) return { file };
  log(`generating ${articles} articles -> ${path.relative(process.cwd(), file)}`);
  const r = await generateDataset(file, { ...DEFAULT_SHAPE, articles });
  log(`  ${articles} articles in ${(r.ms / 1000).toFixed(1)} s (${JSON.stringify(r.counts)})`);
  return { file, generatedMs: r.ms };
}

async function main(argv: string[]): Promise<void> {
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const articles = Number(opt('articles') ?? 10000);
  const seed = Number(opt('seed') ?? DEFAULT_SHAPE.seed);
  const out = path.resolve(opt('out') ?? datasetFile(articles, seed));
  const r = await generateDataset(out, { ...DEFAULT_SHAPE, articles, seed }, (n) => process.stderr.write(`\r${n}/${articles}`));
  process.stderr.write('\n');
  console.log(`${out}: ${articles} articles in ${(r.ms / 1000).toFixed(1)} s; rows: ${JSON.stringify(r.counts)}`);
}

if (require.main === module) main(process.argv.slice(2)).catch((err) => { console.error(err); process.exitCode = 1; });
