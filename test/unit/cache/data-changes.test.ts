// What a write statement changed, as the databases record it for the response cache (storage/data-changes.ts).
import { describe, expect, it } from 'vitest';
import { ALL_TABLES, DataChanges, PendingWrites, writtenTable } from '../../../src/storage/data-changes';

describe('writtenTable', () => {
  it('reads the target of INSERT, UPDATE, DELETE and REPLACE, quoted or not', () => {
    expect(writtenTable('INSERT INTO "articles" ("title") VALUES (?)')).toBe('articles');
    expect(writtenTable('insert or ignore into articles_author_links (a) values (?)')).toBe('articles_author_links');
    expect(writtenTable('UPDATE "up_users" SET "blocked" = ?')).toBe('up_users');
    expect(writtenTable('  DELETE FROM "files_related_morphs" WHERE id = ?')).toBe('files_related_morphs');
    expect(writtenTable('REPLACE INTO t VALUES (1)')).toBe('t');
    expect(writtenTable('UPDATE "odd""name" SET x = 1')).toBe('odd"name');
    // SQLite's dialect quotes with backticks
    expect(writtenTable('INSERT INTO `articles_components` (entity_id) VALUES (?)')).toBe('articles_components');
    expect(writtenTable('UPDATE `odd``name` SET x = 1')).toBe('odd`name');
    // a schema before the table, PostgreSQL's ONLY
    expect(writtenTable('UPDATE main.articles SET title = ?')).toBe('articles');
    expect(writtenTable('DELETE FROM "public"."articles" WHERE id = $1')).toBe('articles');
    expect(writtenTable('UPDATE ONLY articles SET title = $1')).toBe('articles');
    expect(writtenTable('DELETE FROM ONLY "public" . "up_users"')).toBe('up_users');
  });

  it('reads change nothing; a CTE that writes, DDL or anything unknown changes everything', () => {
    expect(writtenTable('SELECT * FROM "articles"')).toBeNull();
    expect(writtenTable('WITH m AS (SELECT id FROM a) SELECT * FROM m')).toBeNull();
    expect(writtenTable('PRAGMA data_version')).toBeNull();
    expect(writtenTable('WITH m AS (SELECT id FROM a) DELETE FROM b WHERE id IN (SELECT id FROM m)')).toBe(ALL_TABLES);
    expect(writtenTable('CREATE TABLE x (id integer)')).toBe(ALL_TABLES);
    expect(writtenTable('ALTER TABLE x ADD COLUMN y integer')).toBe(ALL_TABLES);
  });
});

describe('DataChanges', () => {
  it('tells whether a table was written after a noted commit number', () => {
    const changes = new DataChanges();
    const noted = changes.current;
    changes.committed(['authors']);
    expect(changes.changedSince(['articles'], noted)).toBe(false);
    expect(changes.changedSince(['articles', 'authors'], noted)).toBe(true);
    expect(changes.changedSince(['authors'], changes.current)).toBe(false);
    changes.committed([ALL_TABLES]);
    expect(changes.changedSince(['articles'], noted)).toBe(true);
  });

  it('a transaction\'s writes count at its commit only; a rolled back one counts nothing', () => {
    const changes = new DataChanges();
    const pending = new PendingWrites();
    pending.note('UPDATE "articles" SET title = ?');
    pending.note('SELECT 1');
    pending.discard();
    pending.commitTo(changes);
    expect(changes.current).toBe(0);
    pending.note('DELETE FROM "categories" WHERE id = ?');
    pending.commitTo(changes);
    expect(changes.current).toBe(1);
    expect(changes.changedSince(['categories'], 0)).toBe(true);
    expect(changes.changedSince(['articles'], 0)).toBe(false);
  });
});
