// CVE-2023-22894 class: no request may learn anything about a password hash or a private field, by
// filtering, sorting, selecting, populating or searching, through any path — here through relations from
// a content type to plugin::users-permissions.user (which the fixture app has none of, so this test builds
// a small v4 project). The caller is as strong as it gets: a full-access API token, and a Public role that
// may read users too, so the relation itself is open and only the private attributes are closed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../../src/core/tessera';

const HASH = '$2a$10$abcdefghijklmnopqrstuuN8vMqj0cQm4xH1nG8rZc9uT2xW3yQaK';
const RESET = 'reset-token-123';

function writeProject(dir: string): void {
  const put = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  put('package.json', '{ "name": "private-probe", "private": true, "version": "0.1.0" }\n');
  put('config/database.js', "module.exports = { connection: { client: 'sqlite', connection: { filename: '.tmp/data.db' } } };\n");
  put('config/admin.js', "module.exports = { apiToken: { salt: 'probe-salt' }, auth: { secret: 'probe-secret' } };\n");
  put('config/plugins.js', "module.exports = { 'users-permissions': { config: { jwtSecret: 'probe-jwt-secret' } } };\n");
  put('config/api.js', 'module.exports = { rest: { defaultLimit: 25, maxLimit: 100 } };\n');
  put('src/api/note/content-types/note/schema.json', JSON.stringify({
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
      watchers: { type: 'relation', relation: 'manyToMany', target: 'plugin::users-permissions.user' },
    },
  }));
  for (const kind of ['routes', 'controllers', 'services']) {
    const factory = { routes: 'createCoreRouter', controllers: 'createCoreController', services: 'createCoreService' }[kind];
    put(`src/api/note/${kind}/note.js`, `module.exports = require('@strapi/strapi').factories.${factory}('api::note.note');\n`);
  }
  put('src/index.js', `
const fs = require('fs');
const path = require('path');
module.exports = {
  async bootstrap({ strapi }) {
    const role = await strapi.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    for (const action of ['api::note.note.find', 'api::note.note.findOne', 'plugin::users-permissions.user.find']) {
      await strapi.query('plugin::users-permissions.permission').create({ data: { action, role: role.id } });
    }
    const user = await strapi.query('plugin::users-permissions.user').create({ data: {
      username: 'victim', email: 'victim@example.com', provider: 'local', confirmed: true, blocked: false,
      password: ${JSON.stringify(HASH)}, resetPasswordToken: ${JSON.stringify(RESET)}, confirmationToken: 'confirm-456', role: role.id,
    } });
    await strapi.query('api::note.note').create({ data: { title: 'first', owner: user.id, watchers: [user.id] } });
    await strapi.query('api::note.note').create({ data: { title: 'second' } });
    const { accessKey } = await strapi.service('admin::api-token').create({ name: 'probe', type: 'full-access', lifespan: null });
    fs.writeFileSync(path.join(__dirname, '..', '.tmp', 'token.txt'), accessKey);
  },
};
`);
  fs.mkdirSync(path.join(dir, '.tmp'), { recursive: true });
}

let dir: string;
let app: Tessera;
let token: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-probe-'));
  writeProject(dir);
  app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
  token = fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim();
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function get(query: Record<string, unknown>, auth: 'token' | 'public' = 'token') {
  const url = `/api/notes?${qs.stringify(query, { encodeValuesOnly: true })}`;
  const res = await app.server.inject({ method: 'GET', url, headers: auth === 'token' ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: res.json() as { data: unknown; error?: { name: string; message: string } } };
}

/** the prefix of the hash an attacker would guess one character at a time */
const guesses = ['$', '$2a', HASH.slice(0, 20), 'zzz'];
const probes: Array<[string, (guess: string) => Record<string, unknown>]> = [
  ['manyToOne', (g) => ({ filters: { owner: { password: { $startsWith: g } } } })],
  ['manyToMany', (g) => ({ filters: { watchers: { password: { $startsWith: g } } } })],
  ['implicit $eq', (g) => ({ filters: { owner: { password: g } } })],
  ['$in', (g) => ({ filters: { owner: { password: { $in: [g] } } } })],
  ['$containsi', (g) => ({ filters: { owner: { password: { $containsi: g } } } })],
  ['$gt (binary search)', (g) => ({ filters: { owner: { password: { $gt: g } } } })],
  ['$null', () => ({ filters: { owner: { password: { $null: 'false' } } } })],
  ['inside $or', (g) => ({ filters: { $or: [{ title: 'nothing' }, { owner: { password: { $startsWith: g } } }] } })],
  ['inside $not', (g) => ({ filters: { $not: { owner: { password: { $startsWith: g } } } } })],
  ['inside $and array', (g) => ({ filters: { $and: [{ owner: { password: { $startsWith: g } } }] } })],
  ['array of filters', (g) => ({ filters: [{ owner: { password: { $startsWith: g } } }] })],
  ['inside a relation $or', (g) => ({ filters: { owner: { $or: [{ password: { $startsWith: g } }] } } })],
  ['deep through role.users', (g) => ({ filters: { owner: { role: { users: { password: { $startsWith: g } } } } } })],
  ['reset token', (g) => ({ filters: { owner: { resetPasswordToken: { $startsWith: g } } } })],
  ['confirmation token', (g) => ({ filters: { watchers: { confirmationToken: { $startsWith: g } } } })],
  ['column name', (g) => ({ filters: { owner: { reset_password_token: { $startsWith: g } } } })],
  ['createdBy (admin user) password', (g) => ({ filters: { createdBy: { password: { $startsWith: g } } } })],
  ['populate filters', (g) => ({ populate: { owner: { filters: { password: { $startsWith: g } } } } })],

  ['sort', () => ({ sort: 'owner.password:asc' })],
  ['sort object', () => ({ sort: { owner: { resetPasswordToken: 'desc' } } })],
  ['populate sort', () => ({ populate: { owner: { sort: 'password' } } })],
  ['populate fields', () => ({ populate: { owner: { fields: ['password'] } } })],
  ['populate fields reset token', () => ({ populate: { owner: { fields: ['resetPasswordToken'] } } })],
];

describe('no way to probe a password hash or a private field', () => {
  it('the relation itself is open: filtering on a public attribute of the user works', async () => {
    const r = await get({ filters: { owner: { username: 'victim' } }, fields: ['title'] });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([{ id: 1, attributes: { title: 'first' } }]);
    const pub = await get({ filters: { watchers: { email: { $endsWith: '@example.com' } } }, fields: ['title'] }, 'public');
    expect(pub.status).toBe(200);
  });

  for (const [name, probe] of probes) {
    it(`${name}: 400 Invalid parameter, whatever the guess`, async () => {
      for (const auth of ['token', 'public'] as const) {
        const answers = await Promise.all(guesses.map((g) => get(probe(g), auth)));
        for (const a of answers) {
          expect(a.status).toBe(400);
          expect(a.body.data).toBeNull();
          expect(a.body.error?.name).toBe('ValidationError');
          expect(a.body.error?.message).toMatch(/^Invalid parameter /);
        }
        // a right and a wrong guess get the same answer: nothing to learn
        expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
      }
    });
  }

  it('a populate path the caller may not read is left out (as v4 does): the same answer whatever the guess', async () => {
    const probe = (g: string) => ({ populate: { owner: { populate: { role: { populate: { users: { filters: { password: { $startsWith: g } } } } } } } } });
    const answers = await Promise.all(guesses.map((g) => get(probe(g))));
    expect(answers.every((a) => a.status === 200 || a.status === 400)).toBe(true);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(JSON.stringify(answers[0].body)).not.toContain(HASH);
  });

  it('_q never searches private or password attributes', async () => {
    // the user model is not searched through notes at all; on notes, only their own visible text is
    for (const q of [HASH.slice(0, 10), RESET]) {
      const r = await get({ _q: q });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
    }
  });

  it('populated users never carry private fields', async () => {
    const r = await get({ populate: { owner: true, watchers: true } });
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    expect(text).toContain('victim');
    for (const secret of [HASH, RESET, 'confirm-456', 'password', 'resetPasswordToken']) expect(text).not.toContain(secret);
  });
});
