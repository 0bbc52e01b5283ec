// strapi.db.transaction(cb) on the fixture app (SQLite or PostgreSQL): entity service, query engine and relation
// writes as one transaction, rollback on throw and on rollback(), onCommit/onRollback, nesting, reads of
// uncommitted writes, a REST write beside an open transaction (on SQLite: waiting for its commit), and webhook
// events only after a commit.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../../src/storage/dialect';
import { dbCount, dbRows } from '../../helpers/db-rows';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { onPostgres, secondConnection } from '../../helpers/test-database';

let running: RunningApp;
let outside: Database; // another connection: sees committed data only
const AUTHOR = 'api::author.author';
const CATEGORY = 'api::category.category';
const ARTICLE = 'api::article.article';

beforeAll(async () => {
  running = await startFixtureApp(true);
  outside = secondConnection(running.app.db, path.join(running.dir, '.tmp/data.db'));
});

afterAll(async () => {
  await outside?.close();
  await running?.stop();
});

const strapi = () => running.app.strapi;
const count = (table: string, where?: string) => dbCount(outside, table, where);
const firstCategory = async () => (await dbRows<{ id: number }>(outside, 'SELECT id FROM categories ORDER BY id LIMIT 1'))[0].id;

it('commits entity-service, query-engine and relation writes together and returns the callback value', async () => {
  const s = strapi();
  const category = await firstCategory();
  const result = await s.db.transaction(async () => {
    const author = await s.entityService.create(AUTHOR, { data: { name: 'Tx Author', email: 'tx@example.com' } });
    const article = await s.query(ARTICLE).create({ data: { title: 'Tx article', slug: 'tx-article', author: author.id, categories: [category], publishedAt: new Date() } });
    await s.db.query(AUTHOR).update({ where: { id: author.id }, data: { bio: 'updated inside' } });
    return { author: author.id as number, article: article.id as number };
  });
  expect(await count('authors', `id = ${result.author} AND bio = 'updated inside'`)).toBe(1);
  expect(await count('articles', `id = ${result.article}`)).toBe(1);
  expect(await count('articles_author_links', `article_id = ${result.article} AND author_id = ${result.author}`)).toBe(1);
  expect(await count('articles_categories_links', `article_id = ${result.article} AND category_id = ${category}`)).toBe(1);
});

it('rolls everything back when the callback throws, link tables included, and rethrows', async () => {
  const s = strapi();
  const before = { authors: await count('authors'), articles: await count('articles'), authorLinks: await count('articles_author_links'), catLinks: await count('articles_categories_links') };
  const category = await firstCategory();
  const failure = new Error('stop here');
  await expect(
    s.db.transaction(async () => {
      const author = await s.entityService.create(AUTHOR, { data: { name: 'Doomed' } });
      await s.entityService.create(ARTICLE, { data: { title: 'Doomed article', slug: 'doomed-article', author: author.id, categories: [category] } });
      throw failure;
    }),
  ).rejects.toBe(failure);
  expect({ authors: await count('authors'), articles: await count('articles'), authorLinks: await count('articles_author_links'), catLinks: await count('articles_categories_links') }).toEqual(before);
  expect(await count('authors', "name = 'Doomed'")).toBe(0);
});

it('reads inside the callback see its uncommitted writes; requests outside do not', async () => {
  const s = strapi();
  await s.db.transaction(async () => {
    const author = await s.entityService.create(AUTHOR, { data: { name: 'Visible Inside' } });
    expect(await s.query(AUTHOR).findOne({ where: { id: author.id } })).toMatchObject({ name: 'Visible Inside' });
    expect(await s.entityService.findMany(AUTHOR, { filters: { name: 'Visible Inside' } })).toHaveLength(1);
    expect(await s.query(AUTHOR).count({ where: { name: 'Visible Inside' } })).toBe(1);
    expect(await count('authors', "name = 'Visible Inside'")).toBe(0);
    const res = await fetch(`${running.url}/api/authors?filters[name]=Visible%20Inside`, { headers: { authorization: `Bearer ${running.token}` } });
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(0);
  });
  expect(await count('authors', "name = 'Visible Inside'")).toBe(1);
});

it('rollback() ends it early: nothing kept, later statements run on their own, onRollback callbacks run', async () => {
  const s = strapi();
  const calls: string[] = [];
  const value = await s.db.transaction(async ({ rollback, onCommit, onRollback }) => {
    onCommit(() => calls.push('commit'));
    onRollback(() => calls.push('rollback'));
    await s.entityService.create(AUTHOR, { data: { name: 'Rolled Back' } });
    await rollback();
    expect(calls).toEqual(['rollback']);
    // the transaction is over: this write is committed on its own (as in v4), and does not wait forever
    await s.entityService.create(AUTHOR, { data: { name: 'After Rollback' } });
    return 'done';
  });
  expect(value).toBe('done');
  expect(calls).toEqual(['rollback']);
  expect(await count('authors', "name = 'Rolled Back'")).toBe(0);
  expect(await count('authors', "name = 'After Rollback'")).toBe(1);
});

it('commit() ends it early and runs the onCommit callbacks once; a later throw rolls nothing back', async () => {
  const s = strapi();
  const calls: string[] = [];
  await expect(
    s.db.transaction(async ({ commit, onCommit, onRollback }) => {
      onCommit(() => calls.push('commit'));
      onRollback(() => calls.push('rollback'));
      await s.entityService.create(AUTHOR, { data: { name: 'Committed Early' } });
      await commit();
      expect(await count('authors', "name = 'Committed Early'")).toBe(1);
      throw new Error('after commit');
    }),
  ).rejects.toThrow('after commit');
  expect(calls).toEqual(['commit']);
  expect(await count('authors', "name = 'Committed Early'")).toBe(1);
});

it('nested calls join the outer transaction: their commit/rollback do nothing, their callbacks run at the end', async () => {
  const s = strapi();
  const calls: string[] = [];
  await s.db.transaction(async ({ onCommit }) => {
    onCommit(() => calls.push('outer commit'));
    const inner = await s.db.transaction(async ({ commit, onCommit: innerOnCommit }) => {
      expect(s.db.inTransaction()).toBe(true);
      innerOnCommit(() => calls.push('inner commit'));
      await s.entityService.create(AUTHOR, { data: { name: 'Nested Inner' } });
      await commit(); // a no-op: the outer transaction decides
      expect(await count('authors', "name = 'Nested Inner'")).toBe(0);
      return 42;
    });
    expect(inner).toBe(42);
    expect(calls).toEqual([]);
  });
  expect(calls).toEqual(['outer commit', 'inner commit']);
  expect(await count('authors', "name = 'Nested Inner'")).toBe(1);
  expect(s.db.inTransaction()).toBe(false);

  // an inner throw caught by the outer callback: the outer one still commits; an uncaught one rolls all back
  await s.db.transaction(async () => {
    await s.entityService.create(AUTHOR, { data: { name: 'Nested Kept' } });
    await s.db.transaction(async () => { throw new Error('inner'); }).catch(() => undefined);
  });
  expect(await count('authors', "name = 'Nested Kept'")).toBe(1);
  await expect(s.db.transaction(async ({ onRollback }) => {
    onRollback(() => calls.push('outer rollback'));
    await s.entityService.create(AUTHOR, { data: { name: 'Nested Lost' } });
    await s.db.transaction(async () => { throw new Error('inner uncaught'); });
  })).rejects.toThrow('inner uncaught');
  expect(await count('authors', "name = 'Nested Lost'")).toBe(0);
  expect(calls.at(-1)).toBe('outer rollback');
});

it('a REST write arriving while a transaction is open is not part of it: it succeeds, and stays when the transaction rolls back', async () => {
  const s = strapi();
  let request: Promise<Response> | undefined;
  await expect(s.db.transaction(async () => {
    await s.entityService.create(AUTHOR, { data: { name: 'Rolled Back Holder' } });
    request = fetch(`${running.url}/api/authors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name: 'Request Beside' } }),
      signal: AbortSignal.timeout(5000),
    });
    await new Promise((r) => setTimeout(r, 100)); // the request reaches the server
    throw new Error('undo');
  })).rejects.toThrow('undo');
  const res = await request!;
  expect(res.status).toBe(200);
  expect(await count('authors', "name = 'Rolled Back Holder'")).toBe(0);
  expect(await count('authors', "name = 'Request Beside'")).toBe(1);
});

it.skipIf(onPostgres)('a REST write arriving while a transaction is open waits for the commit, then succeeds (SQLite only: one writer at a time)', async () => {
  const s = strapi();
  let request: Promise<Response> | undefined;
  await s.db.transaction(async () => {
    await s.entityService.create(AUTHOR, { data: { name: 'Holding The Writer' } });
    request = fetch(`${running.url}/api/authors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name: 'Waiting Request' } }),
    });
    await new Promise((r) => setTimeout(r, 100)); // the request reaches the server and queues behind us
    expect(await count('authors', "name = 'Waiting Request'")).toBe(0);
  });
  const res = await request!;
  expect(res.status).toBe(200);
  expect(await count('authors', "name IN ('Holding The Writer', 'Waiting Request')")).toBe(2);
});

it('sends the write events of a transaction after it commits, and never after a rollback', async () => {
  const s = strapi();
  const seen: string[] = [];
  const listener = (info: unknown) => { seen.push((info as { entry: { name: string } }).entry.name); };
  s.eventHub!.on('entry.create', listener);
  try {
    await s.db.transaction(async () => {
      await s.entityService.create(AUTHOR, { data: { name: 'Event Committed' } });
      await new Promise((r) => setTimeout(r, 20));
      expect(seen).toEqual([]);
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(['Event Committed']);
    await s.db.transaction(async () => {
      await s.entityService.create(AUTHOR, { data: { name: 'Event Rolled Back' } });
      throw new Error('no');
    }).catch(() => undefined);
    await s.db.transaction(async ({ rollback }) => {
      await s.entityService.create(AUTHOR, { data: { name: 'Event Rolled Back Too' } });
      await rollback();
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(['Event Committed']);
  } finally {
    s.eventHub!.off('entry.create', listener);
  }
});

it('refuses the form without a callback with a clear error', async () => {
  await expect((strapi().db.transaction as (cb?: unknown) => Promise<unknown>)()).rejects.toThrow('needs the callback form');
});

it('strapi.store writes join the transaction; an operation that cannot join fails at once instead of waiting forever', async () => {
  const s = strapi();
  const store = s.store({ type: 'plugin', name: 'tx-test' });
  await expect(s.db.transaction(async () => {
    await store.set({ key: 'flag', value: { on: true } });
    expect(await store.get({ key: 'flag' })).toEqual({ on: true }); // its own uncommitted write
    throw new Error('undo');
  })).rejects.toThrow('undo');
  expect(await store.get({ key: 'flag' })).toBeNull();
  await s.db.transaction(async () => { await store.set({ key: 'flag', value: 'kept' }); });
  expect(await store.get({ key: 'flag' })).toBe('kept');

  // raw statements on strapi.db.connection do not join (trx does): a clear error, and the transaction rolls back
  await expect(s.db.transaction(async ({ trx }) => {
    await trx.run("UPDATE authors SET bio = 'raw inside' WHERE id = 1");
    await s.db.connection.run("UPDATE authors SET bio = 'not joined' WHERE id = 1");
  })).rejects.toThrow('cannot run inside an open transaction');
  expect(await count('authors', "bio IN ('raw inside', 'not joined')")).toBe(0);
  await s.db.transaction(async ({ trx }) => { await trx.run("UPDATE authors SET bio = 'raw inside' WHERE id = 1"); });
  expect(await count('authors', "id = 1 AND bio = 'raw inside'")).toBe(1);
});

it('lifecycle hooks of writes inside join it, and a strapi.db.transaction inside a hook joins the hook\'s write', async () => {
  const s = strapi();
  const calls: string[] = [];
  const unsubscribe = s.db.lifecycles.subscribe({
    models: [AUTHOR],
    async afterCreate(event) {
      const name = String((event.result as { name: string }).name);
      if (!name.startsWith('Hooked')) return;
      await s.db.transaction(async ({ onCommit, onRollback }) => {
        onCommit(() => calls.push(`commit ${name}`));
        onRollback(() => calls.push(`rollback ${name}`));
        await s.entityService.create(CATEGORY, { data: { name: `cat of ${name}` } });
      });
    },
  });
  try {
    // inside strapi.db.transaction: the hook's write and its callbacks belong to the outer transaction
    await expect(s.db.transaction(async () => {
      await s.entityService.create(AUTHOR, { data: { name: 'Hooked Lost' } });
      expect(await s.query(CATEGORY).count({ where: { name: 'cat of Hooked Lost' } })).toBe(1);
      throw new Error('undo');
    })).rejects.toThrow('undo');
    expect(await count('categories', "name = 'cat of Hooked Lost'")).toBe(0);
    expect(calls).toEqual(['rollback Hooked Lost']);

    // a REST write whose hook opens a transaction: it joins the request's write, callbacks after its commit
    const res = await fetch(`${running.url}/api/authors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name: 'Hooked Rest' } }),
    });
    expect(res.status).toBe(200);
    expect(await count('categories', "name = 'cat of Hooked Rest'")).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toEqual(['rollback Hooked Lost', 'commit Hooked Rest']);
  } finally {
    unsubscribe();
  }
});

it('the upload service joins it: files kept on commit; on rollback neither the row nor the stored files remain', async () => {
  const s = strapi();
  const uploads = path.join(running.dir, 'public/uploads');
  const service = s.plugin('upload').service('upload') as { upload(a: unknown): Promise<Array<{ id: number }>>; remove(f: unknown): Promise<unknown> };
  const incoming = (name: string) => {
    const src = path.join(running.dir, name);
    fs.copyFileSync(path.join(uploads, 'landscape_9e07983b1e.jpg'), src);
    return { path: src, name, type: 'image/jpeg', size: fs.statSync(src).size };
  };
  const before = { rows: await count('files'), stored: fs.readdirSync(uploads).length };

  await expect(s.db.transaction(async () => {
    const [file] = await service.upload({ data: {}, files: incoming('tx-lost.jpg') });
    expect(await s.query('plugin::upload.file').count({ where: { id: file.id } })).toBe(1); // inside: there
    throw new Error('undo');
  })).rejects.toThrow('undo');
  await new Promise((r) => setTimeout(r, 50)); // the rollback callback removes the stored files
  expect({ rows: await count('files'), stored: fs.readdirSync(uploads).length }).toEqual(before);

  const kept = await s.db.transaction(async () => (await service.upload({ data: {}, files: incoming('tx-kept.jpg') }))[0]);
  expect(await count('files', `id = ${kept.id}`)).toBe(1);
  const storedAfter = fs.readdirSync(uploads).length;
  expect(storedAfter).toBeGreaterThan(before.stored);

  // a delete rolled back keeps the row and its stored files; committed, both go
  await expect(s.db.transaction(async () => {
    await service.remove(await s.query('plugin::upload.file').findOne({ where: { id: kept.id } }));
    throw new Error('undo');
  })).rejects.toThrow('undo');
  await new Promise((r) => setTimeout(r, 50));
  expect({ rows: await count('files', `id = ${kept.id}`), stored: fs.readdirSync(uploads).length }).toEqual({ rows: 1, stored: storedAfter });
  await s.db.transaction(async () => { await service.remove(await s.query('plugin::upload.file').findOne({ where: { id: kept.id } })); });
  await new Promise((r) => setTimeout(r, 50));
  expect({ rows: await count('files'), stored: fs.readdirSync(uploads).length }).toEqual(before);
});

it('a lifecycle hook of a REST write that opens a second transaction fails at once (no hang) and nothing is written', async () => {
  const s = strapi();
  const unsubscribe = s.db.lifecycles.subscribe({
    models: [AUTHOR],
    async beforeCreate(event) {
      if ((event.params.data as { name?: string }).name === 'Raw Hook') await s.db.connection.run("UPDATE authors SET bio = 'from raw hook' WHERE id = 1");
    },
  });
  try {
    const before = await count('authors');
    const res = await fetch(`${running.url}/api/authors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name: 'Raw Hook' } }),
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { data: unknown; error: { name: string } }).error.name).toBe('InternalServerError');
    expect(await count('authors')).toBe(before);
    expect(await count('authors', "bio = 'from raw hook'")).toBe(0);
  } finally {
    unsubscribe();
  }
});

it('a lifecycle hook of a REST write can upload a file attached to the entry being written; if the write fails, nothing stays', async () => {
  const s = strapi();
  const uploads = path.join(running.dir, 'public/uploads');
  const service = s.plugin('upload').service('upload') as { upload(a: unknown): Promise<Array<{ id: number }>> };
  const unsubscribe = s.db.lifecycles.subscribe({
    models: [AUTHOR],
    async afterCreate(event) {
      const { id, name } = event.result as { id: number; name: string };
      if (!name.startsWith('Avatar')) return;
      const src = path.join(running.dir, `${name}.jpg`);
      fs.copyFileSync(path.join(uploads, 'landscape_9e07983b1e.jpg'), src);
      await service.upload({ data: { ref: AUTHOR, refId: id, field: 'avatar' }, files: { path: src, name: `${name}.jpg`, type: 'image/jpeg', size: fs.statSync(src).size } });
      if (name === 'Avatar Fails') throw new Error('hook failed after the upload');
    },
  });
  const post = (name: string) => fetch(`${running.url}/api/authors?populate=avatar`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { name } }),
    signal: AbortSignal.timeout(5000),
  });
  try {
    const ok = await post('Avatar Ok');
    expect(ok.status).toBe(200);
    // the answer was read before afterCreate ran (as in v4); the entry has the avatar
    const { id } = ((await ok.json()) as { data: { id: number } }).data;
    const read = await fetch(`${running.url}/api/authors/${id}?populate=avatar`, { headers: { authorization: `Bearer ${running.token}` } });
    const body = (await read.json()) as { data: { attributes: { avatar: { data: { attributes: { name: string } } | null } } } };
    expect(body.data.attributes.avatar.data?.attributes.name).toBe('Avatar Ok.jpg');

    const before = { authors: await count('authors'), rows: await count('files'), stored: fs.readdirSync(uploads).length };
    const failed = await post('Avatar Fails');
    expect(failed.status).toBe(500);
    await new Promise((r) => setTimeout(r, 50)); // the rollback callback removes the stored files
    expect({ authors: await count('authors'), rows: await count('files'), stored: fs.readdirSync(uploads).length }).toEqual(before);
  } finally {
    unsubscribe();
  }
});
