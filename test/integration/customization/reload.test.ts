// strapi.reload() under `tessera develop` (the CLI as a user runs it): the child asks the develop process for
// a restart, which comes back serving. Under `tessera start` it only warns (strapi-object.test.ts).
import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { copyProject } from '../../helpers/fixture-app';
import { runTessera, SERVING, type CliRun } from '../../helpers/cli-process';
import { CUSTOM_APP, NO_CRON } from './custom-app';

let app: CliRun | undefined;
let dir: string | undefined;
afterAll(async () => {
  if (app && app.child.exitCode === null) {
    app.child.kill('SIGTERM');
    await Promise.race([app.exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (app.child.exitCode === null) app.child.kill('SIGKILL');
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('restarts the server when project code calls strapi.reload() under `tessera develop`', async () => {
  dir = copyProject(CUSTOM_APP, { 'config/env/development/server.js': NO_CRON['config/env/test/server.js'] });
  app = runTessera(['develop', dir, '--host', '127.0.0.1', '--port', '0']);
  const [, url] = await app.waitFor(SERVING, 30_000);
  const before = app.output().length;
  const res = await fetch(`${url}/api/probe/reload`, { method: 'POST' });
  expect(await res.json()).toEqual({ data: { reloading: true } });
  await app.waitFor(/strapi\.reload\(\) called, restarting/);
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => { clearInterval(iv); reject(new Error(`no restart:\n${app!.output().slice(before)}`)); }, 30_000);
    const iv = setInterval(() => {
      if (SERVING.test(app!.output().slice(before))) { clearTimeout(t); clearInterval(iv); resolve(); }
    }, 100);
  });
}, 90_000);
