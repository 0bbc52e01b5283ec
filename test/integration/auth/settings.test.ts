// The plugin store settings v4 keeps in strapi_core_store_settings, changed as a project bootstrap would
// (strapi.store): the next request follows them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAuthApp, type AuthApp } from './auth-app';

let t: AuthApp;
const advanced = async (patch: Record<string, unknown>) => {
  const store = t.app.strapi.store({ type: 'plugin', name: 'users-permissions' });
  await store.set({ key: 'advanced', value: { ...((await store.get({ key: 'advanced' })) as object), ...patch } });
};
beforeAll(async () => {
  t = await startAuthApp();
});
afterAll(async () => {
  await t?.stop();
});

it('allow_register: false closes registration', async () => {
  await advanced({ allow_register: false });
  expect((await t.request('POST', '/api/auth/local/register', { body: { username: 'closed', email: 'closed@example.com', password: 'Closed-pass-1' } })).body.error)
    .toEqual({ status: 400, name: 'ApplicationError', message: 'Register action is currently disabled', details: {} });
  await advanced({ allow_register: true });
});

it('default_role decides the role of new users; a missing one is a clear 400', async () => {
  await t.request('POST', '/api/users-permissions/roles', { token: true, body: { name: 'Member' } });
  await advanced({ default_role: 'member' });
  const reg = await t.request('POST', '/api/auth/local/register', { token: true, body: { username: 'member1', email: 'member1@example.com', password: 'Member-pass-1' } });
  expect(reg.body.user.role).toMatchObject({ type: 'member', name: 'Member' });
  await advanced({ default_role: 'nope' });
  expect((await t.request('POST', '/api/auth/local/register', { body: { username: 'member2', email: 'member2@example.com', password: 'Member-pass-1' } })).body.error.message)
    .toBe('Impossible to find the default role');
  await advanced({ default_role: 'authenticated' });
});

it('the email provider of the grant settings can be disabled', async () => {
  const store = t.app.strapi.store({ type: 'plugin', name: 'users-permissions' });
  const grant = (await store.get({ key: 'grant' })) as Record<string, Record<string, unknown>>;
  await store.set({ key: 'grant', value: { ...grant, email: { ...grant.email, enabled: false } } });
  expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'reader', password: 'Reader-pass-1' } })).body.error.message).toBe('This provider is disabled');
  await store.set({ key: 'grant', value: grant });
  expect((await t.request('POST', '/api/auth/local', { body: { identifier: 'reader', password: 'Reader-pass-1' } })).status).toBe(200);
});
