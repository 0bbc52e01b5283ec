// The floor's read queries for the benchmark cases, in its two variants over the same database:
//   js:  one batched statement per table (IN over the page's ids), objects assembled in JS;
//   sql: SQLite writes each entry's JSON (correlated subqueries with json_object/json_group_array),
//        JS only joins the entries and writes the envelope (the "rows form" of ../shared/spec/read-path-json.md).
// Both return exactly what Tessera returns for the same URL (the runner checks it before measuring).
import type BetterSqlite3 from 'better-sqlite3';
import {
  ARTICLE, AUTHOR, CATEGORY, FILE, GALLERY, LINK, QUOTE, SEO, TEXT,
  jsonComponent, jsonEntry, rowConverter, selectColumns, type FieldSpec, type Row,
} from './fields';

/** js and sql on SQLite (this file); pg on PostgreSQL (pg-queries.ts) */
export type Variant = 'js' | 'sql' | 'pg';

/** A page of articles: the WHERE clause and ORDER BY for alias `a`, with their parameters. */
export interface ListQuery {
  where: string;
  order: string;
  params: unknown[];
  page: number;
  pageSize: number;
  populate: boolean;
}

export interface ListResult {
  /** the response body */
  body: string;
}

const PUBLISHED = 'a.published_at IS NOT NULL';
export const listWhere = {
  all: () => ({ where: PUBLISHED, params: [] as unknown[] }),
  titleContains: (text: string) => ({ where: `${PUBLISHED} AND a.title LIKE ? ESCAPE '\\'`, params: [`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] as unknown[] }),
  inCategory: (slug: string) => ({
    where: `${PUBLISHED} AND a.id IN (SELECT l.article_id FROM articles_categories_links l JOIN categories c ON c.id = l.category_id WHERE c.slug = ?)`,
    params: [slug] as unknown[],
  }),
};

/** Prepared statements, prepared once per SQL text, and a count of statements run. */
export class Statements {
  private readonly cache = new Map<string, BetterSqlite3.Statement>();
  count = 0;
  constructor(private readonly db: BetterSqlite3.Database) {}
  all(sql: string, params: unknown[]): Row[] {
    this.count++;
    return this.stmt(sql).all(...params) as Row[];
  }
  get(sql: string, params: unknown[]): Row | undefined {
    this.count++;
    return this.stmt(sql).get(...params) as Row | undefined;
  }
  /** a single-column statement returning raw values */
  pluck(sql: string, params: unknown[]): unknown[] {
    this.count++;
    return this.stmt(sql, true).all(...params);
  }
  private stmt(sql: string, pluck = false): BetterSqlite3.Statement {
    const key = pluck ? `P${sql}` : sql;
    let s = this.cache.get(key);
    if (!s) {
      s = this.db.prepare(sql);
      if (pluck) s.pluck();
      this.cache.set(key, s);
    }
    return s;
  }
}

function pagination(q: ListQuery, total: number): string {
  return JSON.stringify({ pagination: { page: q.page, pageSize: q.pageSize, pageCount: Math.ceil(total / q.pageSize), total } });
}

function count(st: Statements, q: ListQuery): number {
  return Number(st.pluck(`SELECT COUNT(*) FROM articles a WHERE ${q.where}`, q.params)[0]);
}

// ---------------------------------------------------------------- js variant

const toArticle = rowConverter(ARTICLE);
const toAuthor = rowConverter(AUTHOR);
const toCategory = rowConverter(CATEGORY);
const toFile = rowConverter(FILE);
const toSeo = rowConverter(SEO);
const toLink = rowConverter(LINK);
const toText = rowConverter(TEXT);
const toQuote = rowConverter(QUOTE);
const toGallery = rowConverter(GALLERY);

const inList = (n: number) => `(${'?,'.repeat(n - 1)}?)`;
type Entry = { id: number; attributes: Record<string, unknown> };

/** rows of `SELECT __p, ...` grouped by parent id */
function byParent<T>(rows: Row[], make: (r: Row) => T): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const p = r.__p as number;
    const list = out.get(p);
    if (list) list.push(make(r));
    else out.set(p, [make(r)]);
  }
  return out;
}

const entry = (conv: (r: Row) => Record<string, unknown>) => (r: Row): Entry => ({ id: r.id as number, attributes: conv(r) });
const flat = (conv: (r: Row) => Record<string, unknown>) => (r: Row) => ({ id: r.id as number, ...conv(r) });

function components(st: Statements, ids: number[], field: string, uid: string, table: string, spec: FieldSpec): Row[] {
  return st.all(
    `SELECT ac.entity_id AS __p, ac.\`order\` AS __o, ${selectColumns(spec, 'x')} FROM articles_components ac JOIN ${table} x ON x.id = ac.component_id ` +
      // unary +: keep SQLite on the entity_id index; without statistics it picks the component_type index
      // for an IN list and reads every component of that type (10x slower at 10k articles)
      `WHERE ac.entity_id IN ${inList(ids.length)} AND +ac.field = '${field}' AND +ac.component_type = '${uid}' ORDER BY ac.entity_id, ac.\`order\`, ac.id`,
    ids,
  );
}

function populateArticlesJs(st: Statements, entries: Entry[]): void {
  const ids = entries.map((e) => e.id);
  const IN = inList(ids.length);
  const authors = byParent(st.all(`SELECT l.article_id AS __p, ${selectColumns(AUTHOR, 'au')} FROM articles_author_links l JOIN authors au ON au.id = l.author_id WHERE l.article_id IN ${IN} ORDER BY l.article_id, l.id`, ids), entry(toAuthor));
  const categories = byParent(st.all(`SELECT l.article_id AS __p, ${selectColumns(CATEGORY, 'c')} FROM articles_categories_links l JOIN categories c ON c.id = l.category_id WHERE l.article_id IN ${IN} ORDER BY l.article_id, l.category_order, l.id`, ids), entry(toCategory));
  const picks = byParent(st.all(`SELECT l.article_id AS __p, ${selectColumns(ARTICLE, 'e')} FROM articles_editor_pick_links l JOIN articles e ON e.id = l.inv_article_id WHERE l.article_id IN ${IN} AND e.published_at IS NOT NULL ORDER BY l.article_id, l.id`, ids), entry(toArticle));
  const related = byParent(st.all(`SELECT l.article_id AS __p, ${selectColumns(ARTICLE, 'e')} FROM articles_related_links l JOIN articles e ON e.id = l.inv_article_id WHERE l.article_id IN ${IN} AND e.published_at IS NOT NULL ORDER BY l.article_id, l.article_order, l.id`, ids), entry(toArticle));
  const seos = byParent(components(st, ids, 'seo', 'shared.seo', 'components_shared_seos', SEO), flat(toSeo));
  const links = byParent(components(st, ids, 'links', 'shared.link', 'components_shared_links', LINK), flat(toLink));
  type Block = { o: number; id: number; value: Record<string, unknown> };
  const blocks = new Map<number, Block[]>();
  const addBlocks = (rows: Row[], uid: string, conv: (r: Row) => Record<string, unknown>) => {
    for (const r of rows) {
      const b = { o: r.__o as number, id: r.id as number, value: { id: r.id, __component: uid, ...conv(r) } };
      const list = blocks.get(r.__p as number);
      if (list) list.push(b);
      else blocks.set(r.__p as number, [b]);
    }
  };
  addBlocks(components(st, ids, 'blocks', 'blocks.text', 'components_blocks_texts', TEXT), 'blocks.text', toText);
  addBlocks(components(st, ids, 'blocks', 'blocks.quote', 'components_blocks_quotes', QUOTE), 'blocks.quote', toQuote);
  addBlocks(components(st, ids, 'blocks', 'blocks.gallery', 'components_blocks_galleries', GALLERY), 'blocks.gallery', toGallery);
  const media = st.all(
    `SELECT m.related_id AS __p, m.field AS __f, ${selectColumns(FILE, 'f')} FROM files_related_morphs m JOIN files f ON f.id = m.file_id ` +
      `WHERE m.related_id IN ${IN} AND m.related_type = 'api::article.article' AND m.field IN ('cover', 'gallery') ORDER BY m.related_id, m.\`order\`, m.id`,
    ids,
  );
  const covers = byParent(media.filter((r) => r.__f === 'cover'), entry(toFile));
  const galleries = byParent(media.filter((r) => r.__f === 'gallery'), entry(toFile));
  for (const e of entries) {
    const a = e.attributes;
    a.author = { data: authors.get(e.id)?.[0] ?? null };
    a.categories = { data: categories.get(e.id) ?? [] };
    a.editorPick = { data: picks.get(e.id)?.[0] ?? null };
    a.related = { data: related.get(e.id) ?? [] };
    a.seo = seos.get(e.id)?.[0] ?? null;
    a.links = links.get(e.id) ?? [];
    a.blocks = (blocks.get(e.id) ?? []).sort((x, y) => x.o - y.o || x.id - y.id).map((b) => b.value);
    a.cover = { data: covers.get(e.id)?.[0] ?? null };
    a.gallery = { data: galleries.get(e.id) ?? null }; // v4: an empty multiple media field is null, an empty relation []
  }
}

function listJs(st: Statements, q: ListQuery): ListResult {
  const rows = st.all(
    `SELECT ${selectColumns(ARTICLE, 'a')} FROM articles a WHERE ${q.where} ORDER BY ${q.order} LIMIT ? OFFSET ?`,
    [...q.params, q.pageSize, (q.page - 1) * q.pageSize],
  );
  const entries = rows.map(entry(toArticle));
  if (q.populate && entries.length) populateArticlesJs(st, entries);
  const total = count(st, q);
  return { body: `{"data":${JSON.stringify(entries)},"meta":${pagination(q, total)}}` };
}

function findOneJs(st: Statements, id: number): string | null {
  const row = st.get(`SELECT ${selectColumns(ARTICLE, 'a')} FROM articles a WHERE a.id = ?`, [id]);
  if (!row) return null;
  const e = entry(toArticle)(row);
  const author = st.get(`SELECT ${selectColumns(AUTHOR, 'au')} FROM articles_author_links l JOIN authors au ON au.id = l.author_id WHERE l.article_id = ? ORDER BY l.id LIMIT 1`, [id]);
  let authorData: Entry | null = null;
  if (author) {
    authorData = entry(toAuthor)(author);
    const avatar = st.get(
      `SELECT ${selectColumns(FILE, 'f')} FROM files_related_morphs m JOIN files f ON f.id = m.file_id WHERE m.related_id = ? AND m.related_type = 'api::author.author' AND m.field = 'avatar' ORDER BY m.\`order\`, m.id LIMIT 1`,
      [authorData.id],
    );
    authorData.attributes.avatar = { data: avatar ? entry(toFile)(avatar) : null };
  }
  e.attributes.author = { data: authorData };
  e.attributes.categories = {
    data: st.all(`SELECT ${selectColumns(CATEGORY, 'c')} FROM articles_categories_links l JOIN categories c ON c.id = l.category_id WHERE l.article_id = ? ORDER BY l.category_order, l.id`, [id]).map(entry(toCategory)),
  };
  return JSON.stringify({ data: e, meta: {} });
}

// ---------------------------------------------------------------- sql variant

/** a to-one value; json() outside: through a subquery with ORDER BY ... LIMIT 1 the JSON subtype is lost (read-path-json.md pitfall 2) */
const one = (expr: string, from: string) => `json((SELECT ${expr} ${from}))`;

const ARTICLE_POPULATE_JSON = [
  `'author', json_object('data', ${one(jsonEntry(AUTHOR, 'au'), `FROM articles_author_links l JOIN authors au ON au.id = l.author_id WHERE l.article_id = a.id ORDER BY l.id LIMIT 1`)})`,
  `'categories', json_object('data', (SELECT json_group_array(${jsonEntry(CATEGORY, 'c')} ORDER BY l.category_order, l.id) FROM articles_categories_links l JOIN categories c ON c.id = l.category_id WHERE l.article_id = a.id))`,
  `'editorPick', json_object('data', ${one(jsonEntry(ARTICLE, 'e'), `FROM articles_editor_pick_links l JOIN articles e ON e.id = l.inv_article_id WHERE l.article_id = a.id AND e.published_at IS NOT NULL ORDER BY l.id LIMIT 1`)})`,
  `'related', json_object('data', (SELECT json_group_array(${jsonEntry(ARTICLE, 'e')} ORDER BY l.article_order, l.id) FROM articles_related_links l JOIN articles e ON e.id = l.inv_article_id WHERE l.article_id = a.id AND e.published_at IS NOT NULL))`,
  `'seo', ${one(jsonComponent(SEO, 's'), `FROM articles_components ac JOIN components_shared_seos s ON s.id = ac.component_id WHERE ac.entity_id = a.id AND ac.field = 'seo' AND ac.component_type = 'shared.seo' ORDER BY ac.\`order\`, ac.id LIMIT 1`)}`,
  `'links', (SELECT json_group_array(${jsonComponent(LINK, 'k')} ORDER BY ac.\`order\`, ac.id) FROM articles_components ac JOIN components_shared_links k ON k.id = ac.component_id WHERE ac.entity_id = a.id AND ac.field = 'links' AND ac.component_type = 'shared.link')`,
  `'blocks', (SELECT json_group_array(CASE ac.component_type` +
    ` WHEN 'blocks.text' THEN (SELECT ${jsonComponent(TEXT, 'x', 'blocks.text')} FROM components_blocks_texts x WHERE x.id = ac.component_id)` +
    ` WHEN 'blocks.quote' THEN (SELECT ${jsonComponent(QUOTE, 'x', 'blocks.quote')} FROM components_blocks_quotes x WHERE x.id = ac.component_id)` +
    ` WHEN 'blocks.gallery' THEN (SELECT ${jsonComponent(GALLERY, 'x', 'blocks.gallery')} FROM components_blocks_galleries x WHERE x.id = ac.component_id)` +
    ` END ORDER BY ac.\`order\`, ac.component_id) FROM articles_components ac WHERE ac.entity_id = a.id AND ac.field = 'blocks')`,
  `'cover', json_object('data', ${one(jsonEntry(FILE, 'f'), `FROM files_related_morphs m JOIN files f ON f.id = m.file_id WHERE m.related_id = a.id AND m.related_type = 'api::article.article' AND m.field = 'cover' ORDER BY m.\`order\`, m.id LIMIT 1`)})`,
  `'gallery', json_object('data', (SELECT CASE WHEN COUNT(*) THEN json_group_array(${jsonEntry(FILE, 'f')} ORDER BY m.\`order\`, m.id) END FROM files_related_morphs m JOIN files f ON f.id = m.file_id WHERE m.related_id = a.id AND m.related_type = 'api::article.article' AND m.field = 'gallery'))`,
].join(', ');

function listSql(st: Statements, q: ListQuery): ListResult {
  // page the base table first (ids only), then write the JSON of those entries alone
  const sql =
    `WITH page AS MATERIALIZED (SELECT a.id AS id FROM articles a WHERE ${q.where} ORDER BY ${q.order} LIMIT ? OFFSET ?) ` +
    `SELECT ${jsonEntry(ARTICLE, 'a', q.populate ? ARTICLE_POPULATE_JSON : '')} FROM page p CROSS JOIN articles a ON a.id = p.id ORDER BY ${q.order}`;
  const rows = st.pluck(sql, [...q.params, q.pageSize, (q.page - 1) * q.pageSize]) as string[];
  const total = count(st, q);
  return { body: `{"data":[${rows.join(',')}],"meta":${pagination(q, total)}}` };
}

const AVATAR_JSON = `'avatar', json_object('data', ${one(jsonEntry(FILE, 'f'), `FROM files_related_morphs m JOIN files f ON f.id = m.file_id WHERE m.related_id = au.id AND m.related_type = 'api::author.author' AND m.field = 'avatar' ORDER BY m.\`order\`, m.id LIMIT 1`)})`;
const FIND_ONE_JSON =
  `SELECT json_object('data', ${jsonEntry(ARTICLE, 'a',
    `'author', json_object('data', ${one(jsonEntry(AUTHOR, 'au', AVATAR_JSON), `FROM articles_author_links l JOIN authors au ON au.id = l.author_id WHERE l.article_id = a.id ORDER BY l.id LIMIT 1`)}), ` +
    `'categories', json_object('data', (SELECT json_group_array(${jsonEntry(CATEGORY, 'c')} ORDER BY l.category_order, l.id) FROM articles_categories_links l JOIN categories c ON c.id = l.category_id WHERE l.article_id = a.id))`,
  )}, 'meta', json_object()) FROM articles a WHERE a.id = ?`;

function findOneSql(st: Statements, id: number): string | null {
  const rows = st.pluck(FIND_ONE_JSON, [id]) as string[];
  return rows.length ? rows[0] : null;
}

/** the pg floor answers asynchronously */
export interface FloorQueries {
  list(q: ListQuery): ListResult | Promise<ListResult>;
  findOne(id: number): string | null | Promise<string | null>;
}

export function floorQueries(st: Statements, variant: 'js' | 'sql'): FloorQueries {
  return variant === 'sql'
    ? { list: (q) => listSql(st, q), findOne: (id) => findOneSql(st, id) }
    : { list: (q) => listJs(st, q), findOne: (id) => findOneJs(st, id) };
}
