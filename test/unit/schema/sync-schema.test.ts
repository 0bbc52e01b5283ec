// Schema sync on each database: build v4's tables, add what a changed model adds, never drop or rewrite.
// On SQLite the result is compared with the file real Strapi 4.26.2 wrote, through SQLite's pragmas; on
// PostgreSQL with real Strapi's tables there in test/compat/postgres-v4-database.test.ts, and here the same
// behaviours run on each database through the Database interface (introspection, plain SQL).
import BetterSqlite3 from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildModel, type ModelSource } from '../../../src/model/build-model';
import { internalModelSources } from '../../../src/model/internal-models';
import { schemaFromModel } from '../../../src/storage/schema/schema-from-model';
import { syncSchema, type SyncResult } from '../../../src/storage/schema/sync-schema';
import { v4PersistedSchema, v4SchemaHash } from '../../../src/storage/schema/v4-schema';
import type { Database } from '../../../src/storage/dialect';
import { SqliteDatabase } from '../../../src/storage/sqlite/sqlite-database';
import type { Model } from '../../../src/model/types';
import { onPostgres, openTestDatabase, type TestDatabaseOptions } from '../../helpers/test-database';
import { FIXTURE_DB, fixtureModel, projectSources } from './fixture-project';
import { TESSERA_INDEX_PREFIX, tesseraIndexes } from '../../../src/storage/schema/tessera-indexes';
import { copyDb, masterSql, rowCounts as fileRowCounts, shapeOf, tempDir } from './sqlite-shape';

/** what real Strapi 4.26.2 wrote on PostgreSQL for the fixture app: its tables, then its rows (pg_dump) */
const V4_POSTGRES = ['schema.sql', 'data.sql'].map((f) => path.resolve(__dirname, '../../fixtures/strapi4-pg', f));

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

// SQLite only: compared with the file real v4 wrote, through SQLite's pragmas (PostgreSQL: postgres-v4-database.test.ts)
describe.skipIf(onPostgres)('syncSchema on an empty SQLite file (SQLite only: compared with v4\'s SQLite file)', () => {
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
    expect(fileRowCounts(fresh).strapi_migrations).toBe(0);
  });
});

// The same behaviours on each database, through the Database a test opens (openTestDatabase).
const opened: Database[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

/** the test's database on `file` (PostgreSQL: a database of its own with the file's rows, or `opts`'s scripts) */
async function open(file: string, opts?: TestDatabaseOptions): Promise<Database> {
  const db = await openTestDatabase(file, opts);
  opened.push(db);
  return db;
}
const fixtureCopy = () => open(copyDb(FIXTURE_DB, dir));

async function rowCounts(db: Database): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of [...(await db.introspect()).keys()].filter((n) => !n.startsWith(TESSERA_INDEX_PREFIX)).sort()) {
    // Tessera lists its own tables in v4's persisted_tables (storage/schema/tessera-counts.ts): not a v4 row
    const own = name === 'strapi_core_store_settings' ? ` WHERE ${db.dialect.quote('key')} <> 'core_persisted_tables'` : '';
    out[name] = Number((await db.get<{ n: number }>(`SELECT count(*) AS n FROM ${db.dialect.quote(name)}${own}`))!.n);
  }
  return out;
}

const storedRow = (db: Database) => db.get<{ schema: string; hash: string }>('SELECT schema, hash FROM strapi_database_schema');

/** a table's foreign keys as `col -> table(col) ON DELETE ...`, from the database's catalog */
async function foreignKeys(db: Database, table: string): Promise<string[]> {
  const rows = db.dialect.name === 'sqlite'
    ? await db.all<{ from: string; table: string; to: string; on_delete: string }>('SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?)', [table])
    : await db.all<{ from: string; table: string; to: string; on_delete: string }>(
      `SELECT a.attname AS "from", p.relname AS "table", pa.attname AS "to",
              CASE k.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'r' THEN 'RESTRICT' WHEN 'd' THEN 'SET DEFAULT' ELSE 'NO ACTION' END AS on_delete
         FROM pg_constraint k
         JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
         JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
         JOIN pg_attribute pa ON pa.attrelid = k.confrelid AND pa.attnum = k.confkey[1]
        WHERE k.contype = 'f' AND c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
      [table],
    );
  return [...new Set(rows.map((f) => `${f.from} -> ${f.table}(${f.to}) ON DELETE ${f.on_delete}`))].sort();
}

/** everything the schema sync may change: SQLite's DDL text; on PostgreSQL the catalog's tables, columns, indexes, keys */
async function ddl(db: Database, file: string): Promise<unknown> {
  if (db.dialect.name === 'sqlite') return masterSql(file);
  const tables = await db.introspect();
  return Promise.all([...tables.values()].filter((t) => !t.name.startsWith(TESSERA_INDEX_PREFIX)).sort((a, b) => (a.name < b.name ? -1 : 1)).map(async (t) => ({
    name: t.name, columns: [...t.columns.values()], indexes: [...t.indexes].filter((i) => !i.startsWith(TESSERA_INDEX_PREFIX)).sort(), foreignKeys: await foreignKeys(db, t.name),
  })));
}

async function columnsOf(db: Database, table: string): Promise<Array<{ name: string; type: string }>> {
  return [...(await db.introspect()).get(table)!.columns.values()].map(({ name, type }) => ({ name, type }));
}

describe('syncSchema', () => {
  it('(b) on the database real v4 wrote: creates nothing, changes nothing', async () => {
    const file = copyDb(FIXTURE_DB, dir);
    const db = await open(file, { postgresScript: V4_POSTGRES });
    const before = { counts: await rowCounts(db), ddl: await ddl(db, file), row: await storedRow(db) };
    const res = await syncSchema(db, fixtureModel(), quietLog());
    expect(res).toEqual({ created: [], addedColumns: [], addedIndexes: [], warnings: [] });
    expect(await rowCounts(db)).toEqual(before.counts);
    expect(await ddl(db, file)).toEqual(before.ddl);
    expect(await storedRow(db)).toEqual(before.row);
  });

  it('adds Tessera\'s own indexes (tessera_*) to the link tables with order columns, and re-creates them when dropped', async () => {
    const file = copyDb(FIXTURE_DB, dir);
    const db = await open(file, { postgresScript: V4_POSTGRES });
    await syncSchema(db, fixtureModel(), quietLog());
    const wanted = tesseraIndexes(fixtureModel());
    expect(wanted.map((w) => w.index.name)).toContain('tessera_articles_categories_links_inv_order');
    expect(wanted.find((w) => w.index.name === 'tessera_articles_categories_links_inv_order')!.index.columns).toEqual(['category_id', 'article_order']);
    const present = async () => {
      const live = await db.introspect();
      return wanted.filter((w) => live.get(w.table)?.indexes.has(w.index.name)).length;
    };
    expect(await present()).toBe(wanted.length);
    // what v4's own schema sync does to indexes it does not know
    await db.exec(`DROP INDEX ${db.dialect.quote('tessera_articles_categories_links_inv_order')}`);
    expect(await present()).toBe(wanted.length - 1);
    await syncSchema(db, fixtureModel(), quietLog());
    expect(await present()).toBe(wanted.length);
    // names fit PostgreSQL's 63 characters, and stay apart
    expect(wanted.every((w) => w.index.name.length <= 63)).toBe(true);
    expect(new Set(wanted.map((w) => w.index.name)).size).toBe(wanted.length);
  });

  it('(c) is idempotent', async () => {
    const file = path.join(dir, 'fresh.db');
    const db = await open(file);
    const first = await syncSchema(db, fixtureModel(), quietLog());
    expect(first.created.length).toBeGreaterThan(40);
    const schema = await ddl(db, file);
    const row = await storedRow(db);
    const second = await syncSchema(db, fixtureModel(), quietLog());
    expect(second).toEqual({ created: [], addedColumns: [], addedIndexes: [], warnings: [] });
    expect(await ddl(db, file)).toEqual(schema);
    expect(await storedRow(db)).toEqual(row);
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
      const db = await fixtureCopy();
      const counts = await rowCounts(db);
      const changed = withAttributes(article(), (a) => {
        a.subtitle = { type: 'string' };
        a.code = { type: 'uid' };
      });
      const log = quietLog();
      const res = await syncSchema(db, model([changed], [tag]), log);
      expect(res.created.sort()).toEqual(['tags', 'tags_articles_links', 'tags_components', 'tags_localizations_links']);
      expect(res.addedColumns).toEqual(['articles.subtitle', 'articles.code']);
      expect(res.addedIndexes).toEqual(['articles.articles_code_unique']);
      expect(res.warnings).toEqual([]);
      expect((await columnsOf(db, 'articles')).slice(-2)).toEqual([{ name: 'subtitle', type: 'varchar(255)' }, { name: 'code', type: 'varchar(255)' }]);
      expect((await columnsOf(db, 'tags')).map((c) => c.name)).toEqual(['id', 'label', 'code', 'created_at', 'updated_at', 'created_by_id', 'updated_by_id', 'locale']);
      expect((await columnsOf(db, 'tags_articles_links')).map((c) => c.name)).toEqual(['id', 'tag_id', 'article_id', 'article_order']);
      expect(await foreignKeys(db, 'tags_articles_links')).toEqual([
        'article_id -> articles(id) ON DELETE CASCADE', 'tag_id -> tags(id) ON DELETE CASCADE',
      ]);
      const after = await rowCounts(db);
      for (const [t, n] of Object.entries(counts)) if (t !== 'sqlite_sequence') expect({ t, n: after[t] }).toEqual({ t, n });
      // the stored v4 schema now describes the new model (v4 started on the same project finds it unchanged)
      expect((await storedRow(db))!.hash).toBe(v4SchemaHash(v4PersistedSchema(model([changed], [tag]))));
      // and again: nothing left to do
      expect(await syncSchema(db, model([changed], [tag]), quietLog())).toEqual({ created: [], addedColumns: [], addedIndexes: [], warnings: [] });
    });

    it('keeps the column of a removed attribute, with its data', async () => {
      const db = await fixtureCopy();
      const sums = () => db.get('SELECT count(rating) AS n, sum(rating) AS s FROM articles');
      const before = await sums();
      const row = await storedRow(db);
      const res = await syncSchema(db, model([withAttributes(article(), (a) => { delete a.rating; })]), quietLog());
      expect(res.created).toEqual([]);
      expect(res.addedColumns).toEqual([]);
      expect(res.warnings).toEqual(['column articles.rating is not in the model: kept']);
      expect((await columnsOf(db, 'articles')).map((c) => c.name)).toContain('rating');
      expect(await sums()).toEqual(before);
      expect(await storedRow(db)).toEqual(row); // nothing changed: the v4 row is left alone
    });

    it('reports a type change as a warning and leaves the column and its data as they are', async () => {
      const file = copyDb(FIXTURE_DB, dir);
      const db = await open(file);
      const views = () => db.all('SELECT id, views FROM articles ORDER BY id');
      const before = await views();
      const schema = await ddl(db, file);
      const log = quietLog();
      const res = await syncSchema(db, model([withAttributes(article(), (a) => { a.views = { type: 'string' }; })]), log);
      expect(res.created).toEqual([]);
      expect(res.warnings).toEqual(['column articles.views is integer in the database, the model wants varchar(255): kept as it is']);
      expect(log.lines.filter((l) => l.level === 'warn')).toEqual([{ level: 'warn', msg: res.warnings[0] }]);
      expect(await views()).toEqual(before);
      expect(await ddl(db, file)).toEqual(schema);
    });

    it('with a type change and an addition, drops the v4 row rather than storing a schema that is not true', async () => {
      const db = await fixtureCopy();
      const res = await syncSchema(db, model([withAttributes(article(), (a) => { a.views = { type: 'string' }; a.subtitle = { type: 'string' }; })]), quietLog());
      expect(res.addedColumns).toEqual(['articles.subtitle']);
      expect(res.warnings).toHaveLength(1);
      expect(await storedRow(db)).toBeUndefined();
    });

    it('adds created_by_id/updated_by_id with their foreign keys to tables that predate admin::user', async () => {
      const db = await open(path.join(dir, 'fresh.db'));
      await syncSchema(db, buildModel(project()), quietLog());
      expect((await columnsOf(db, 'articles')).map((c) => c.name)).not.toContain('created_by_id');
      const res = await syncSchema(db, fixtureModel(), quietLog());
      expect(res.addedColumns).toContain('articles.created_by_id');
      expect(res.addedIndexes).toContain('articles.articles_created_by_id_fk');
      expect(await foreignKeys(db, 'articles')).toEqual([
        'created_by_id -> admin_users(id) ON DELETE SET NULL', 'updated_by_id -> admin_users(id) ON DELETE SET NULL',
      ]);
      expect((await db.introspect()).get('articles')!.indexes).toContain('articles_created_by_id_fk');
    });

    it('a unique index that the data violates is a warning, not a failure', async () => {
      const db = await open(path.join(dir, 'fresh.db'));
      await syncSchema(db, fixtureModel(), quietLog());
      await db.run(`INSERT INTO authors (name) VALUES ('same'), ('same')`);
      const author = projectSources().find((s) => s.uid === 'api::author.author')!;
      const res = await syncSchema(db, model([withAttributes(author, (a) => { a.name = { type: 'uid' }; })]), quietLog());
      expect(res.addedIndexes).toEqual([]);
      expect(res.warnings).toHaveLength(1);
      // the database's own words: SQLite "UNIQUE constraint failed", PostgreSQL "could not create unique index"
      expect(res.warnings[0]).toMatch(/^index authors_name_unique on authors could not be created: (UNIQUE constraint failed|could not create unique index)/);
      expect((await rowCounts(db)).authors).toBe(2);
    });
  });
});
