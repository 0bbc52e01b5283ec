// Webhooks and strapi.eventHub on the fixture app with real HTTP receivers: which writes send events,
// sanitization, rolled-back and disabled, reloading the table, and receivers that hang or are down.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../../src/core/tessera';
import { Delivery } from '../../../src/webhooks/delivery';
import { copyFixtureApp } from '../../helpers/fixture-app';
import { secondConnection, sqlFor } from '../../helpers/test-database';

interface Post { path: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }

const posts: Post[] = [];
const held: http.ServerResponse[] = [];
let receiver: http.Server;
let origin: string;
let app: Tessera;
let url: string;
let token: string;
let dir: string;
const warnings: string[] = [];

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const api = (method: string, p: string, body?: unknown) =>
  fetch(url + p, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      if (req.url === '/hang') held.push(res); // never answered while the test runs
      else res.writeHead(200).end();
    });
  });
  origin = await listen(receiver);
  dir = copyFixtureApp(true);
  const server = path.join(dir, 'config/server.js');
  fs.writeFileSync(server, fs.readFileSync(server, 'utf8').replace('webhooks: {', `webhooks: {\n    reloadInterval: 100, defaultHeaders: { 'X-Default': 'yes' },`));
  const db = new Database(path.join(dir, '.tmp/data.db'));
  const insert = db.prepare('INSERT INTO strapi_webhooks (name, url, headers, events, enabled) VALUES (?, ?, ?, ?, ?)');
  const all = JSON.stringify(['entry.create', 'entry.update', 'entry.delete', 'media.create', 'media.update', 'media.delete']);
  insert.run('main', `${origin}/main`, JSON.stringify({ 'X-Hook': 'h' }), all, 1);
  insert.run('disabled', `${origin}/disabled`, '{}', all, 0);
  insert.run('not http', 'file:///etc/passwd', '{}', all, 1);
  db.close();
  const logger = pino({ level: 'warn' }, { write: (line: string) => { warnings.push(String(JSON.parse(line).msg)); } });
  app = await createTessera({ dir, logger, env: { ...process.env, NODE_ENV: 'test' } });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
  token = fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim();
}, 30_000);

afterAll(async () => {
  for (const res of held) res.destroy();
  await app?.close();
  await new Promise((r) => receiver?.close(r));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('sends entry events of REST writes, sanitized, with the webhook and default headers, never to a disabled webhook', async () => {
  posts.length = 0;
  const res = await api('POST', '/api/authors', { data: { name: 'W', secret: 'never-sent' } });
  expect(res.status).toBe(200);
  const id = ((await res.json()) as { data: { id: number } }).data.id;
  await api('PUT', `/api/authors/${id}`, { data: { secret: 'still-never' } });
  await api('DELETE', `/api/authors/${id}`);
  await until(() => posts.length >= 3);
  expect(posts.map((p) => [p.path, p.body.event, p.headers['x-strapi-event']])).toEqual([
    ['/main', 'entry.create', 'entry.create'], ['/main', 'entry.update', 'entry.update'], ['/main', 'entry.delete', 'entry.delete'],
  ]);
  for (const p of posts) {
    expect(p.headers['x-hook']).toBe('h');
    expect(p.headers['x-default']).toBe('yes');
    expect(p.headers['content-type']).toBe('application/json');
    expect(p.body).toMatchObject({ model: 'author', uid: 'api::author.author', entry: { id, name: 'W' } });
    expect(JSON.stringify(p.body)).not.toContain('never');
  }
  expect(warnings.some((w) => w.includes('only http and https'))).toBe(true);
});

it('sends entry.create for a registered user without its password, and nothing for strapi.query writes', async () => {
  posts.length = 0;
  const res = await fetch(`${url}/api/auth/local/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'whuser', email: 'wh@example.com', password: 'Secret-pass-1' }) });
  expect(res.status).toBe(200);
  await app.strapi.query('api::category.category').create({ data: { name: 'Quiet', slug: 'quiet' } });
  await until(() => posts.length >= 1);
  await new Promise((r) => setTimeout(r, 150));
  expect(posts.map((p) => p.body.model)).toEqual(['user']);
  const entry = posts[0].body.entry as Record<string, unknown>;
  expect(entry.username).toBe('whuser');
  expect('password' in entry).toBe(false);
  expect(JSON.stringify(posts[0].body)).not.toContain('Secret-pass-1');
});

it('sends entry.create for a new localization (v4 creates it through the entity service)', async () => {
  await (app.strapi.plugin('i18n').service('locales') as { create(l: Record<string, string>): Promise<unknown> }).create({ code: 'de', name: 'German (de)' });
  const list = (await (await api('GET', '/api/pages?locale=en')).json()) as { data: Array<{ id: number }> };
  posts.length = 0;
  const res = await api('POST', `/api/pages/${list.data[0].id}/localizations`, { locale: 'de', title: 'Seite', slug: 'seite-wh' });
  expect(res.status).toBe(200);
  const created = (await res.json()) as { id: number };
  await until(() => posts.length >= 1);
  expect(posts.map((p) => [p.path, p.body.event, p.body.model])).toEqual([['/main', 'entry.create', 'page']]);
  expect(posts[0].body.entry).toMatchObject({ id: created.id, locale: 'de', title: 'Seite' });
});

it('sends entry events of strapi.entityService writes and calls strapi.eventHub listeners until removed', async () => {
  posts.length = 0;
  const seen: unknown[] = [];
  const listener = (info: unknown) => { seen.push(info); };
  app.strapi.eventHub!.on('entry.create', listener);
  const created = await app.strapi.entityService.create('api::category.category', { data: { name: 'Via ES', slug: 'via-es' } });
  app.strapi.eventHub!.off('entry.create', listener);
  await app.strapi.entityService.create('api::category.category', { data: { name: 'Via ES 2', slug: 'via-es-2' } });
  await until(() => posts.length >= 2);
  expect(seen).toEqual([{ model: 'category', uid: 'api::category.category', entry: expect.objectContaining({ id: created.id, name: 'Via ES' }) }]);
  expect(posts.map((p) => (p.body.entry as { name: string }).name)).toEqual(['Via ES', 'Via ES 2']);
  // project code emits its own events on the same hub; a listener that throws is logged, the others still run
  const custom: unknown[] = [];
  app.strapi.eventHub!.on('custom.event', () => { throw new Error('listener failure'); });
  app.strapi.eventHub!.on('custom.event', (x: unknown) => { custom.push(x); });
  await app.strapi.eventHub!.emit('custom.event', { n: 1 });
  expect(custom).toEqual([{ n: 1 }]);
  posts.length = 0;
  await app.strapi.entityService.deleteMany('api::category.category', { filters: { slug: { $startsWith: 'via-es' } } });
  await until(() => posts.length >= 2);
  expect(posts.map((p) => `${p.body.event}:${(p.body.entry as { name: string }).name}`).sort()).toEqual(['entry.delete:Via ES', 'entry.delete:Via ES 2']);
});

it('sends nothing for a write that rolled back', async () => {
  posts.length = 0;
  app.strapi.db.lifecycles.subscribe({ models: ['api::category.category'], afterCreate() { throw new Error('rolled back on purpose'); } });
  const res = await api('POST', '/api/categories', { data: { name: 'Rolled back', slug: 'rolled-back' } });
  expect(res.status).toBeGreaterThanOrEqual(400);
  app.strapi.db.lifecycles.clear();
  await api('PUT', '/api/categories/1', { data: { priority: 42 } }); // a marker that does send
  await until(() => posts.length >= 1);
  expect(posts.map((p) => p.body.event)).toEqual(['entry.update']);
  const count = await app.strapi.query('api::category.category').count({ where: { slug: 'rolled-back' } });
  expect(count).toBe(0);
});

it('sends the event of a write made by a lifecycle hook only when the outer write committed', async () => {
  posts.length = 0;
  let n = 0;
  app.strapi.db.lifecycles.subscribe({
    models: ['api::category.category'],
    async afterCreate(event: { result?: { slug?: string } }) {
      await app.strapi.entityService.create('api::author.author', { data: { name: `From hook ${++n}` } });
      if (event.result?.slug === 'fails') throw new Error('rolled back on purpose');
    },
  });
  expect((await api('POST', '/api/categories', { data: { name: 'Fails', slug: 'fails' } })).status).toBeGreaterThanOrEqual(400);
  expect((await api('POST', '/api/categories', { data: { name: 'Works', slug: 'works' } })).status).toBe(200);
  app.strapi.db.lifecycles.clear();
  await until(() => posts.length >= 2);
  await new Promise((r) => setTimeout(r, 100));
  const sent = posts.map((p) => `${p.body.model}:${(p.body.entry as { name: string }).name}`).sort();
  expect(sent).toEqual(['author:From hook 2', 'category:Works']);
});

it('sees webhooks added while serving, answers requests while a receiver hangs, and survives a receiver that is down', async () => {
  const down = http.createServer();
  const downOrigin = await listen(down);
  await new Promise((r) => down.close(r)); // nothing listens there any more
  // written by another connection, as another process (Strapi's admin beside Tessera) would
  const db = secondConnection(app.db, path.join(dir, '.tmp/data.db'));
  try {
    const insert = sqlFor(db, 'INSERT INTO strapi_webhooks (name, url, headers, events, enabled) VALUES (?, ?, ?, ?, ?)');
    await db.run(insert, ['hang', `${origin}/hang`, '{}', '["entry.update"]', db.dialect.booleanToDb(true)]);
    await db.run(insert, ['down', `${downOrigin}/x`, '{}', '["entry.update"]', db.dialect.booleanToDb(true)]);
  } finally {
    await db.close();
  }
  await new Promise((r) => setTimeout(r, 150)); // past reloadInterval
  posts.length = 0;
  await api('PUT', '/api/categories/1', { data: { priority: 1 } }); // this write reads the table again
  await until(() => posts.some((p) => p.path === '/hang'));
  // the receiver holds its request; the next writes are answered all the same
  const res = await api('PUT', '/api/categories/1', { data: { priority: 2 } });
  expect(res.status).toBe(200);
  await until(() => warnings.some((w) => w.includes(downOrigin)));
  expect(held.length).toBeGreaterThanOrEqual(1);
});

it('gives up on a receiver after the timeout and logs it', async () => {
  const logged: string[] = [];
  const hang = http.createServer(() => undefined);
  const hangOrigin = await listen(hang);
  const delivery = new Delivery({ defaultHeaders: {}, warn: (m) => logged.push(m), timeoutMs: 100 });
  delivery.send({ id: 9, name: 'slow', url: `${hangOrigin}/`, headers: {}, events: ['entry.create'] }, 'entry.create', '{}');
  await delivery.idle();
  expect(logged).toEqual([expect.stringContaining('no answer within 0.1 s')]);
  hang.closeAllConnections();
  await new Promise((r) => hang.close(r));
});

it('keeps at most maxQueued calls waiting and drops the rest with a warning', async () => {
  const logged: string[] = [];
  const hang = http.createServer(() => undefined);
  const hangOrigin = await listen(hang);
  const delivery = new Delivery({ defaultHeaders: {}, warn: (m) => logged.push(m), timeoutMs: 200, maxQueued: 2 });
  const hook = { id: 1, name: 'slow', url: `${hangOrigin}/`, headers: {}, events: ['entry.create'] };
  for (let i = 0; i < 10; i++) delivery.send(hook, 'entry.create', '{}'); // 5 running, 2 waiting, 3 dropped
  expect(logged.filter((m) => m.includes('dropped'))).toHaveLength(1);
  await delivery.idle();
  expect(logged.filter((m) => m.includes('no answer'))).toHaveLength(7);
  hang.closeAllConnections();
  await new Promise((r) => hang.close(r));
});

it('on close drops the calls still waiting and lets those in flight finish', async () => {
  const logged: string[] = [];
  const hang = http.createServer(() => undefined);
  const hangOrigin = await listen(hang);
  const delivery = new Delivery({ defaultHeaders: {}, warn: (m) => logged.push(m), timeoutMs: 200 });
  const hook = { id: 1, name: 'slow', url: `${hangOrigin}/`, headers: {}, events: ['entry.create'] };
  for (let i = 0; i < 30; i++) delivery.send(hook, 'entry.create', '{}'); // 5 in flight, 25 waiting
  await delivery.close();
  expect(logged.filter((m) => m.includes('25 waiting call(s) not sent'))).toHaveLength(1);
  expect(logged.filter((m) => m.includes('no answer'))).toHaveLength(5); // only the 5 in flight were tried
  hang.closeAllConnections();
  await new Promise((r) => hang.close(r));
});
