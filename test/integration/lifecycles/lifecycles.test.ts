// Model lifecycle hooks end to end on the hooks test project (test/fixtures/hooks-app): lifecycles.js of the
// note type, subscribers added in bootstrap and at run time, through REST (fastify inject), the entity
// service, strapi.query and users-permissions; writes and rollbacks checked in the database itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlValue } from '../../../src/storage/dialect';
import { dbCount, dbRows } from '../../helpers/db-rows';
import { startHooksApp, type RunningHooksApp } from './hooks-app';

let running: RunningHooksApp;
beforeAll(async () => {
  running = await startHooksApp();
});
afterAll(async () => {
  await running?.stop();
});

type Json = any;
async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await running.app.server.inject({ method, url, payload: body as object | undefined, headers: { authorization: `Bearer ${running.token}` } });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
}
const hookLog = async (): Promise<Json[]> => (await call('GET', '/api/hook-log')).body.data;
/** committed rows of the database the app runs on */
const sql = <T = Json>(query: string, ...params: SqlValue[]): Promise<T[]> => dbRows<T>(running.app.db, query, ...params);
const counts = async () => {
  const tables = ['notes', 'labels', 'components_shared_metas', 'notes_components', 'notes_labels_links'];
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await dbCount(running.app.db, t)])));
};
const strapi = () => running.app.strapi as Json;

describe('writes', () => {
  it('stores and answers the slug beforeCreate set; afterCreate sees the entry with its id and the state of beforeCreate', async () => {
    const res = await call('POST', '/api/notes', { data: { title: 'Hello World', tenant: 'a' } });
    expect(res.status).toBe(200);
    const { id, attributes } = res.body.data;
    expect(attributes.slug).toBe('hello-world');
    // afterCreate changed the result object: REST answers it, the database does not have it
    expect(attributes.seen).toEqual({ afterCreate: id, state: 'beforeCreate' });
    expect(await sql('SELECT slug, seen FROM notes WHERE id = ?', id)).toEqual([{ slug: 'hello-world', seen: null }]);
    const log = await hookLog();
    const after = log.find((e) => e.by === 'file' && e.action === 'afterCreate');
    expect(after).toMatchObject({ uid: 'api::note.note', result: { id }, state: ['createdBy'], model: { singularName: 'note', tableName: 'notes' } });
    const before = log.find((e) => e.by === 'file' && e.action === 'beforeCreate');
    expect(before.data).toMatchObject({ title: 'Hello World', tenant: 'a', createdAt: 'Date', updatedAt: 'Date' });
  });

  it('writes what beforeUpdate changed in the data', async () => {
    const { body } = await call('POST', '/api/notes', { data: { title: 'Before', tenant: 'a' } });
    const res = await call('PUT', `/api/notes/${body.data.id}`, { data: { title: 'After The Edit' } });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.slug).toBe('after-the-edit');
    expect(await sql('SELECT title, slug FROM notes WHERE id = ?', body.data.id)).toEqual([{ title: 'After The Edit', slug: 'after-the-edit' }]);
  });

  it('a beforeCreate that throws answers the v4 envelope and leaves nothing behind: row, component, relation links', async () => {
    const labels = (await call('POST', '/api/labels', { data: { name: 'kept' } })).body.data.id;
    await hookLog();
    const before = await counts();
    const res = await call('POST', '/api/notes', { data: { title: 'refuse', meta: { label: 'orphan?' }, labels: [labels] } });
    expect(res).toEqual({ status: 400, body: { data: null, error: { status: 400, name: 'ApplicationError', message: 'refused by beforeCreate', details: { hook: 'beforeCreate' } } } });
    expect(await counts()).toEqual(before);
    const invalid = await call('POST', '/api/notes', { data: { title: 'invalid' } });
    expect(invalid.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'title refused', details: { errors: [{ path: ['title'], message: 'not this title', name: 'ValidationError' }] } });
    expect(await counts()).toEqual(before);
  });

  it('a beforeUpdate that throws leaves the entry as it was', async () => {
    const { body } = await call('POST', '/api/notes', { data: { title: 'Stays', tenant: 'a', meta: { label: 'm' } } });
    const row = await sql('SELECT * FROM notes WHERE id = ?', body.data.id);
    const before = await counts();
    const res = await call('PUT', `/api/notes/${body.data.id}`, { data: { title: 'refuse', meta: { label: 'new' } } });
    expect(res.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'refused by beforeUpdate' });
    expect(await sql('SELECT * FROM notes WHERE id = ?', body.data.id)).toEqual(row);
    expect(await counts()).toEqual(before);
    expect(await sql('SELECT label FROM components_shared_metas m JOIN notes_components c ON c.component_id = m.id WHERE c.entity_id = ?', body.data.id)).toEqual([{ label: 'm' }]);
  });
});

describe('reads', () => {
  it('beforeFindMany and beforeCount narrow the list and meta.pagination.total', async () => {
    await call('POST', '/api/notes', { data: { title: 'Secret', tenant: 'hidden' } });
    const all = await dbCount(running.app.db, 'notes', "tenant IS NULL OR tenant <> 'hidden'");
    const res = await call('GET', '/api/notes?pagination[pageSize]=100');
    expect(res.body.data.map((e: Json) => e.attributes.tenant)).not.toContain('hidden');
    expect(res.body.data).toHaveLength(all);
    expect(res.body.meta.pagination.total).toBe(all);
  });

  it('beforeFindMany alone narrows the list, not the total (v4 counts with its own params)', async () => {
    await call('POST', '/api/labels', { data: { name: 'hidden' } });
    const res = await call('GET', '/api/labels');
    const stored = await dbCount(running.app.db, 'labels');
    expect(res.body.data.map((e: Json) => e.attributes.name)).not.toContain('HIDDEN');
    expect(res.body.data).toHaveLength(stored - 1);
    expect(res.body.meta.pagination.total).toBe(stored);
  });

  it('beforeFindOne narrows findOne, update and delete; afterFindOne changes what REST answers', async () => {
    const hidden = (await call('POST', '/api/notes', { data: { title: 'Hidden', tenant: 'hidden' } }));
    expect(hidden.status).toBe(404); // v4: written, but its read-back is hidden by beforeFindOne
    const [{ id }] = await sql<{ id: number }>("SELECT id FROM notes WHERE title = 'Hidden'");
    expect((await call('GET', `/api/notes/${id}`)).status).toBe(404);
    expect((await call('PUT', `/api/notes/${id}`, { data: { title: 'x' } })).status).toBe(404);
    expect((await call('DELETE', `/api/notes/${id}`)).status).toBe(404);
    expect(await sql('SELECT title FROM notes WHERE id = ?', id)).toEqual([{ title: 'Hidden' }]);

    const shout = (await call('POST', '/api/notes', { data: { title: 'quiet words', tenant: 'shout' } })).body.data;
    expect(shout.attributes.title).toBe('QUIET WORDS');
    expect((await call('GET', `/api/notes/${shout.id}`)).body.data.attributes.title).toBe('QUIET WORDS');
    expect(await sql('SELECT title FROM notes WHERE id = ?', shout.id)).toEqual([{ title: 'quiet words' }]);
  });

  it('a type takes the JSON read path only while nothing subscribes to its reads, and switches when that changes', async () => {
    const lifecycles = strapi().db.lifecycles;
    const unsubscribe = lifecycles.subscribe({
      models: ['api::label.label'],
      afterFindMany(event: Json) {
        for (const e of event.result) e.name = `seen ${e.name}`;
      },
      afterFindOne(event: Json) {
        if (event.result) event.result.name = `one ${event.result.name}`;
      },
    });
    try {
      const list = await call('GET', '/api/labels');
      expect(list.body.data.every((e: Json) => e.attributes.name.startsWith('seen '))).toBe(true);
      const one = await call('GET', `/api/labels/${list.body.data[0].id}`);
      expect(one.body.data.attributes.name).toMatch(/^one /);
    } finally {
      unsubscribe();
    }
    expect((await call('GET', '/api/labels')).body.data.some((e: Json) => e.attributes.name.startsWith('seen '))).toBe(false);
  });

  it('a where added by a hook is compiled like any other: values bound, unknown names refused', async () => {
    const unsubscribe = strapi().db.lifecycles.subscribe({
      models: ['api::label.label'],
      beforeFindMany(event: Json) {
        event.params.where = event.params.where?.$and?.[1]?.name?.$ne === 'HIDDEN' ? { name: "x' OR 1=1 --" } : event.params.where;
      },
    });
    const before = await counts();
    try {
      const res = await call('GET', '/api/labels');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    } finally {
      unsubscribe();
    }
    const bad = strapi().db.lifecycles.subscribe({ models: ['api::label.label'], beforeCount(event: Json) { event.params.where = { 'name; DROP TABLE labels': 1 }; } });
    try {
      const res = await call('GET', '/api/labels');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } });
    } finally {
      bad();
    }
    expect(await counts()).toEqual(before);
  });
});

describe('subscribers', () => {
  it('an object subscriber with models runs for those models only, with state kept from before to after', async () => {
    await hookLog();
    const res = await call('POST', '/api/labels', { data: { name: 'green' } });
    expect(res.body.data.attributes).toMatchObject({ name: 'GREEN', seen: 'from beforeCreate' });
    expect(await sql('SELECT name FROM labels WHERE id = ?', res.body.data.id)).toEqual([{ name: 'GREEN' }]);
    const log = await hookLog();
    expect(log.filter((e) => e.by === 'labels').map((e) => [e.action, e.state])).toEqual([['beforeCreate', []], ['afterCreate', ['mark']]]);
    await call('POST', '/api/notes', { data: { title: 'not a label', tenant: 'a' } });
    expect((await hookLog()).some((e) => e.by === 'labels')).toBe(false);
  });

  it('a function subscriber sees every event of every model, in order', async () => {
    await hookLog();
    const { body } = await call('POST', '/api/notes', { data: { title: 'Seen By All', tenant: 'a' } });
    const fn = (await hookLog()).filter((e) => e.by === 'fn').map((e) => `${e.action} ${e.uid}`);
    expect(fn).toEqual(['beforeCreate api::note.note', 'beforeFindOne api::note.note', 'afterFindOne api::note.note', 'afterCreate api::note.note']);
    await call('GET', `/api/notes/${body.data.id}`);
    await call('GET', '/api/notes');
    expect((await hookLog()).filter((e) => e.by === 'fn').map((e) => e.action)).toEqual(['beforeFindOne', 'afterFindOne', 'beforeFindMany', 'afterFindMany', 'beforeCount', 'afterCount']);
  });

  it('strapi.entityService and strapi.query / strapi.db.query run the hooks', async () => {
    const created = await strapi().entityService.create('api::note.note', { data: { title: 'From Service', tenant: 'b' } });
    expect(created).toMatchObject({ slug: 'from-service', seen: { afterCreate: created.id, state: 'beforeCreate' } });
    const queried = await strapi().query('api::note.note').create({ data: { title: 'From Query', tenant: 'hidden' } });
    expect(queried).toBeNull(); // its read-back is hidden by beforeFindOne, as in v4
    expect(await sql("SELECT slug FROM notes WHERE title = 'From Query'")).toEqual([{ slug: 'from-query' }]);
    expect(await strapi().db.query('api::note.note').count({ where: { title: 'From Query' } })).toBe(0);
    const updated = await strapi().query('api::note.note').update({ where: { id: created.id }, data: { title: 'Service Renamed' } });
    expect(updated.slug).toBe('service-renamed');
    const many = await strapi().query('api::note.note').findMany({ where: { tenant: 'hidden' } });
    expect(many).toEqual([]);
    await hookLog();
    await strapi().query('api::label.label').createMany({ data: [{ name: 'one' }, { name: 'two' }] });
    const log = (await hookLog()).filter((e) => e.by === 'fn');
    expect(log.map((e) => [e.action, e.result])).toEqual([['beforeCreateMany', undefined], ['afterCreateMany', { count: 2, keys: ['count', 'ids'] }]]);
  });

  it('users-permissions register runs the hooks of plugin::users-permissions.user', async () => {
    await hookLog();
    const res = await running.app.server.inject({ method: 'POST', url: '/api/auth/local/register', payload: { username: 'hooked', email: 'hooked@example.com', password: 'Hooked-pass-1' } });
    expect(res.statusCode).toBe(200);
    const user = JSON.parse(res.body).user;
    const log = await hookLog();
    const created = log.find((e) => e.by === 'users' && e.action === 'afterCreate');
    expect(created).toMatchObject({ uid: 'plugin::users-permissions.user', result: { id: user.id }, model: { singularName: 'user', tableName: 'up_users' } });
    expect(created.data).not.toHaveProperty('password'); // the log leaves it out; the hook saw the hash
  });

  it('an upload runs the hooks of plugin::upload.file', async () => {
    const seen: string[] = [];
    const off = strapi().db.lifecycles.subscribe({
      models: ['plugin::upload.file'],
      beforeCreate(event: Json) {
        event.params.data.caption = 'set by beforeCreate';
      },
      afterCreate(event: Json) {
        seen.push(`afterCreate ${event.result.id} ${event.result.name}`);
      },
    });
    try {
      const fd = new FormData();
      fd.append('files', new Blob([Buffer.from('plain text notes\n')], { type: 'text/plain' }), 'notes.txt');
      const res = await fetch(`${running.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${running.token}` }, body: fd });
      expect(res.status).toBe(200);
      const [file] = (await res.json()) as Json[];
      expect(file.caption).toBe('set by beforeCreate');
      expect(seen).toEqual([`afterCreate ${file.id} notes.txt`]);
      expect(await sql('SELECT caption FROM files WHERE id = ?', file.id)).toEqual([{ caption: 'set by beforeCreate' }]);
    } finally {
      off();
    }
  });

  it('writes made by a hook join the write it runs in: no deadlock, and rolled back with it', async () => {
    const lifecycles = strapi().db.lifecycles;
    const unsubscribe = lifecycles.subscribe({
      models: ['api::note.note'],
      async afterCreate(event: Json) {
        await strapi().query('api::label.label').create({ data: { name: `audit ${event.result?.id}` } });
        await strapi().entityService.create('api::label.label', { data: { name: 'audit via service' } });
        if (event.params.data.title === 'undo') throw new Error('undo everything');
      },
    });
    try {
      const ok = await call('POST', '/api/notes', { data: { title: 'audited', tenant: 'a' } });
      expect(ok.status).toBe(200);
      expect(await sql('SELECT name FROM labels WHERE name = ?', `AUDIT ${ok.body.data.id}`)).toHaveLength(1);
      const before = await counts();
      const undone = await call('POST', '/api/notes', { data: { title: 'undo', tenant: 'a' } });
      expect(undone.status).toBe(500);
      expect(await counts()).toEqual(before);
    } finally {
      unsubscribe();
    }
  });

  it('work a hook leaves running (not awaited) is written in a transaction of its own, after the write', async () => {
    let floating: Promise<unknown> | undefined;
    const off = strapi().db.lifecycles.subscribe({
      models: ['api::note.note'],
      afterCreate(event: Json) {
        floating = strapi().entityService.create('api::label.label', { data: { name: `floating ${event.result.id}` } }).then(() => strapi().query('api::label.label').create({ data: { name: 'floating later' } }));
      },
    });
    try {
      const res = await call('POST', '/api/notes', { data: { title: 'leaves work running', tenant: 'a' } });
      expect(res.status).toBe(200);
      await floating;
      expect((await sql("SELECT name FROM labels WHERE name LIKE 'FLOATING%' ORDER BY id")).map((r: Json) => r.name)).toEqual([`FLOATING ${res.body.data.id}`, 'FLOATING LATER']);
      expect((await call('POST', '/api/notes', { data: { title: 'next write', tenant: 'a' } })).status).toBe(200);
    } finally {
      off();
    }
  });

  it('clear() removes every subscriber, lifecycles.js included; disable() and enable() switch them off and on', async () => {
    const lifecycles = strapi().db.lifecycles;
    lifecycles.disable();
    const off = await call('POST', '/api/notes', { data: { title: 'No Hooks', tenant: 'a' } });
    expect(off.body.data.attributes.slug).toBeNull();
    lifecycles.enable();
    expect((await call('POST', '/api/notes', { data: { title: 'Hooks Again', tenant: 'a' } })).body.data.attributes.slug).toBe('hooks-again');
    expect(() => lifecycles.subscribe(42)).toThrow('Invalid subscriber. Expected function or object');
    // last: nothing runs any more
    await hookLog();
    lifecycles.clear();
    const plain = await call('POST', '/api/notes', { data: { title: 'After Clear', tenant: 'hidden' } });
    expect(plain.body.data.attributes).toMatchObject({ slug: null, seen: null });
    expect((await call('POST', '/api/labels', { data: { name: 'lower' } })).body.data.attributes.name).toBe('lower');
    expect(await hookLog()).toEqual([]);
  });
});
