// A small v4 project written into a temp folder for i18n tests beyond the fixture app: a localized
// collection type `doc` (draft & publish) whose shared attributes include a component, media and an
// attribute without any i18n option (shared, as in v4), a shared unique attribute (to make a sibling
// update fail), and a localized single type `setting`. Its bootstrap adds the `fr` and `de` locales and
// opens everything to the Public role, as the fixture app does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTessera, type Tessera } from '../../../src/core/tessera';

const L = { i18n: { localized: true } };
const S = { i18n: { localized: false } };

const DOC = {
  kind: 'collectionType',
  collectionName: 'docs',
  info: { singularName: 'doc', pluralName: 'docs', displayName: 'Doc' },
  options: { draftAndPublish: true },
  pluginOptions: L,
  attributes: {
    title: { type: 'string', required: true, pluginOptions: L },
    secret: { type: 'string', private: true, pluginOptions: S },
    rank: { type: 'integer', pluginOptions: S },
    note: { type: 'string' },
    ref: { type: 'string', unique: true, pluginOptions: S },
    meta: { type: 'component', component: 'shared.meta', pluginOptions: S },
    cover: { type: 'media', multiple: false, pluginOptions: S },
    parent: { type: 'relation', relation: 'manyToOne', target: 'api::doc.doc' },
  },
};

const SETTING = {
  kind: 'singleType',
  collectionName: 'settings',
  info: { singularName: 'setting', pluralName: 'settings', displayName: 'Setting' },
  options: { draftAndPublish: false },
  pluginOptions: L,
  attributes: {
    title: { type: 'string', pluginOptions: L },
    footer: { type: 'string', pluginOptions: S },
  },
};

const META = { collectionName: 'components_shared_metas', info: { displayName: 'Meta' }, attributes: { label: { type: 'string' } } };

const BOOTSTRAP = `'use strict';
const ACTIONS = [
  ...['find', 'findOne', 'create', 'update', 'delete', 'createLocalization'].map((a) => 'api::doc.doc.' + a),
  ...['find', 'update', 'delete', 'createLocalization'].map((a) => 'api::setting.setting.' + a),
  'plugin::i18n.locales.listLocales',
];
module.exports = {
  register() {},
  async bootstrap({ strapi }) {
    const role = await strapi.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    const permissions = strapi.query('plugin::users-permissions.permission');
    const have = new Set((await permissions.findMany({ where: { role: role.id } })).map((p) => p.action));
    for (const action of ACTIONS) if (!have.has(action)) await permissions.create({ data: { action, role: role.id } });
    const locales = strapi.plugin('i18n').service('locales');
    for (const [code, name] of [['fr', 'French (fr)'], ['de', 'German (de)']]) {
      if (!(await locales.findByCode(code))) await locales.create({ code, name });
    }
  },
};
`;

function write(dir: string, file: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content);
}

function api(dir: string, name: string, schema: object): void {
  write(dir, `src/api/${name}/content-types/${name}/schema.json`, JSON.stringify(schema, null, 2));
  for (const [kind, factory] of [['routes', 'createCoreRouter'], ['controllers', 'createCoreController'], ['services', 'createCoreService']]) {
    write(dir, `src/api/${name}/${kind}/${name}.js`, `'use strict';\nmodule.exports = require('@strapi/strapi').factories.${factory}('api::${name}.${name}');\n`);
  }
}

export interface I18nApp {
  app: Tessera;
  url: string;
  dir: string;
  /** JSON request as the Public role */
  call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

export async function startI18nProject(opts: { apiConfig?: object } = {}): Promise<I18nApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-i18n-'));
  write(dir, 'package.json', JSON.stringify({ name: 'i18n-test', private: true, version: '0.1.0' }));
  write(dir, 'config/database.js', `const path = require('path');\nmodule.exports = { connection: { client: 'sqlite', connection: { filename: path.join(__dirname, '..', '.tmp/data.db') }, useNullAsDefault: true } };\n`);
  write(dir, 'config/api.js', `module.exports = ${JSON.stringify({ rest: { defaultLimit: 25, maxLimit: 100 }, ...opts.apiConfig })};\n`);
  write(dir, 'src/index.js', BOOTSTRAP);
  write(dir, 'src/components/shared/meta.json', JSON.stringify(META));
  api(dir, 'doc', DOC);
  api(dir, 'setting', SETTING);
  const app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app, url, dir,
    async call(method, u, body) {
      const res = await fetch(url + u, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async stop() {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
