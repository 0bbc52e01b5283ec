// A project whose inverse relation sides name no owner back (test/fixtures/mapped-by-app; seen in a public v4
// demo app): real Strapi 4.26.2 starts it and never links those sides (no link table; populate leaves them out,
// or answers 500 for a manyToMany; writes to them are dropped; filters on them reach the wrong table). Tessera
// starts too, says so once per attribute, and serves the project without them (README of the fixture).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, startLoggedProjectCopy, type LoggedApp } from '../../helpers/logged-app';

const MAPPED_BY_APP = path.resolve(__dirname, '../../fixtures/mapped-by-app');
const UNLINKED = ['books', 'favorite', 'tagged', 'owned'];

let running: LoggedApp;
beforeAll(async () => {
  running = await startLoggedProjectCopy(MAPPED_BY_APP);
});
afterAll(async () => {
  await running?.stop();
});

const call = (method: string, url: string, data?: unknown) => apiCall(running.url, method, url, data);

describe('a project with inverse sides no owner names back', () => {
  it('starts with one warning per such attribute, naming the schema file and the attribute', () => {
    const schemaFile = path.join(running.dir, 'src/api/shelf/content-types/shelf/schema.json');
    const warnings = running.lines.filter((l) => l.level === 40 && l.msg.includes('mappedBy'));
    expect(warnings.map((w) => w.msg.match(/attribute "(\w+)"/)?.[1])).toEqual(UNLINKED);
    for (const w of warnings) expect(w.msg.startsWith(`${schemaFile}: attribute "`)).toBe(true);
    expect(warnings[2].msg).toContain('mappedBy "title" names a scalar attribute of "api::book.book", not a relation');
  });

  it('creates the link tables v4 creates, and none for those sides', async () => {
    const tables = [...(await running.app.db.introspect()).keys()].filter((name) => /^(shelves|books)/.test(name)).sort();
    expect(tables).toEqual(['books', 'books_owner_links', 'books_shelf_links', 'shelves']);
  });

  it('keeps them on strapi.contentTypes, as v4 does', () => {
    const attributes = (running.app.strapi.contentTypes as Record<string, { attributes: Record<string, unknown> }>)['api::shelf.shelf'].attributes;
    expect(Object.keys(attributes)).toEqual(expect.arrayContaining(UNLINKED));
    expect(attributes.books).toEqual({ type: 'relation', relation: 'oneToMany', target: 'api::book.book', mappedBy: 'nothing' });
  });

  it('serves the rest: writes drop those sides, reads populate the linked ones only', async () => {
    expect((await call('POST', '/api/shelves', { name: 's1' })).status).toBe(200);
    expect((await call('POST', '/api/books', { title: 'b1', shelf: 1, owner: 1 })).status).toBe(200);
    // v4 answers 200 and writes nothing for the unlinked sides
    const created = await call('POST', '/api/shelves', { name: 's2', books: [1], favorite: 1, tagged: [1], owned: [1] });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body.data.attributes)).toEqual(['name', 'createdAt', 'updatedAt']);

    // v4 answers this one 500 (populating `tagged`, a manyToMany with no link table): Tessera leaves it out
    const all = await call('GET', '/api/shelves?populate=*&sort=id');
    expect(all.status).toBe(200);
    expect(all.body.data.map((s: any) => Object.keys(s.attributes))).toEqual([
      ['name', 'createdAt', 'updatedAt', 'items'],
      ['name', 'createdAt', 'updatedAt', 'items'],
    ]);
    expect(all.body.data[0].attributes.items.data.map((b: any) => b.attributes.title)).toEqual(['b1']);
    expect(all.body.data[1].attributes.items.data).toEqual([]);

    // as v4: the unlinked sides are left out of the answer, `owned` too although b1's owner is s1
    const one = await call('GET', '/api/shelves/1?populate[items][fields][0]=title&populate[books]=true&populate[owned]=true&populate[favorite]=true');
    expect(one.status).toBe(200);
    expect(one.body.data.attributes).toEqual({
      name: 's1', createdAt: expect.any(String), updatedAt: expect.any(String),
      items: { data: [{ id: 1, attributes: { title: 'b1' } }] },
    });

    const books = await call('GET', '/api/books?populate=*');
    expect(books.body.data[0].attributes.shelf.data.id).toBe(1);
    expect(books.body.data[0].attributes.owner.data.id).toBe(1);
  });

  it('answers a filter on those sides as on an attribute that does not exist (v4 applies it to the wrong table)', async () => {
    const res = await call('GET', '/api/shelves?filters[books][id][$eq]=1');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid parameter books' });
    expect((await call('GET', '/api/shelves?filters[items][title][$eq]=b1&fields[0]=name')).body.data).toEqual([{ id: 1, attributes: { name: 's1' } }]);
  });
});
