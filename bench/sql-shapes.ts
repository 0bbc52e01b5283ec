// SQL shapes behind the hot-path proposals in bench/README.md, timed side by side on a generated dataset:
// what Tessera compiles today next to the alternative, same answer checked, best of 7 rounds.
//
//   npx tsx bench/sql-shapes.ts [--articles 10000]
import BetterSqlite3 from 'better-sqlite3';
import { ensureDataset } from './generate';

interface Shape {
  topic: string;
  variants: { name: string; sql: string; /** a scale reference, not an equivalent query */ reference?: boolean }[];
  params: unknown[];
}

const IDS = JSON.stringify(Array.from({ length: 25 }, (_, i) => i + 1));
const component = (plus: string) =>
  `SELECT t1.entity_id AS __parent, t1.\`order\` AS __order, t2.id AS id, t2.meta_title, t2.meta_description FROM articles_components t1 ` +
  `JOIN components_shared_seos t2 ON t2.id = t1.component_id WHERE t1.entity_id IN (SELECT value FROM json_each(?)) ` +
  `AND ${plus}t1.field = ? AND ${plus}t1.component_type = ? ORDER BY t1.entity_id, t1.\`order\`, t1.id`;

export const SHAPES: Shape[] = [
  {
    topic: 'batched component population (25 parents, one component attribute)',
    params: [IDS, 'seo', 'shared.seo'],
    variants: [
      { name: 'today: field/component_type are indexed, SQLite picks that index', sql: component('') },
      { name: 'unary + on field/component_type: stays on the entity_id index', sql: component('+') },
    ],
  },
  {
    topic: 'count for a filter through a relation (filters[categories][slug][$eq])',
    params: ['category-3'],
    variants: [
      { name: 'today: correlated EXISTS per article', sql: 'SELECT COUNT(*) AS n FROM articles t0 WHERE (EXISTS (SELECT 1 FROM articles_categories_links t1 JOIN categories t2 ON t2.id = t1.category_id WHERE t1.article_id = t0.id AND (t2.slug = ?))) AND t0.published_at IS NOT NULL' },
      { name: 'id IN (uncorrelated subquery), evaluated once', sql: 'SELECT COUNT(*) AS n FROM articles t0 WHERE t0.id IN (SELECT t1.article_id FROM articles_categories_links t1 JOIN categories t2 ON t2.id = t1.category_id WHERE t2.slug = ?) AND t0.published_at IS NOT NULL' },
    ],
  },
  {
    topic: 'count of published entries (every list with withCount)',
    params: [],
    variants: [
      { name: 'today: published_at IS NOT NULL reads every row', sql: 'SELECT COUNT(*) AS n FROM articles t0 WHERE t0.published_at IS NOT NULL' },
      { name: 'for scale only: COUNT(*) without a WHERE', sql: 'SELECT COUNT(*) AS n FROM articles t0', reference: true },
    ],
  },
  {
    topic: '$containsi on title, sorted by views, first page',
    params: ['%harbor%'],
    variants: [
      { name: "today: lower(title) LIKE lower(?), whole rows through the sorter", sql: "SELECT * FROM articles t0 WHERE lower(t0.title) LIKE lower(?) ESCAPE '\\' AND t0.published_at IS NOT NULL ORDER BY t0.views DESC, t0.id LIMIT 25" },
      { name: 'page the ids first, then read 25 rows', sql: "WITH p AS MATERIALIZED (SELECT id, views FROM articles t0 WHERE lower(t0.title) LIKE lower(?) ESCAPE '\\' AND t0.published_at IS NOT NULL ORDER BY t0.views DESC, t0.id LIMIT 25) SELECT a.* FROM p CROSS JOIN articles a ON a.id = p.id ORDER BY p.views DESC, p.id" },
    ],
  },
  {
    topic: '$containsi predicate alone (count of matches)',
    params: ['%harbor%'],
    variants: [
      { name: 'today: lower(title) LIKE lower(?)', sql: "SELECT COUNT(*) AS n FROM articles t0 WHERE lower(t0.title) LIKE lower(?) ESCAPE '\\' AND t0.published_at IS NOT NULL" },
      { name: "title LIKE ? (SQLite's LIKE already folds ASCII case)", sql: "SELECT COUNT(*) AS n FROM articles t0 WHERE t0.title LIKE ? ESCAPE '\\' AND t0.published_at IS NOT NULL" },
    ],
  },
  {
    topic: 'page 200 (OFFSET 4975)',
    params: [],
    variants: [
      { name: 'today: whole rows at OFFSET', sql: 'SELECT * FROM articles t0 WHERE t0.published_at IS NOT NULL ORDER BY t0.id LIMIT 25 OFFSET 4975' },
      { name: 'keyset: WHERE id > last id of page 199 (when the client pages in order)', sql: 'SELECT * FROM articles t0 WHERE t0.published_at IS NOT NULL AND t0.id > 5553 ORDER BY t0.id LIMIT 25' },
    ],
  },
];

export function timeShapes(file: string, rounds = 7, perRound = 50): string[] {
  const db = new BetterSqlite3(file, { readonly: true });
  const lines: string[] = ['| query | variant | µs (best of rounds) | rows |', '|---|---|---|---|'];
  try {
    for (const shape of SHAPES) {
      const stmts = shape.variants.map((v) => ({ ...v, st: db.prepare(v.sql) }));
      const answers = stmts.map((s) => JSON.stringify(s.st.all(...shape.params)));
      const best = stmts.map(() => Infinity);
      for (let r = 0; r < rounds; r++) {
        stmts.forEach((s, i) => {
          const t0 = process.hrtime.bigint();
          for (let k = 0; k < perRound; k++) s.st.all(...shape.params);
          best[i] = Math.min(best[i], Number(process.hrtime.bigint() - t0) / 1000 / perRound);
        });
      }
      stmts.forEach((s, i) => {
        const same = i === 0 || s.reference || answers[i] === answers[0] ? '' : ' (DIFFERENT ANSWER)';
        lines.push(`| ${i === 0 ? shape.topic : ''} | ${s.name}${same} | ${Math.round(best[i]).toLocaleString('en-US')} | ${JSON.parse(answers[i]).length} |`);
      });
    }
  } finally {
    db.close();
  }
  return lines;
}

async function main(argv: string[]): Promise<void> {
  const i = argv.indexOf('--articles');
  const articles = i >= 0 ? Number(argv[i + 1]) : 10_000;
  const { file } = await ensureDataset(articles, (m) => console.error(m));
  console.log(`SQL shapes on ${articles.toLocaleString('en-US')} articles (better-sqlite3, in-process):\n`);
  console.log(timeShapes(file).join('\n'));
}

if (require.main === module) main(process.argv.slice(2)).catch((err) => { console.error(err); process.exitCode = 1; });
