// The bootstrap API v4 projects call: strapi.entityService (v4 params, flat entities, passwords hashed,
// validation), the users-permissions services, strapi.query on its models, strapi.store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityService } from '../../../src/core/entity-service';
import { isBcryptHash } from '../../../src/auth/passwords';
import { startAuthApp, type AuthApp } from './auth-app';

let t: AuthApp;
let es: EntityService;
const USER = 'plugin::users-permissions.user';
type Svc = Record<string, (...args: any[]) => Promise<any>>;
const up = (name: string) => t.app.strapi.plugin('users-permissions').service(name) as unknown as Svc;

beforeAll(async () => {
  t = await startAuthApp();
  es = t.app.strapi.entityService;
});
afterAll(async () => {
  await t?.stop();
});

describe('strapi.entityService', () => {
  it('findMany with v4 params: filters, sort, fields, populate, pagination, publicationState', async () => {
    const all = (await es.findMany('api::article.article', { fields: ['title'], sort: 'id:desc', pagination: { page: 1, pageSize: 3 } })) as Array<Record<string, unknown>>;
    expect(all).toHaveLength(3);
    expect(Object.keys(all[0]).sort()).toEqual(['id', 'title']);
    expect((all[0].id as number) > (all[1].id as number)).toBe(true);
    const withAuthor = (await es.findMany('api::article.article', { filters: { author: { id: { $notNull: true } } }, populate: { author: { fields: ['name'] } }, start: 0, limit: 1, sort: ['id'] })) as Array<Record<string, any>>;
    expect(Object.keys(withAuthor[0].author).sort()).toEqual(['id', 'name']);
    const total = await es.count('api::article.article');
    const live = await es.count('api::article.article', { publicationState: 'live' });
    expect(total).toBeGreaterThan(live); // v4: drafts included unless asked
    const page = await es.findPage('api::category.category', { pagination: { page: 2, pageSize: 2 } });
    expect(page.pagination).toEqual({ page: 2, pageSize: 2, pageCount: Math.ceil(page.pagination.total / 2), total: page.pagination.total });
    expect(page.results).toHaveLength(2);
    const home = await es.findMany('api::homepage.homepage', {});
    expect(Array.isArray(home)).toBe(false); // single types: one entity
  });

  it('returns private attributes (as v4: callers sanitize) and filters on them', async () => {
    const [reader] = (await es.findMany(USER, { filters: { username: 'reader' } })) as Array<Record<string, unknown>>;
    expect(isBcryptHash(reader.password)).toBe(true);
    expect(await es.count(USER, { filters: { resetPasswordToken: { $null: true } } })).toBeGreaterThan(0);
  });

  it('create/update validate like the Content API, hash passwords, keep drafts as drafts', async () => {
    await expect(es.create(USER, { data: { username: 'esuser', email: 'es@example.com', password: 'abc', role: 1 } })).rejects.toThrow('password must be at least 6 characters');
    const u = await es.create(USER, { data: { username: 'esuser', email: 'es@example.com', password: 'Entity-pass-1', provider: 'local', role: 1, confirmed: true }, populate: ['role'] });
    expect(isBcryptHash(u.password)).toBe(true);
    expect((u.role as { type: string }).type).toBe('authenticated');
    expect(await up('user').validatePassword('Entity-pass-1', u.password)).toBe(true);
    await t.login('esuser', 'Entity-pass-1');
    const updated = await es.update(USER, u.id, { data: { password: 'Entity-pass-2' } });
    expect(await up('user').validatePassword('Entity-pass-2', updated!.password)).toBe(true);
    expect(await es.update(USER, 999_999, { data: { username: 'nobody' } })).toBeNull();
    const draft = await es.create('api::category.category', { data: { name: 'From bootstrap', slug: 'from-bootstrap' } });
    expect(draft.name).toBe('From bootstrap');
    const article = await es.create('api::article.article', { data: { title: 'Draft by default', slug: 'draft-by-default' } });
    expect(article.publishedAt).toBeNull();
    expect(await es.delete('api::article.article', article.id)).toMatchObject({ id: article.id });
    expect(await es.findOne('api::article.article', article.id)).toBeNull();
    const role = await es.load(USER, { id: u.id }, 'role');
    expect(role).toMatchObject({ type: 'authenticated' });
  });
});

describe('strapi.entityService on a localized type (i18n decorates it, as in v4)', () => {
  it('creates in the default locale, refuses an unknown one, and syncs shared attributes to siblings', async () => {
    const en = await es.create('api::page.page', { data: { title: 'ES page', slug: 'es-page-en', order: 1 } });
    expect(en.locale).toBe('en');
    await expect(es.create('api::page.page', { data: { title: 'x', slug: 'es-page-xx', locale: 'xx' } })).rejects.toThrow("This locale doesn't exist");
    const fr = await es.create('api::page.page', { data: { title: 'ES page fr', slug: 'es-page-fr', locale: 'fr', localizations: [en.id] }, populate: ['localizations'] });
    expect(fr.locale).toBe('fr');
    // `order` is not localized: an update that comes back with its localizations copies it to them
    await es.update('api::page.page', fr.id, { data: { order: 9 }, populate: ['localizations'] });
    const back = await es.findOne('api::page.page', en.id, { populate: ['localizations'] });
    expect(back?.order).toBe(9);
    expect((back?.localizations as Array<{ id: number }>).map((l) => l.id)).toEqual([fr.id]);
  });

  it('strapi.query(uid).create gives entries of localized types the default locale (v4 i18n lifecycle)', async () => {
    const q = t.app.strapi.query('api::page.page');
    expect((await q.create({ data: { title: 'Q page', slug: 'q-page-default' } })).locale).toBe('en');
    expect((await q.create({ data: { title: 'Q page fr', slug: 'q-page-fr', locale: 'fr' } })).locale).toBe('fr');
  });
});

describe('users-permissions services and models', () => {
  it('user, role, jwt, users-permissions as v4 bootstraps call them', async () => {
    const added = await up('user').add({ username: 'svc', email: 'svc@example.com', password: 'Service-pass-1', provider: 'local', confirmed: true, role: 1 });
    expect(added.role.id).toBe(1);
    expect((await up('user').fetch(added.id)).username).toBe('svc');
    expect((await up('user').fetchAuthenticatedUser(added.id)).role.type).toBe('authenticated');
    expect(await up('user').count({ username: 'svc' })).toBe(1);
    const jwt = (t.app.strapi.plugin('users-permissions').service('jwt') as { issue(p: object): string }).issue({ id: added.id });
    expect((await t.request('GET', '/api/users/me', { jwt })).body.username).toBe('svc');
    expect((await up('role').find()).map((r: { type: string; nb_users: number }) => r.type)).toEqual(expect.arrayContaining(['authenticated', 'public']));
    const tree = (t.app.strapi.plugin('users-permissions').service('users-permissions') as unknown as { getActions(): Record<string, unknown> }).getActions();
    expect(Object.keys(tree)).toEqual(expect.arrayContaining(['api::article', 'plugin::users-permissions', 'plugin::upload']));
    const publicRole = await t.app.strapi.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    expect(publicRole?.name).toBe('Public');
    expect(await t.app.strapi.query('plugin::users-permissions.permission').count({ where: { role: { id: publicRole!.id } } })).toBeGreaterThan(0);
    expect((await t.app.strapi.store({ type: 'plugin', name: 'users-permissions' }).get({ key: 'advanced' }) as { default_role: string }).default_role).toBe('authenticated');
    expect(typeof (t.app.strapi.plugin('email').service('email') as { send: unknown }).send).toBe('function');
  });
});

describe('strapi.entityService.decorate', () => {
  it('replaces methods with ones that may call the previous implementation (v4 plugins do this in register)', async () => {
    const calls: string[] = [];
    es.decorate((old) => ({
      async count(uid: string, params?: Record<string, unknown>) {
        calls.push(uid);
        return (old.count as EntityService['count'])(uid, params);
      },
    }));
    expect(await es.count('api::category.category')).toBeGreaterThan(0);
    expect(calls).toEqual(['api::category.category']);
    expect(() => es.decorate('nope' as never)).toThrow('Decorator must be a function');
  });
});
