// The pg floor: the floor's read queries (queries.ts) on PostgreSQL, in their best form there: ONE statement
// per request in which PostgreSQL writes the whole page's JSON (json_build_object / json_agg in correlated
// subqueries over the page of ids, taken first) and the total beside it; named (prepared once per connection);
// JavaScript only writes the envelope around the text. Same answers as Tessera on PostgreSQL (the runner
// compares them before measuring).
import type pg from 'pg';
import { ARTICLE, AUTHOR, CATEGORY, FILE, GALLERY, LINK, QUOTE, SEO, TEXT, pgComponent, pgEntry } from './fields';
import type { FloorQueries, ListQuery } from './queries';

const PUBLISHED = 'a.published_at IS NOT NULL';

/** the WHERE clauses of the list cases, `$1` the only parameter */
export const pgListWhere = {
  all: () => ({ where: PUBLISHED, params: [] as unknown[] }),
  // v4's $containsi (ILIKE on PostgreSQL); lower() LIKE lower() finds the same rows faster (4.1 vs 5.5 ms on 10k)
  titleContains: (text: string) => ({ where: `${PUBLISHED} AND lower(a.title) LIKE lower($1)`, params: [`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] as unknown[] }),
  inCategory: (slug: string) => ({
    where: `${PUBLISHED} AND a.id IN (SELECT l.article_id FROM articles_categories_links l JOIN categories c ON c.id = l.category_id WHERE c.slug = $1)`,
    params: [slug] as unknown[],
  }),
};

/** a list of entries, `[]` when there is none */
const list = (agg: string) => `COALESCE(${agg}, '[]'::json)`;

const MORPH = (related: string, type: string, field: string) =>
  `FROM files_related_morphs m JOIN files f ON f.id = m.file_id WHERE m.related_id = ${related} AND m.related_type = '${type}' AND m.field = '${field}'`;

const ARTICLE_POPULATE = [
  `'author', json_build_object('data', (SELECT ${pgEntry(AUTHOR, 'au')} FROM articles_author_links l JOIN authors au ON au.id = l.author_id WHERE l.article_id = a.id ORDER BY l.id LIMIT 1))`,
  `'categories', json_build_object('data', ${list(`(SELECT json_agg(${pgEntry(CATEGORY, 'c')} ORDER BY l.category_order, l.id) FROM articles_categories_links l JOIN categories c ON c.id = l.category_id WHERE l.article_id = a.id)`)})`,
  `'editorPick', json_build_object('data', (SELECT ${pgEntry(ARTICLE, 'e')} FROM articles_editor_pick_links l JOIN articles e ON e.id = l.inv_article_id WHERE l.article_id = a.id AND e.published_at IS NOT NULL ORDER BY l.id LIMIT 1))`,
  `'related', json_build_object('data', ${list(`(SELECT json_agg(${pgEntry(ARTICLE, 'e')} ORDER BY l.article_order, l.id) FROM articles_related_links l JOIN articles e ON e.id = l.inv_article_id WHERE l.article_id = a.id AND e.published_at IS NOT NULL)`)})`,
  `'seo', (SELECT ${pgComponent(SEO, 's')} FROM articles_components ac JOIN components_shared_seos s ON s.id = ac.component_id WHERE ac.entity_id = a.id AND ac.field = 'seo' AND ac.component_type = 'shared.seo' ORDER BY ac."order", ac.id LIMIT 1)`,
  `'links', ${list(`(SELECT json_agg(${pgComponent(LINK, 'k')} ORDER BY ac."order", ac.id) FROM articles_components ac JOIN components_shared_links k ON k.id = ac.component_id WHERE ac.entity_id = a.id AND ac.field = 'links' AND ac.component_type = 'shared.link')`)}`,
  `'blocks', ${list(`(SELECT json_agg(CASE ac.component_type` +
    ` WHEN 'blocks.text' THEN (SELECT ${pgComponent(TEXT, 'x', 'blocks.text')} FROM components_blocks_texts x WHERE x.id = ac.component_id)` +
    ` WHEN 'blocks.quote' THEN (SELECT ${pgComponent(QUOTE, 'x', 'blocks.quote')} FROM components_blocks_quotes x WHERE x.id = ac.component_id)` +
    ` WHEN 'blocks.gallery' THEN (SELECT ${pgComponent(GALLERY, 'x', 'blocks.gallery')} FROM components_blocks_galleries x WHERE x.id = ac.component_id)` +
    ` END ORDER BY ac."order", ac.component_id) FROM articles_components ac WHERE ac.entity_id = a.id AND ac.field = 'blocks')`)}`,
  `'cover', json_build_object('data', (SELECT ${pgEntry(FILE, 'f')} ${MORPH('a.id', 'api::article.article', 'cover')} ORDER BY m."order", m.id LIMIT 1))`,
  // v4: an empty multiple media field is null (json_agg of no row is NULL)
  `'gallery', json_build_object('data', (SELECT json_agg(${pgEntry(FILE, 'f')} ORDER BY m."order", m.id) ${MORPH('a.id', 'api::article.article', 'gallery')}))`,
].join(', ');

const AVATAR = `'avatar', json_build_object('data', (SELECT ${pgEntry(FILE, 'f')} ${MORPH('au.id', 'api::author.author', 'avatar')} ORDER BY m."order", m.id LIMIT 1))`;
const FIND_ONE =
  `SELECT json_build_object('data', ${pgEntry(ARTICLE, 'a',
    `'author', json_build_object('data', (SELECT ${pgEntry(AUTHOR, 'au', AVATAR)} FROM articles_author_links l JOIN authors au ON au.id = l.author_id WHERE l.article_id = a.id ORDER BY l.id LIMIT 1)), ` +
    `'categories', json_build_object('data', ${list(`(SELECT json_agg(${pgEntry(CATEGORY, 'c')} ORDER BY l.category_order, l.id) FROM articles_categories_links l JOIN categories c ON c.id = l.category_id WHERE l.article_id = a.id)`)})`,
  )}, 'meta', json_build_object())::text AS body FROM articles a WHERE a.id = $1`;

/**
 * The page of ids first, then the JSON of those entries alone, and the total: one statement. With a filter
 * (or a deep page) the matching rows are found once, for the count and the page: evaluating an ILIKE or a
 * relation filter twice doubles the work (measured in psql on 10k articles: `$containsi` + sort 8.3 -> 4.3 ms,
 * the category filter 5.7-8.4 -> 3.0 ms, page 200 5.9 -> 5.4 ms); the first page of all articles walks the
 * primary key to its 25 rows instead (4.5 vs 4.8 ms).
 */
function listSql(q: ListQuery): string {
  const n = q.params.length;
  const entries = `(SELECT ${list(`json_agg(${pgEntry(ARTICLE, 'a', q.populate ? ARTICLE_POPULATE : '')} ORDER BY ${q.order})`)} FROM page p JOIN articles a ON a.id = p.id)::text AS data`;
  if (n === 0 && q.page === 1) {
    return `WITH page AS MATERIALIZED (SELECT a.id FROM articles a WHERE ${q.where} ORDER BY ${q.order} LIMIT $${n + 1} OFFSET $${n + 2}) ` +
      `SELECT (SELECT count(*) FROM articles a WHERE ${q.where}) AS total, ${entries}`;
  }
  // `a` again over the matches, so the ORDER BY reads the same
  return `WITH matched AS MATERIALIZED (SELECT a.id, a.views FROM articles a WHERE ${q.where}), ` +
    `page AS MATERIALIZED (SELECT a.id FROM matched a ORDER BY ${q.order} LIMIT $${n + 1} OFFSET $${n + 2}) ` +
    `SELECT (SELECT count(*) FROM matched) AS total, ${entries}`;
}

export interface PgStatements {
  count: number;
  query(sql: string, params: unknown[]): Promise<pg.QueryResult>;
}

/** statements by text, each with its name: pg prepares a named statement once per connection */
export function pgStatements(pool: pg.Pool): PgStatements {
  const names = new Map<string, string>();
  const st: PgStatements = {
    count: 0,
    query(sql, params) {
      st.count++;
      let name = names.get(sql);
      if (!name) names.set(sql, (name = `floor${names.size + 1}`));
      return pool.query({ name, text: sql, values: params });
    },
  };
  return st;
}

export function pgFloorQueries(st: PgStatements): FloorQueries {
  return {
    async list(q) {
      const { rows } = await st.query(listSql(q), [...q.params, q.pageSize, (q.page - 1) * q.pageSize]);
      const total = Number(rows[0].total);
      const meta = JSON.stringify({ pagination: { page: q.page, pageSize: q.pageSize, pageCount: Math.ceil(total / q.pageSize), total } });
      return { body: `{"data":${rows[0].data},"meta":${meta}}` };
    },
    async findOne(id) {
      const { rows } = await st.query(FIND_ONE, [id]);
      return rows.length ? (rows[0].body as string) : null;
    },
  };
}
