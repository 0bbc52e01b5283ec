// strapi-plugin-publisher 1.5.9 beyond its golden (test/compat/plugins-publisher.golden.test.ts), on
// test/plugin-projects/content-plugins-app: its table as v4 creates it, its cron job, its config validator, and an
// action naming a content type that does not exist. Its cron task does not await the toggle of each action, so on
// Strapi 4.26.2 such an action ends the process with an unhandled rejection at the next tick, and again at every
// start while the action is stored; Tessera logs the error and keeps serving.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runTessera, SERVING } from '../../helpers/cli-process';
import { GOLDEN_DIR } from '../../helpers/golden';
import { PLUGIN_PROJECTS_DIR } from '../../helpers/plugin-projects-global';
import { copyPluginProject, startPluginProject } from './plugin-project-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PLUGINS_CONFIG = fs.readFileSync(path.join(PLUGIN_PROJECTS_DIR, 'content-plugins-app/config/plugins.js'), 'utf8');

it('creates its table as Strapi 4.26.2 does (strapi_database_schema as v4 wrote it) and schedules its job as configured', async () => {
  const app = await startPluginProject('content-plugins-app');
  try {
    const v4 = JSON.parse(fs.readFileSync(path.join(GOLDEN_DIR, 'plugins-publisher.db-schema.json'), 'utf8')) as { tables: Array<{ name: string }> };
    const [row] = await app.app.db.all<{ schema: string }>('SELECT schema FROM strapi_database_schema');
    const tables = (JSON.parse(row.schema) as { tables: Array<{ name: string }> }).tables;
    for (const table of v4.tables) expect(tables.find((t) => t.name === table.name)).toEqual(table);
    // strapi.cron.add({ publisherCronTask: { task, options: { rule } } }) in the plugin's bootstrap
    const jobs = (app.app.strapi as unknown as { cron: { jobs: Array<{ name: string | null; options: unknown }> } }).cron.jobs;
    expect(jobs.filter((j) => j.name === 'publisherCronTask').map((j) => j.options)).toEqual([{ rule: '*/1 * * * * *' }]);
  } finally {
    await app.stop();
  }
});

it('refuses to start on a setting its validator rejects, naming the plugin and the setting', async () => {
  // the validator is async (yup): Strapi 4.26.2 does not await it and exits with yup's unhandled rejection
  const invalid = PLUGINS_CONFIG.replace("actions: { syncFrequency: '*/1 * * * * *' },", "actions: { syncFrequency: '*/1 * * * * *' }, components: { dateTimePicker: { step: 'abc' } },");
  expect(invalid).not.toBe(PLUGINS_CONFIG);
  const outcome = await startPluginProject('content-plugins-app', { edit: { 'config/plugins.js': invalid } }).then(
    async (app) => {
      await app.stop();
      return 'started';
    },
    (err: Error) => err.message,
  );
  expect(outcome).toMatch(/publisher[\s\S]*components\.dateTimePicker\.step must be a `number` type/);
});

it('keeps serving when an action names a content type that does not exist, and logs why', { timeout: 90_000 }, async () => {
  const dir = copyPluginProject('content-plugins-app');
  const run = runTessera(['start', dir, '--host', '127.0.0.1', '--port', '0']);
  try {
    const url = await Promise.race([
      run.waitFor(SERVING, 60_000).then((m) => m[1]),
      run.exited.then((code) => Promise.reject(new Error(`tessera start exited (${code}):\n${run.output()}`))),
    ]);
    const token = fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const data = { executeAt: '2020-01-01T00:00:00.000Z', mode: 'publish', entityId: 1, entitySlug: 'api::nope.nope' };
    const created = await fetch(`${url}/api/publisher/actions`, { method: 'POST', headers, body: JSON.stringify({ data }) });
    expect(created.status).toBe(200);
    await sleep(2500); // two ticks of the every-second rule
    expect(run.child.exitCode).toBeNull();
    const list = await fetch(`${url}/api/publisher/actions`, { headers });
    expect(list.status).toBe(200);
    // the plugin's toggle throws before it removes the action: it stays, and fails again at every tick
    const body = (await list.json()) as { data: Array<{ attributes: { entitySlug: string } }> };
    expect(body.data.map((a) => a.attributes.entitySlug)).toEqual(['api::nope.nope']);
    expect(run.output()).toMatch(/api::nope\.nope/);
  } finally {
    run.child.kill('SIGTERM');
    await run.exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
