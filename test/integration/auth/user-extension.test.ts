// The user model extended by the project as in v4 (src/extensions/users-permissions/content-types/user/schema.json):
// the new attributes are stored and answered, private ones never, and register takes only what it may.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { internalModelSources } from '../../../src/model/internal-models';
import { startAuthApp, type AuthApp } from './auth-app';

let t: AuthApp;
beforeAll(async () => {
  const base = internalModelSources().find((s) => s.uid === 'plugin::users-permissions.user')!.schema;
  const schema = {
    ...base,
    attributes: {
      ...base.attributes,
      displayName: { type: 'string', maxLength: 40 },
      internalNote: { type: 'text', private: true },
    },
  };
  t = await startAuthApp({ files: { 'src/extensions/users-permissions/content-types/user/schema.json': JSON.stringify(schema) } });
});
afterAll(async () => {
  await t?.stop();
});

it('stores and answers the added attributes; private ones are neither written by register nor answered', async () => {
  const reg = await t.request('POST', '/api/auth/local/register', {
    body: { username: 'extended', email: 'extended@example.com', password: 'Extended-pass-1', displayName: 'Ext', internalNote: 'set by client', confirmed: false },
  });
  expect(reg.status).toBe(200);
  expect(reg.body.user).toMatchObject({ username: 'extended', displayName: 'Ext', confirmed: true });
  expect(reg.body.user.internalNote).toBeUndefined();
  const row = await t.app.query('plugin::users-permissions.user').findOne({ where: { username: 'extended' } });
  expect(row?.internalNote).toBeNull();
  expect((await t.request('GET', '/api/users/me', { jwt: reg.body.jwt })).body.displayName).toBe('Ext');
  // the added attribute is validated as a content-API write
  const bad = await t.request('POST', '/api/auth/local/register', { body: { username: 'extended2', email: 'extended2@example.com', password: 'Extended-pass-1', displayName: 'x'.repeat(41) } });
  expect(bad.body.error.message).toBe('displayName must be at most 40 characters');
  // filtering on the private one is refused
  expect((await t.request('GET', '/api/users?filters[internalNote][$null]=true', { token: true })).status).toBe(400);
});
