import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildModel, type ModelSource } from '../../../src/model/build-model';
import { internalModelSources } from '../../../src/model/internal-models';
import { schemaFromModel } from '../../../src/storage/schema/schema-from-model';
import { syncSchema, type SyncResult } from '../../../src/storage/schema/sync-schema';
import { v4PersistedSchema, v4SchemaHash } from '../../../src/storage/schema/v4-schema';
import { SqliteDatabase } from '../../../src/storage/sqlite/sqlite-database';
import type { Model } from '../../../src/model/types';
import { FIXTURE_DB, fixtureModel, projectSources } from './fixture-project';
import { copyDb, masterSql, rowCounts, shapeOf, tempDir } from './sqlite-shape';

function quietLog() {
  const lines: { level: 'info' | 'warn'; msg: string }[] = [];
  return {
    lines,
    info: (msg: string) => { lines.push({ level: 'info', msg }); },
    warn: (msg: string) => { lines.push({ level: 'warn', msg }); },
  };
}

function storedSchema(file: string): { schema: string; hash: string; time: number } | undefined {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db.prepare('SELECT schema, hash, time FROM strapi_database_schema').get() as { schema: string; hash: string; time: number } | undefined;
  } finally {
    db.close();
  }
}

/** v4's table order of the fixture, so our model (and its persisted schema) is ordered like v4's */
const fixtureTableOrder = (JSON.parse(storedSchema(FIXTURE_DB)!.schema) as { tables: { name: string }[] }).tables.map((t) => t.name);

async function sync(file: string, model: Model, log = quietLog()): Promise<SyncResult> {
  const db = new SqliteDatabase(file);
  try {
    return await syncSchema(db, model, log);
  } finally {
    await db.close();
  }
}

function withAttributes(src: ModelSource, edit: (attrs: Record<string, any>) => void): ModelSource {
  const copy = structuredClone(src);
  edit(copy.schema.attributes as Record<string, any>);
  return copy;
}

let dir: string;
beforeEach(() => { dir = tempDir(); });
afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

describe('internal models', () => {
  it('build with the project and give the link tables v4 has', () => {
    const model = fixtureModel();
    const jt = (uid: string, attr: string) => {
      const a = model.require(uid).attributes[attr];
      return a.kind === 'relation' ? a.joinTable : undefined;
    };
    expect(jt('admin::api-token-permission', 'token')).toEqual({
      name: 'strapi_api_token_permissions_token_links', joinColumn: 'api_token_permission_id', inverseJoinColumn: 'api_token_id', inverseOrderColumn: 'api_token_permission_order',
    });
    expect(jt('plugin::users-permissions.user', 'role')).toMatchObject({ name: 'up_users_role_links', joinColumn: 'user_id', inverseJoinColumn: 'role_id', inverseOrderColumn: 'user_order' });
    expect(jt('plugin::upload.file', 'folder')).toMatchObject({ name: 'files_folder_links', joinColumn: 'file_id', inverseJoinColumn: 'folder_id', inverseOrderColumn: 'file_order' });
    expect(jt('plugin::upload.folder', 'parent')).toMatchObject({ name: 'upload_folders_parent_links', joinColumn: 'folder_id', inverseJoinColumn: 'inv_folder_id', inverseOrderColumn: 'folder_order' });
    expect(model.require('plugin::upload.file').attributes.related).toMatchObject({ kind: 'relation', relation: 'morphToMany' });
    expect(model.require('plugin::i18n.locale').collectionName).toBe('i18n_locale');
    expect(internalModelSources().map((s) => s.modelName)).toEqual([
      'permission', 'user', 'role', 'api-token', 'api-token-permission', 'transfer-token', 'transfer-token-permission',
      'file', 'folder', 'release', 'release-action', 'permission', 'role', 'user', 'locale',
    ]);
  });

  it('reproduce the schema v4 persisted for the fixture byte for byte (same hash)', () => {
    const row = storedSchema(FIXTURE_DB)!;
    const ours = v4PersistedSchema(fixtureModel(fixtureTableOrder));
    expect(JSON.stringify(ours)).toBe(row.schema);
    expect(v4SchemaHash(ours)).toBe(row.hash);
  });
});

describe('schema from model', () => {
  it('gives every table of the fixture, with v4 column types and index kinds', () => {
    const tables = schemaFromModel(fixtureModel());
    const articles = tables.find((t) => t.name === 'articles')!;
    expect(articles.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'id:increments', 'title:string', 'slug:string', 'body:text', 'views:integer', 'rating:double', 'price:decimal',
      'featured:boolean', 'kind:string', 'publish_date:date', 'scheduled_at:datetime', 'meta:jsonb', 'big:bigInteger',
      'created_at:datetime', 'updated_at:datetime', 'published_at:datetime', 'created_by_id:integer', 'updated_by_id:integer',
    ]);
    expect(articles.indexes).toContainEqual({ name: 'articles_slug_unique', columns: ['slug'], type: 'unique' });
    expect(articles.foreignKeys).toContainEqual({ name: 'articles_created_by_id_fk', columns: ['created_by_id'], referencedTable: 'admin_users', referencedColumns: ['id'], onDelete: 'SET NULL' });
    // v4 makes a unique index only for uid attributes (and column.unique), not for `unique: true`
    expect(tables.find((t) => t.name === 'categories')!.indexes.map((i) => i.name)).not.toContain('categories_name_unique');
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['strapi_migrations', 'strapi_database_schema', 'files_related_morphs']));
  });
});

describe('syncSchema', () => {
  it('(a) builds, on an empty file, exactly the tables, columns, indexes and foreign keys real v4 built', async () => {
    const fresh = path.join(dir, 'fresh.db');
    const log = quietLog();
    const res = await sync(fresh, fixtureModel(fixtureTableOrder), log);
    expect(res.warnings).toEqual([]);
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([]);

    const ours = shapeOf(fresh);
    const v4 = shapeOf(copyDb(FIXTURE_DB, dir, 'fixture.db'));
    expect([...ours.tables.keys()]).toEqual([...v4.tables.keys()]);
    for (const [name, t] of v4.tables) {
      const o = ours.tables.get(name)!;
      expect({ table: name, columns: o.columns }).toEqual({ table: name, columns: t.columns });
      expect({ table: name, indexes: Object.fromEntries(o.indexes) }).toEqual({ table: name, indexes: Object.fromEntries(t.indexes) });
      expect({ table: name, fks: o.foreignKeys }).toEqual({ table: name, fks: t.foreignKeys });
    }
    expect(res.created.length).toBe(v4.tables.size);
    // the row v4 reads at start: the same schema and hash v4 wrote for this project
    const row = storedSchema(fresh)!;
    expect(row.hash).toBe(storedSchema(FIXTURE_DB)!.hash);
    expect(row.schema).toBe(storedSchema(FIXTURE_DB)!.schema);
    expect(rowCounts(fresh).strapi_migrations).toBe(0);
  });

  it('(b) on the database real v4 wrote: creates nothing, changes nothing', async () => {
    const file = copyDb(FIXTURE_DB, dir);
    const before = { counts: rowCounts(file), sql: masterSql(file), row: storedSchema(file) };
    const res = await sync(file, fixtureModel());
    expect(res).toEqual({ created: [], addedColumns: [], addedIndexes: [], warnings: [] });
    expect(rowCounts(file)).toEqual(before.counts);
    expect(masterSql(file)).toEqual(before.sql);
    expect(storedSchema(file)).toEqual(before.row);
  });

  it('(c) is idempotent', async () => {
    const file = path.join(dir, 'fresh.db');
    const first = await sync(file, fixtureModel());
    expect(first.created.length).toBeGreaterThan(40);
    const sql = masterSql(file);
    const row = storedSchema(file);
    const second = await sync(file, fixtureModel());
    expect(second).toEqual({ created: [], addedColumns: [], addedIndexes: [], warnings: [] });
    expect(masterSql(file)).toEqual(sql);
    expect(storedSchema(file)).toEqual(row);
  });

  describe('(d) a changed model', () => {
    const project = () => projectSources();
    const article = () => project().find((s) => s.uid === 'api::article.article')!;
    const model = (replace: ModelSource[] = [], extra: ModelSource[] = []) => {
      const uids = new Set(replace.map((s) => s.uid));
      return buildModel([...internalModelSources(), ...project().map((s) => (uids.has(s.uid) ? replace.find((r) => r.uid === s.uid)! : s)), ...extra]);
    };
    const tag: ModelSource = {
      uid: 'api::tag.tag', kind: 'collectionType', origin: 'api', modelName: 'tag',
      schema: {
        kind: 'collectionType', collectionName: 'tags', info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
        options: { draftAndPublish: false }, pluginOptions: { i18n: { localized: true } },
        attributes: {
          label: { type: 'string' },
          code: { type: 'uid' },
          articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' },
          extras: { type: 'component', repeatable: true, component: 'shared.link' },
        },
      },
    };

    it('adds the new attribute and the new content type (tables, links, indexes) and keeps the data', async () => {
      const file = copyDb(FIXTURE_DB, dir);
      const counts = rowCounts(file);
      const changed = withAttributes(article(), (a) => {
        a.subtitle = { type: 'string' };
        a.code = { type: 'uid' };
      });
      const log = quietLog();
      const res = await sync(file, model([changed], [tag]), log);
      expect(res.created.sort()).toEqual(['tags', 'tags_articles_links', 'tags_components', 'tags_localizations_links']);
      expect(res.addedColumns).toEqual(['articles.subtitle', 'articles.code']);
      expect(res.addedIndexes).toEqual(['articles.articles_code_unique']);
      expect(res.warnings).toEqual([]);
      const shape = shapeOf(file);
      expect(shape.tables.get('articles')!.columns.slice(-2)).toEqual([
        { name: 'subtitle', type: 'varchar(255)', notnull: 0, pk: 0 },
        { name: 'code', type: 'varchar(255)', notnull: 0, pk: 0 },
      ]);
      expect(shape.tables.get('tags')!.columns.map((c) => c.name)).toEqual(['id', 'label', 'code', 'created_at', 'updated_at', 'created_by_id', 'updated_by_id', 'locale']);
      expect(shape.tables.get('tags_articles_links')!.columns.map((c) => c.name)).toEqual(['id', 'tag_id', 'article_id', 'article_order']);
      expect(shape.tables.get('tags_articles_links')!.foreignKeys).toEqual([
        'article_id -> articles(id) ON DELETE CASCADE', 'tag_id -> tags(id) ON DELETE CASCADE',
      ]);
      const after = rowCounts(file);
      for (const [t, n] of Object.entries(counts)) if (t !== 'sqlite_sequence') expect({ t, n: after[t] }).toEqual({ t, n });
      // the stored v4 schema now describes the new model (v4 started on the same project finds it unchanged)
      expect(storedSchema(file)!.hash).toBe(v4SchemaHash(v4PersistedSchema(model([changed], [tag]))));
      // and again: nothing left to do
      expect(await sync(file, model([changed], [tag]))).toEqual({ created: [], addedColumns: [], addedIndexes: [], warnings: [] });
    });

    it('keeps the column of a removed attribute, with its data', async () => {
      const file = copyDb(FIXTURE_DB, dir);
      const sums = () => {
        const db = new BetterSqlite3(file, { readonly: true });
        try { return db.prepare('SELECT count(rating) AS n, total(rating) AS s FROM articles').get(); } finally { db.close(); }
      };
      const before = sums();
      const row = storedSchema(file);
      const res = await sync(file, model([withAttributes(article(), (a) => { delete a.rating; })]));
      expect(res.created).toEqual([]);
      expect(res.addedColumns).toEqual([]);
      expect(res.warnings).toEqual(['column articles.rating is not in the model: kept']);
      expect(shapeOf(file).tables.get('articles')!.columns.map((c) => c.name)).toContain('rating');
      expect(sums()).toEqual(before);
      expect(storedSchema(file)).toEqual(row); // nothing changed: the v4 row is left alone
    });

    it('reports a type change as a warning and leaves the column and its data as they are', async () => {
      const file = copyDb(FIXTURE_DB, dir);
      const views = () => {
        const db = new BetterSqlite3(file, { readonly: true });
        try { return db.prepare('SELECT id, views, typeof(views) AS t FROM articles ORDER BY id').all(); } finally { db.close(); }
      };
      const before = views();
      const sql = masterSql(file);
      const log = quietLog();
      const res = await sync(file, model([withAttributes(article(), (a) => { a.views = { type: 'string' }; })]), log);
      expect(res.created).toEqual([]);
      expect(res.warnings).toEqual(['column articles.views is integer in the database, the model wants varchar(255): kept as it is']);
      expect(log.lines).toEqual([{ level: 'warn', msg: res.warnings[0] }]);
      expect(views()).toEqual(before);
      expect(masterSql(file)).toEqual(sql);
    });

    it('with a type change and an addition, drops the v4 row rather than storing a schema that is not true', async () => {
      const file = copyDb(FIXTURE_DB, dir);
      const res = await sync(file, model([withAttributes(article(), (a) => { a.views = { type: 'string' }; a.subtitle = { type: 'string' }; })]));
      expect(res.addedColumns).toEqual(['articles.subtitle']);
      expect(res.warnings).toHaveLength(1);
      expect(storedSchema(file)).toBeUndefined();
    });

    it('adds created_by_id/updated_by_id with their foreign keys to tables that predate admin::user', async () => {
      const file = path.join(dir, 'fresh.db');
      await sync(file, buildModel(project()));
      expect(shapeOf(file).tables.get('articles')!.columns.map((c) => c.name)).not.toContain('created_by_id');
      const res = await sync(file, fixtureModel());
      expect(res.addedColumns).toContain('articles.created_by_id');
      expect(res.addedIndexes).toContain('articles.articles_created_by_id_fk');
      const t = shapeOf(file).tables.get('articles')!;
      expect(t.foreignKeys).toEqual([
        'created_by_id -> admin_users(id) ON DELETE SET NULL', 'updated_by_id -> admin_users(id) ON DELETE SET NULL',
      ]);
      expect(t.indexes.get('articles_created_by_id_fk')).toEqual({ unique: false, columns: ['created_by_id'] });
    });

    it('a unique index that the data violates is a warning, not a failure', async () => {
      const file = path.join(dir, 'fresh.db');
      await sync(file, fixtureModel());
      const raw = new BetterSqlite3(file);
      raw.prepare(`INSERT INTO authors (name) VALUES ('same'), ('same')`).run();
      raw.close();
      const author = projectSources().find((s) => s.uid === 'api::author.author')!;
      const res = await sync(file, model([withAttributes(author, (a) => { a.name = { type: 'uid' }; })]));
      expect(res.addedIndexes).toEqual([]);
      expect(res.warnings).toHaveLength(1);
      expect(res.warnings[0]).toMatch(/^index authors_name_unique on authors could not be created: UNIQUE constraint failed/);
      expect(rowCounts(file).authors).toBe(2);
    });
  });
});
