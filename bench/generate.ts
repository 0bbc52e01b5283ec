// Bulk dataset generator: N articles (author, 2 categories, an `seo` component with an image, 2 links,
// 2-3 dynamic-zone blocks, a cover), 20 authors, 50 categories, 10 % drafts (lib/content.ts), written into a
// copy of the fixture database: straight into v4's tables (lib/bulk-write.ts, the default), or through
// Tessera's storage layer (`insertEntity`, one transaction per batch; `--writer storage`, the reference the
// bulk writer is checked against). Because Tessera keeps v4's table layout, real Strapi 4.26.2 opens the
// result unchanged.
//
//   npx tsx bench/generate.ts --size 10k|100k|1m [--out file.db] [--seed 42] [--writer bulk|storage]
import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { SqliteDatabase } from '../src/storage/sqlite/sqlite-database';
import { insertEntity } from '../src/storage/write-entities';
import { DEFAULT_SHAPE, articleData, authorData, categoryData, type DatasetShape } from './lib/content';
import { BulkWriter } from './lib/bulk-write';
import { CACHE_DIR, FIXTURE_DATA, fixtureModel } from './lib/fixture';
import { parseSize } from './lib/size';

/** bump when the content or the way it is written changes: cached datasets are then rebuilt */
export const GENERATOR_VERSION = 3;
/** articles per transaction: through the storage layer, and in bulk */
const BATCH = 1000;
const BULK_BATCH = 20_000;
/** the tables the bulk writer fills (their indexes are dropped while it writes, then built again) */
const BULK_TABLES = ['articles', 'articles_components', 'articles_author_links', 'articles_categories_links', 'files_related_morphs',
  'components_shared_seos', 'components_shared_links', 'components_blocks_texts', 'components_blocks_quotes', 'components_blocks_galleries'];

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

/** a link row: its table and columns */
interface LinkRow { table: string; row: Record<string, number> }

/**
 * The author and category link rows of article `id`, with v4's order columns: `category_order` 1..n, and the
 * article's place in each target's list (`article_order`) counted here rather than read (writeRelation() reads
 * MAX(inverse order) per target on every insert: thousands of rows per author at 100k).
 */
function articleLinks(id: number, a: { author: number; categories: number[] }, inverseOrder: Map<string, number>): LinkRow[] {
  const next = (key: string) => {
    const n = (inverseOrder.get(key) ?? 0) + 1;
    inverseOrder.set(key, n);
    return n;
  };
  return [
    { table: 'articles_author_links', row: { article_id: id, author_id: a.author, article_order: next(`a${a.author}`) } },
    ...a.categories.map((c, pos) => ({ table: 'articles_categories_links', row: { article_id: id, category_id: c, category_order: pos + 1, article_order: next(`c${c}`) } })),
  ];
}

/** how the articles are written: `bulk` (bulk-write.ts, the default) or `storage` (Tessera's insertEntity, the reference) */
export type DatasetWriter = 'bulk' | 'storage';

/** the articles through Tessera's storage layer, one transaction per batch */
async function writeArticlesViaStorage(db: SqliteDatabase, shape: DatasetShape, onProgress?: (done: number) => void): Promise<void> {
  const model = fixtureModel();
  const ct = model.require(ARTICLE);
  const inverseOrder = new Map<string, number>();
  for (let start = 1; start <= shape.articles; start += BATCH) {
    const end = Math.min(shape.articles, start + BATCH - 1);
    await db.transaction(async (tx) => {
      for (let i = start; i <= end; i++) {
        const { author, categories, ...rest } = articleData(shape, i);
        const id = await insertEntity(tx, model, ct, rest as unknown as Record<string, unknown>);
        for (const l of articleLinks(id, { author, categories }, inverseOrder)) {
          const cols = Object.keys(l.row);
          await tx.run(`INSERT INTO ${l.table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, Object.values(l.row));
        }
      }
    });
    onProgress?.(end);
  }
}

/**
 * The articles straight into the file (bulk-write.ts): the rollback journal in memory and no syncs while it is
 * written (a failed run leaves only a partial file, removed), large transactions; the file is put back in WAL
 * mode at the end, as the storage path leaves it.
 */
function writeArticlesInBulk(file: string, shape: DatasetShape, onProgress?: (done: number) => void): void {
  const conn = new BetterSqlite3(file);
  try {
    // (better-sqlite3's defensive mode refuses journal_mode OFF; foreign keys are on by default there)
    conn.pragma('journal_mode = MEMORY');
    conn.pragma('synchronous = OFF');
    conn.pragma('foreign_keys = OFF');
    conn.pragma('cache_size = -262144'); // 256 MB: the indexes being filled stay in memory
    const model = fixtureModel();
    const ct = model.require(ARTICLE);
    const writer = new BulkWriter(conn, model);
    const inverseOrder = new Map<string, number>();
    // the tables' indexes are built once at the end (a sort) rather than kept up to date row by row
    const indexes = conn.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(BULK_TABLES)) as { name: string; sql: string }[];
    for (const i of indexes) conn.exec(`DROP INDEX "${i.name}"`);
    const batch = conn.transaction((start: number, end: number) => {
      for (let i = start; i <= end; i++) {
        const { author, categories, ...rest } = articleData(shape, i);
        const id = writer.write(ct, rest as unknown as Record<string, unknown>);
        for (const l of articleLinks(id, { author, categories }, inverseOrder)) writer.link(l.table, l.row);
      }
      writer.flush();
    });
    for (let start = 1; start <= shape.articles; start += BULK_BATCH) {
      const end = Math.min(shape.articles, start + BULK_BATCH - 1);
      batch(start, end);
      onProgress?.(end);
    }
    for (const i of indexes) conn.exec(i.sql);
    conn.pragma('journal_mode = WAL');
  } finally {
    conn.close();
  }
}

export async function generateDataset(file: string, shape: DatasetShape, opts: { onProgress?: (done: number) => void; writer?: DatasetWriter } = {}): Promise<GenerateResult> {
  const t0 = performance.now();
  const tmp = `${file}.${process.pid}.partial`; // concurrent runs never share a half-written file
  try {
    await writeBaseDb(tmp);
    const model = fixtureModel();
    let db = new SqliteDatabase(tmp);
    try {
      await db.transaction(async (tx) => {
        for (let k = 1; k <= shape.categories; k++) await insertEntity(tx, model, model.require('api::category.category'), { ...categoryData(shape, k) });
        for (let k = 1; k <= shape.authors; k++) await insertEntity(tx, model, model.require('api::author.author'), { ...authorData(shape, k) });
      });
      if (opts.writer === 'storage') await writeArticlesViaStorage(db, shape, opts.onProgress);
    } finally {
      await db.close(); // checkpoints the WAL: the .db file alone is the dataset
    }
    if (opts.writer !== 'storage') writeArticlesInBulk(tmp, shape, opts.onProgress);
    db = new SqliteDatabase(tmp);
    const counts: Record<string, number> = {};
    try {
      for (const t of ['articles', 'authors', 'categories', 'articles_components', 'articles_categories_links', 'files_related_morphs']) {
        counts[t] = Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`))?.n ?? 0);
      }
    } finally {
      await db.close();
    }
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    fs.renameSync(tmp, file);
    return { file, shape, ms: performance.now() - t0, counts };
  } finally {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) fs.rmSync(f, { force: true });
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
  const articles = parseSize(opt('size') ?? opt('articles') ?? '10k');
  const seed = Number(opt('seed') ?? DEFAULT_SHAPE.seed);
  const writer = (opt('writer') ?? 'bulk') as DatasetWriter;
  if (writer !== 'bulk' && writer !== 'storage') throw new Error('--writer takes bulk or storage');
  const out = path.resolve(opt('out') ?? datasetFile(articles, seed));
  const r = await generateDataset(out, { ...DEFAULT_SHAPE, articles, seed }, { writer, onProgress: (n) => process.stderr.write(`\r${n}/${articles}`) });
  process.stderr.write('\n');
  console.log(`${out}: ${articles} articles in ${(r.ms / 1000).toFixed(1)} s; rows: ${JSON.stringify(r.counts)}`);
}

if (require.main === module) main(process.argv.slice(2)).catch((err) => { console.error(err); process.exitCode = 1; });
