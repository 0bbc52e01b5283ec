// Sign-in through providers where real Strapi can show it without a provider: the redirect of
// /api/connect/:provider for every OAuth 2 provider v4 ships (enabled with its default settings), custom
// callbacks, grant's callback without a session, and the auth callback's errors. Recorded from Strapi 4.26.2
// (test/golden/auth-connect.*, with the grant settings of auth-connect.setup.json applied to its database by
// auth-connect-setup.mjs); Strapi ran in development on 127.0.0.1:1411, so its redirect_uri names
// http://localhost:1411, which this copy is given as config/server.js `url`.
import { afterAll, beforeAll, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { GOLDEN_DIR, goldenProblems } from '../helpers/golden';
import { startAuthApp, type AuthApp } from '../integration/auth/auth-app';

let t: AuthApp;
beforeAll(async () => {
  t = await startAuthApp({
    files: { 'config/server.js': "module.exports = { host: '127.0.0.1', port: 1411, url: 'http://localhost:1411', app: { keys: ['a', 'b'] } };\n" },
    // v4 keeps a window per request path, Tessera one for all of /api/connect/*: not what this list compares
    usersPermissions: { ratelimit: { enabled: false } },
  });
  const setup = JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, 'auth-connect.setup.json'), 'utf8')) as { grant: Record<string, object> };
  const store = t.app.strapi.store({ type: 'plugin', name: 'users-permissions' });
  const grant = (await store.get({ key: 'grant' })) as Record<string, object>;
  for (const [provider, patch] of Object.entries(setup.grant)) grant[provider] = { ...grant[provider], ...patch };
  await store.set({ key: 'grant', value: grant });
});
afterAll(async () => {
  await t?.stop();
});

it('answers the auth-connect request list exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('auth-connect', t.url, t.token)).toEqual([]);
});
