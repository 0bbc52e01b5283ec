// Private attributes and trusted code, as in v4 (each expectation recorded on real Strapi 4.26.2): the core
// service (`strapi.service(uid)`), `strapi.entityService` and `strapi.query` return private attributes and
// password hashes to project code; only the Content API's core controller sanitizes its answers, also when a
// project's override returns `super.find(ctx)` or a project's service widened the query. A project controller
// that returns what a service gave it, without `this.sanitizeOutput`, answers everything (as v4 does).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, startProjectCopy, type RunningApp } from '../../helpers/fixture-app';

const ALL_TYPES = path.resolve(__dirname, '../../fixtures/all-types');
const UID = 'api::thing.thing';
const BCRYPT = /^\$2[aby]\$10\$[./A-Za-z0-9]{53}$/;

const CONTROLLER = `
const { factories } = require('@strapi/strapi');
module.exports = factories.createCoreController('api::thing.thing', ({ strapi }) => ({
  async find(ctx) {
    const answer = await super.find(ctx);
    return answer;
  },
  // returns the service's entities as they are (no this.sanitizeOutput): v4 answers what it was given
  async raw(ctx) {
    return strapi.service('api::thing.thing').find({ fields: ['name', 'hidden'] });
  },
}));
`;
const SERVICE = `
const { factories } = require('@strapi/strapi');
module.exports = factories.createCoreService('api::thing.thing', ({ strapi }) => ({
  // widens whatever the controller asked for
  async findOne(id, params) {
    return super.findOne(id, { fields: ['name', 'hidden', 'pin'] });
  },
}));
`;
const ROUTES = `
module.exports = { routes: [{ method: 'GET', path: '/things-raw', handler: 'thing.raw', config: { auth: false } }] };
`;

type Json = any;
let things: RunningApp;
let fixture: RunningApp;
const strapi = (r: RunningApp) => r.app.strapi as Json;
let one: Json;

beforeAll(async () => {
  things = await startProjectCopy(ALL_TYPES, {
    'src/api/thing/controllers/thing.js': CONTROLLER,
    'src/api/thing/services/thing.js': SERVICE,
    'src/api/thing/routes/custom.js': ROUTES,
  });
  one = await strapi(things).entityService.create(UID, { data: { name: 'one', hidden: 'h1', pin: 'secret123' } });
  await strapi(things).entityService.create(UID, { data: { name: 'two', hidden: 'h2', pin: 'secret456' } });
  fixture = await startFixtureApp(true);
}, 60_000);
afterAll(async () => {
  await things?.stop();
  await fixture?.stop();
});

describe('project code gets private attributes and password hashes (v4 trusted code)', () => {
  it('the core service: find, findOne, create, update', async () => {
    const svc = strapi(things).service(UID);
    const page = await svc.find({ sort: 'id' });
    expect(page.results.map((e: Json) => [e.name, e.hidden])).toEqual([['one', 'h1'], ['two', 'h2']]);
    expect(page.results[0].pin).toMatch(BCRYPT);
    // the project's findOne override asks for exactly these
    expect(await svc.findOne(one.id)).toEqual({ id: one.id, name: 'one', hidden: 'h1', pin: expect.stringMatching(BCRYPT) });
    const created = await svc.create({ data: { name: 'five', hidden: 'h5', pin: 'abcdef1' } });
    expect(created).toMatchObject({ name: 'five', hidden: 'h5', pin: expect.stringMatching(BCRYPT) });
    const updated = await svc.update(created.id, { data: { hidden: 'h6' } });
    expect(updated).toMatchObject({ name: 'five', hidden: 'h6', pin: created.pin });
    await svc.delete(created.id);
  });

  it('fields, filters and sort may name a private attribute; a filter on a password is refused, never ignored', async () => {
    const svc = strapi(things).service(UID);
    expect((await svc.find({ fields: ['name', 'hidden', 'pin'], filters: { hidden: 'h2' } })).results).toEqual([
      { id: expect.any(Number), name: 'two', hidden: 'h2', pin: expect.stringMatching(BCRYPT) },
    ]);
    expect((await svc.find({ fields: ['name'], sort: 'hidden:desc' })).results.map((e: Json) => e.name)).toEqual(['two', 'one']);
    // v4 drops it silently and returns every entry, which would pass any password: a 400 here
    await expect(svc.find({ filters: { pin: 'secret123' } })).rejects.toMatchObject({ name: 'ValidationError' });
  });

  it('strapi.entityService and strapi.query', async () => {
    const viaEntityService = await strapi(things).entityService.findOne(UID, one.id, { fields: ['name', 'hidden', 'pin'] });
    expect(viaEntityService).toEqual({ id: one.id, name: 'one', hidden: 'h1', pin: expect.stringMatching(BCRYPT) });
    const viaQuery = await strapi(things).query(UID).findOne({ where: { id: one.id } });
    expect(viaQuery).toMatchObject({ name: 'one', hidden: 'h1', pin: expect.stringMatching(BCRYPT) });
  });

  it('populated relations keep their private attributes, and `*` populates the private creator relations', async () => {
    const s = strapi(fixture);
    const article = (await s.service('api::article.article').find({ fields: ['title'], filters: { author: { $notNull: true } }, pagination: { pageSize: 1 } })).results[0];
    const authorId = (await s.query('api::article.article').findOne({ where: { id: article.id }, populate: ['author'] })).author.id;
    await s.query('api::author.author').update({ where: { id: authorId }, data: { secret: 'the-secret' } });
    const viaService = await s.service('api::article.article').findOne(article.id, { fields: ['title'], populate: { author: true } });
    expect(viaService.author).toMatchObject({ id: authorId, secret: 'the-secret' });
    const star = await s.service('api::article.article').findOne(article.id, { fields: ['title'], populate: '*' });
    expect(Object.keys(star)).toEqual(expect.arrayContaining(['author', 'createdBy', 'updatedBy']));
    const viaEntityService = await s.entityService.findOne('api::article.article', article.id, { fields: ['title'], populate: { author: { fields: ['name', 'secret'] } } });
    expect(viaEntityService.author).toEqual({ id: authorId, name: expect.any(String), secret: 'the-secret' });
    const viaQuery = await s.query('api::article.article').findOne({ where: { id: article.id }, select: ['title'], populate: ['author'] });
    expect(viaQuery.author.secret).toBe('the-secret');

    // ...and the Content API never answers it (the JSON read path and the JavaScript one)
    for (const url of [`/api/articles?populate=author&filters[id]=${article.id}`, `/api/articles/${article.id}?populate=*`, `/api/articles?populate=*&locale=all`]) {
      const res = await fetch(`${fixture.url}${url}`, { headers: { authorization: `Bearer ${fixture.token}` } });
      expect(res.status, url).toBe(200);
      const text = await res.text();
      expect(text, url).not.toContain('the-secret');
      expect(text, url).not.toContain('"createdBy"');
    }
  });
});

describe('the Content API sanitizes what its core controller answers', () => {
  const get = async (url: string) => {
    const res = await fetch(`${things.url}${url}`);
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('core find (through the override returning super.find) and create/update', async () => {
    const list = await get('/api/things?sort=id');
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: Json) => e.attributes.name)).toEqual(['one', 'two']);
    for (const e of list.body.data) expect(Object.keys(e.attributes)).not.toEqual(expect.arrayContaining(['hidden']));
    const post = await fetch(`${things.url}/api/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { name: 'six', hidden: 'h7', pin: 'abcdef2' } }) });
    const created = (await post.json()) as Json;
    expect(post.status).toBe(200);
    expect(created.data.attributes).not.toHaveProperty('hidden');
    expect(created.data.attributes).not.toHaveProperty('pin');
    const stored = await strapi(things).query(UID).findOne({ where: { id: created.data.id } });
    expect(stored.hidden).toBe('h7'); // written, only never answered
    await strapi(things).query(UID).delete({ where: { id: created.data.id } });
  });

  it('a project service that widens the query: the core controller strips what the caller may not see', async () => {
    const r = await get(`/api/things/${one.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { id: one.id, attributes: { name: 'one' } }, meta: {} });
  });

  it('a custom controller returning service results without this.sanitizeOutput answers them as they are (v4 too)', async () => {
    const r = await get('/api/things-raw');
    expect(r.status).toBe(200);
    expect(r.body.results.map((e: Json) => e.hidden).sort()).toEqual(['h1', 'h2']);
  });
});
