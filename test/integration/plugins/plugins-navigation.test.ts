// strapi-plugin-navigation 2.5.6 beyond its golden (test/compat/plugins-navigation.golden.test.ts), on
// test/plugin-projects/content-plugins-app: what its bootstrap stores (its configuration in the core store,
// config/plugins.js over its defaults, as Strapi 4.26.2 stored it), the tables v4 creates for its content types,
// and the lifecycles its content types declare (every hook forwards to the listeners project code registers
// through its `common` service), with the event v4 hands them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningApp } from '../../helpers/fixture-app';
import { GOLDEN_DIR } from '../../helpers/golden';
import { startPluginProject } from './plugin-project-app';

type Json = any;

let running: RunningApp;
beforeAll(async () => {
  running = await startPluginProject('content-plugins-app');
});
afterAll(async () => {
  await running?.stop();
});

const strapi = () => running.app.strapi as Json;

it('stores its configuration in the core store as Strapi 4.26.2 did', async () => {
  const rows = await running.app.db.all<{ value: string; type: string }>("SELECT value, type FROM strapi_core_store_settings WHERE key = 'plugin_navigation_config'");
  expect(rows.map((r) => r.type)).toEqual(['object']);
  expect(JSON.parse(rows[0].value)).toEqual({
    additionalFields: ['audience', { name: 'icon', type: 'string', label: 'Icon', enabled: true }],
    contentTypes: ['api::article.article', 'api::page.page'],
    contentTypesNameFields: { 'api::article.article': ['title'], 'api::page.page': ['title'] },
    contentTypesPopulate: { 'api::article.article': ['categories'] },
    allowedLevels: 3,
    gql: { navigationItemRelated: ['Article', 'Page'] },
    i18nEnabled: false,
    pruneObsoleteI18nNavigations: false,
    pathDefaultFields: {},
    cascadeMenuAttached: true,
    isCacheEnabled: false,
    preferCustomContentTypes: false,
  });
});

it('creates the tables Strapi 4.26.2 creates for its content types (strapi_database_schema as v4 wrote it)', async () => {
  const v4 = JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, 'plugins-navigation.db-schema.json'), 'utf8')) as { tables: Array<{ name: string }> };
  const [row] = await running.app.db.all<{ schema: string }>('SELECT schema FROM strapi_database_schema');
  const tables = (JSON.parse(row.schema) as { tables: Array<{ name: string }> }).tables;
  for (const table of v4.tables) expect(tables.find((t) => t.name === table.name)).toEqual(table);
});

it('runs the listeners registered through its common service from its content types\' lifecycles, as v4', async () => {
  const seen: Json[] = [];
  const common = strapi().plugin('navigation').service('common');
  common.registerLifecycleHook({
    contentTypeName: 'navigation-item', hookName: 'afterCreate',
    callback: (e: Json) => seen.push({ action: e.action, uid: e.model?.uid, title: e.result?.title, keys: Object.keys(e).sort(), params: Object.keys(e.params).sort() }),
  });
  common.registerLifecycleHook({ contentTypeName: 'navigation', hookName: 'beforeFindMany', callback: (e: Json) => seen.push({ action: e.action, populate: e.params.populate }) });
  await strapi().query('plugin::navigation.navigation-item').create({ data: { title: 'Probe item', type: 'EXTERNAL', externalPath: 'https://example.com/x', uiRouterKey: 'probe' } });
  await strapi().query('plugin::navigation.navigation').findMany({ populate: ['localizations'] });
  // what Strapi 4.26.2 handed the same listeners
  expect(seen).toEqual([
    { action: 'afterCreate', uid: 'plugin::navigation.navigation-item', title: 'Probe item', keys: ['action', 'model', 'params', 'result', 'state'], params: ['data'] },
    { action: 'beforeFindMany', populate: ['localizations'] },
  ]);
});

it('reads a where key naming a column as v4\'s query engine does (the plugin counts published single types by `published_at`)', async () => {
  const articles = strapi().query('api::article.article');
  const byColumn = await articles.count({ where: { published_at: { $notNull: true } } });
  expect(byColumn).toBe(await articles.count({ where: { publishedAt: { $notNull: true } } }));
  expect(byColumn).toBeLessThan(await articles.count({}));
});
