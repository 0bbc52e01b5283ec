// The link rows a relation write leaves behind, read straight from a database file, in a form that can be
// compared between real Strapi 4.26.2 and Tessera after the same requests: order columns on both sides of
// every relation, media links with their order, and each component field's items in order. Link-row ids
// are left out (they are internal and differ with the number of statements).
import BetterSqlite3 from 'better-sqlite3';

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

export function linkState(file: string, tables = FIXTURE_LINK_TABLES, componentTables = ['articles_components', 'homepages_components']): LinkState {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const out: LinkState = {};
    for (const [table, cols] of Object.entries(tables)) {
      const list = cols.map((c) => `"${c}"`).join(', ');
      out[table] = db.prepare(`SELECT ${list} FROM "${table}" ORDER BY ${list}`).raw().all() as unknown[][];
    }
    // components: v4 renumbers the order of every field of an entity together on some updates; what a
    // reader sees is each field's items in order, which is what is compared
    for (const table of componentTables) {
      out[table] = db.prepare(
        `SELECT entity_id, field, json_group_array(component_type || '#' || component_id) FROM (SELECT * FROM "${table}" ORDER BY entity_id, field, "order", id) GROUP BY entity_id, field ORDER BY entity_id, field`,
      ).raw().all() as unknown[][];
    }
    return out;
  } finally {
    db.close();
  }
}
