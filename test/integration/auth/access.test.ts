// The access check on everything a request touches: API token types (custom with their permission lists,
// read-only, expired), roles, and relations reached through populate, filters and sort.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTokenService } from '../../../src/auth/api-token-service';
import { startAuthApp, type AuthApp } from './auth-app';

let t: AuthApp;
let tokens: ApiTokenService;
beforeAll(async () => {
  t = await startAuthApp();
  tokens = t.app.strapi.service('admin::api-token') as ApiTokenService;
});
afterAll(async () => {
  await t?.stop();
});

describe('API tokens', () => {
  it('custom: exactly its actions; populate of a type it may not find is left out, filters through it are refused', async () => {
    const c = await tokens.create({ name: 'categories-only', type: 'custom', permissions: ['api::category.category.find', 'api::category.category.findOne'] });
    const jwt = c.accessKey;
    const list = await t.request('GET', '/api/categories?sort=id&pagination[pageSize]=1&populate=articles', { jwt });
    expect(list.status).toBe(200);
    expect(list.body.data[0].attributes.articles).toBeUndefined();
    expect((await t.request('GET', '/api/categories/1', { jwt })).status).toBe(200);
    expect((await t.request('GET', '/api/articles', { jwt })).status).toBe(403);
    expect((await t.request('POST', '/api/categories', { jwt, body: { data: { name: 'n', slug: 'n' } } })).status).toBe(403);
    expect((await t.request('GET', '/api/categories?filters[articles][title][$contains]=a', { jwt })).status).toBe(400);
    expect((await t.request('GET', '/api/users', { jwt })).status).toBe(403);
    // permissions changed: the next request sees them
    await tokens.update(c.id, { permissions: ['api::category.category.find', 'api::article.article.find'] });
    const after = await t.request('GET', '/api/categories?sort=id&pagination[pageSize]=1&populate[articles][fields][0]=title', { jwt });
    expect(after.body.data[0].attributes.articles).toBeDefined();
    expect((await t.request('GET', '/api/categories/1', { jwt })).status).toBe(403);
  });

  it('read-only: reads, never writes', async () => {
    const r = await tokens.create({ name: 'ro', type: 'read-only' });
    expect((await t.request('GET', '/api/articles?pagination[pageSize]=1', { jwt: r.accessKey })).status).toBe(200);
    expect((await t.request('GET', '/api/users', { jwt: r.accessKey })).status).toBe(200);
    expect((await t.request('PUT', '/api/categories/1', { jwt: r.accessKey, body: { data: { name: 'x' } } })).status).toBe(403);
    expect((await t.request('GET', '/api/users/count', { jwt: r.accessKey })).status).toBe(403);
  });

  it('expired: 401 "Token expired"; revoked: 401 "Missing or invalid credentials"', async () => {
    const e = await tokens.create({ name: 'short', type: 'full-access', lifespan: 7 * 24 * 3600 * 1000 });
    await t.app.query('admin::api-token').update({ where: { id: e.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await t.request('GET', '/api/articles', { jwt: e.accessKey })).toMatchObject({ status: 401, body: { error: { name: 'UnauthorizedError', message: 'Token expired' } } });
    const v = await tokens.create({ name: 'to-revoke', type: 'full-access' });
    expect((await t.request('GET', '/api/articles', { jwt: v.accessKey })).status).toBe(200);
    await tokens.revoke(v.id);
    expect(await t.request('GET', '/api/articles', { jwt: v.accessKey })).toMatchObject({ status: 401, body: { error: { message: 'Missing or invalid credentials' } } });
  });
});

describe('roles', () => {
  it('a custom role governs its users, and a permission change applies to the next request', async () => {
    const roles = t.app.strapi.plugin('users-permissions').service('role') as { createRole(p: unknown): Promise<void>; find(): Promise<Array<{ id: number; type: string }>> };
    await roles.createRole({ name: 'Reviewer', permissions: { 'api::article': { controllers: { article: { find: { enabled: true } } } } } });
    const reviewer = (await roles.find()).find((r) => r.type === 'reviewer')!;
    await t.request('POST', '/api/users', { token: true, body: { username: 'rev', email: 'rev@example.com', password: 'Reviewer-pass-1', role: reviewer.id, confirmed: true } });
    const jwt = await t.login('rev', 'Reviewer-pass-1');
    const list = await t.request('GET', '/api/articles?sort=id&pagination[pageSize]=1&populate[0]=author&populate[1]=categories', { jwt });
    expect(list.status).toBe(200);
    expect(list.body.data[0].attributes.author).toBeUndefined(); // no api::author.author.find
    expect((await t.request('GET', '/api/articles?sort=author.name', { jwt })).status).toBe(400);
    expect((await t.request('GET', '/api/users/me', { jwt })).status).toBe(403);
    await t.request('PUT', `/api/users-permissions/roles/${reviewer.id}`, { token: true, body: { permissions: { 'api::article': { controllers: { article: { find: { enabled: true } } } }, 'api::author': { controllers: { author: { find: { enabled: true } } } } } } });
    const again = await t.request('GET', '/api/articles?sort=id&pagination[pageSize]=1&populate[0]=author', { jwt });
    expect(Object.keys(again.body.data[0].attributes)).toContain('author');
    expect((await t.request('GET', '/api/articles?sort=author.name', { jwt })).status).toBe(200);
  });
});
