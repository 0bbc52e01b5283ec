// The link rows a relation write leaves behind, read from the database an app runs on, in a form that can be
// compared between real Strapi 4.26.2 and Tessera after the same requests: order columns on both sides of
// every relation, media links with their order, and each component field's items in order. Link-row ids
// are left out (they are internal and differ with the number of statements).
import type { Database } from '../../src/storage/dialect';
import { dbRows } from '../helpers/db-rows';

/** the fixture app's link tables, with the columns compared */
export const FIXTURE_LINK_TABLES: Record<string, string[]> = {
  articles_author_links: ['article_id', 'author_id', 'article_order'],
  articles_categories_links: ['article_id', 'category_id', 'category_order', 'article_order'],
  articles_editor_pick_links: ['article_id', 'inv_article_id'],
  articles_related_links: ['article_id', 'inv_article_id', 'article_order'],
  homepages_featured_links: ['homepage_id', 'article_id', 'article_order'],
  files_related_morphs: ['file_id', 'related_id', 'related_type', 'field', 'order'],
};

export type LinkState = Record<string, unknown[][]>;

/** the relations test app's (test/fixtures/relations-app) */
export const RELATIONS_APP_LINK_TABLES: Record<string, string[]> = {
  people_profile_links: ['person_id', 'profile_id'],
  people_tags_links: ['person_id', 'tag_id', 'tag_order'],
  people_friends_links: ['person_id', 'inv_person_id', 'person_order', 'inv_person_order'],
  people_mentor_links: ['person_id', 'inv_person_id'],
  people_account_links: ['person_id', 'user_id'],
  components_thing_inners_tag_links: ['inner_id', 'tag_id'],
};

/** SQLite's order (NULLs first, numbers by value, texts by code unit), the same on either dialect */
function compareTuples(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    return (x as number | string) < (y as number | string) ? -1 : 1;
  }
  return 0;
}

/** the link state of the database `db` (an app's `app.db`: committed rows) */
export async function linkState(db: Database, tables = FIXTURE_LINK_TABLES, componentTables = ['articles_components', 'homepages_components']): Promise<LinkState> {
  const q = (id: string) => db.dialect.quote(id);
  const out: LinkState = {};
  for (const [table, cols] of Object.entries(tables)) {
    const rows = await dbRows(db, `SELECT ${cols.map(q).join(', ')} FROM ${q(table)}`);
    out[table] = rows.map((r) => cols.map((c) => r[c])).sort(compareTuples);
  }
  // components: v4 renumbers the order of every field of an entity together on some updates; what a reader
  // sees is each field's items in order, which is what is compared (as [entity_id, field, JSON list of
  // "type#id"])
  for (const table of componentTables) {
    const rows = await dbRows<{ entity_id: number; field: string; component_type: string; component_id: number; order: number | null; id: number }>(
      db, `SELECT entity_id, field, component_type, component_id, ${q('order')}, id FROM ${q(table)}`,
    );
    const items = new Map<string, { entity: number; field: string; list: string[] }>();
    for (const r of rows.sort((a, b) => compareTuples([a.entity_id, a.field, a.order, a.id], [b.entity_id, b.field, b.order, b.id]))) {
      const key = JSON.stringify([r.entity_id, r.field]);
      let group = items.get(key);
      if (!group) items.set(key, (group = { entity: r.entity_id, field: r.field, list: [] }));
      group.list.push(`${r.component_type}#${r.component_id}`);
    }
    out[table] = [...items.values()].map((g) => [g.entity, g.field, JSON.stringify(g.list)]);
  }
  return out;
}
