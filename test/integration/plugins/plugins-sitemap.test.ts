// strapi-plugin-sitemap 3.2.1 beyond its golden (test/compat/plugins-sitemap.golden.test.ts), on
// test/plugin-projects/sitemap-app: what start-up says and creates (the users-permissions warning about the
// attribute its register adds to the user type, its tables, the column on every other table, its daily cron job),
// and a second start on the same database, as Strapi 4.26.2 did it: the Public permissions its bootstrap grants
// are not granted twice, and the lifecycles it subscribes from the stored settings rebuild the sitemap.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../../src/core/tessera';
import type { RunningApp } from '../../helpers/fixture-app';
import { GOLDEN_DIR } from '../../helpers/golden';
import { copyPluginProject, startPluginProject, type LogLine } from './plugin-project-app';

type Table = { name: string; columns: Array<{ name: string }> };
const schemaTables = async (app: Tessera): Promise<Table[]> => {
  const [row] = await app.db.all<{ schema: string }>('SELECT schema FROM strapi_database_schema');
  return (JSON.parse(row.schema) as { tables: Table[] }).tables;
};

describe('start-up', () => {
  const lines: LogLine[] = [];
  let running: RunningApp;
  beforeAll(async () => {
    running = await startPluginProject('sitemap-app', { logLines: lines });
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('warns as v4 that registration accepts the attribute the plugin added to users', () => {
    const warnings = lines.filter((l) => l.level === 40).map((l) => l.msg);
    expect(warnings).toContain('Users-permissions registration has defaulted to accepting the following additional user fields during registration: sitemap_exclude');
  });

  it('creates its tables and the sitemap_exclude columns as Strapi 4.26.2 does (strapi_database_schema as v4 wrote it)', async () => {
    const v4 = JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, 'plugins-sitemap.db-schema.json'), 'utf8')) as {
      tables: Table[];
      sitemapExclude: { tables: string[]; column: { name: string } };
    };
    const tables = await schemaTables(running.app);
    for (const table of v4.tables) expect(tables.find((t) => t.name === table.name)).toEqual(table);
    const withColumn = tables.filter((t) => t.columns.some((c) => c.name === 'sitemap_exclude'));
    expect(withColumn.map((t) => t.name).sort()).toEqual(v4.sitemapExclude.tables);
    for (const t of withColumn) expect(t.columns.find((c) => c.name === 'sitemap_exclude')).toEqual(v4.sitemapExclude.column);
  });

  it('schedules its daily sitemap job (cron `0 0 0 * * *` by default)', () => {
    const jobs = (running.app.strapi as unknown as { cron: { jobs: Array<{ name: string | null; options: unknown }> } }).cron.jobs;
    expect(jobs.filter((j) => j.name === 'generateSitemap').map((j) => j.options)).toEqual([{ rule: '0 0 0 * * *' }]);
  });
});

describe('a second start on the same database', () => {
  let dir: string;
  let app: Tessera | undefined;
  const open = async (): Promise<string> => {
    app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
    return app.listen({ host: '127.0.0.1', port: 0 });
  };
  beforeAll(() => {
    dir = copyPluginProject('sitemap-app');
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('grants the Public permissions once, and the stored settings keep the sitemap rebuilt after writes', async () => {
    await open();
    await app!.close();
    app = undefined;
    const url = await open();
    const granted = await app!.db.all<{ action: string }>(
      "SELECT p.action FROM up_permissions p JOIN up_permissions_role_links l ON l.permission_id = p.id JOIN up_roles r ON r.id = l.role_id WHERE r.type = 'public' AND p.action LIKE 'plugin::sitemap.%' ORDER BY p.action",
    );
    expect(granted.map((p) => p.action)).toEqual([
      'plugin::sitemap.core.getSitemap', 'plugin::sitemap.core.getSitemapXsl', 'plugin::sitemap.core.getSitemapXslCss',
      'plugin::sitemap.core.getSitemapXslJs', 'plugin::sitemap.core.getSitemapXslSortable',
    ]);
    // the project's bootstrap does nothing now (settings stored): the plugin's own bootstrap subscribed them
    const token = fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim();
    const created = await fetch(`${url}/api/categories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name: 'After restart', slug: 'after-restart' } }),
    });
    expect(created.status).toBe(200);
    const sitemap = (await (await fetch(`${url}/api/probe/sitemap`)).json()) as { urls: Array<{ loc: string }>; linkCount: number };
    expect(sitemap.urls.map((u) => u.loc)).toContain('https://example.com/categories/7-after-restart');
    expect(sitemap.linkCount).toBe(67);
  });
});
