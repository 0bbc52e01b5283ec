// Lifecycle hooks on the fixture app (test/fixtures/strapi4-app with its data), subscribed at run time: writes of a
// localized type (through the i18n plugin) run them, and a type's reads move from the JSON read path to the
// JavaScript one while something subscribes to them, and back when it stops.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';

let running: RunningApp;
beforeAll(async () => {
  running = await startFixtureApp(true);
});
afterAll(async () => {
  await running?.stop();
});

type Json = any;
const strapi = () => running.app.strapi as Json;
async function call(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await running.app.server.inject({ method, url, payload: body as object | undefined, headers: { authorization: `Bearer ${running.token}` } });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

it('writes of a localized type run its hooks (create and update, in the locale given)', async () => {
  const seen: string[] = [];
  const off = strapi().db.lifecycles.subscribe({
    models: ['api::page.page'],
    beforeCreate(event: Json) {
      seen.push(`beforeCreate ${event.params.data.locale}`);
      event.params.data.body = 'written by beforeCreate';
    },
    beforeUpdate(event: Json) {
      seen.push('beforeUpdate');
      event.params.data.body = 'written by beforeUpdate';
    },
  });
  try {
    const created = await call('POST', '/api/pages', { data: { title: 'Hooked page', slug: 'hooked-page', locale: 'fr' } });
    expect(created.status).toBe(200);
    expect(created.body.data.attributes).toMatchObject({ body: 'written by beforeCreate', locale: 'fr' });
    const updated = await call('PUT', `/api/pages/${created.body.data.id}`, { data: { title: 'Hooked page 2' } });
    expect(updated.body.data.attributes.body).toBe('written by beforeUpdate');
    expect((await call('GET', `/api/pages/${created.body.data.id}?locale=fr`)).body.data.attributes.body).toBe('written by beforeUpdate');
    expect(seen).toEqual(['beforeCreate fr', 'beforeUpdate']);
  } finally {
    off();
  }
});

it('reads take the JSON path without read hooks and the JavaScript path (where after hooks change results) with them', async () => {
  const url = '/api/articles?fields[0]=title&sort=id&pagination[pageSize]=3';
  const plain = await call('GET', url);
  const off = strapi().db.lifecycles.subscribe({
    models: ['api::article.article'],
    afterFindMany(event: Json) {
      for (const a of event.result) a.title = `[${a.title}]`;
    },
  });
  try {
    const hooked = await call('GET', url);
    expect(hooked.body.data.map((a: Json) => a.attributes.title)).toEqual(plain.body.data.map((a: Json) => `[${a.attributes.title}]`));
    expect(hooked.body.meta).toEqual(plain.body.meta);
  } finally {
    off();
  }
  expect((await call('GET', url)).body).toEqual(plain.body);
});

it('a hook that widens select or populate of a Content API read does not put private fields in the answer', async () => {
  const off = strapi().db.lifecycles.subscribe({
    models: ['api::author.author', 'api::article.article'],
    beforeFindMany(event: Json) {
      delete event.params.select;
    },
    async afterFindMany(event: Json) {
      // merging the full row (private `secret` included) into the result: v4's output sanitizer drops it
      for (const e of event.result) Object.assign(e, await strapi().query('api::author.author').findOne({ where: { id: e.id } }), { computed: 'kept' });
    },
    beforeFindOne(event: Json) {
      delete event.params.select;
      event.params.populate = { author: true };
    },
  });
  try {
    // v4 reads what the hooks leave (every field, the author populated); its output sanitizer drops `secret`
    const authors = await call('GET', '/api/authors?fields[0]=name');
    expect(authors.status).toBe(200);
    expect(Object.keys(authors.body.data[0].attributes)).toEqual(['name', 'email', 'bio', 'createdAt', 'updatedAt', 'computed']);
    const article = await call('GET', '/api/articles/2?fields[0]=title');
    expect(Object.keys(article.body.data.attributes)).toEqual(expect.arrayContaining(['title', 'body', 'author']));
    expect(article.body.data.attributes.author.data.attributes.name).toEqual(expect.any(String));
    expect(JSON.stringify([authors.body, article.body])).not.toContain('secret');
    // project code reading through the entity service gets every field, as in v4 (it sanitizes itself)
    const [first] = await strapi().entityService.findMany('api::author.author', { fields: ['name'] });
    expect(first).toHaveProperty('secret');
  } finally {
    off();
  }
});
