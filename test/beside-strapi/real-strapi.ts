// Real Strapi 4.26.2 (installed in this folder by test/helpers/beside-strapi-global.ts) serving a project folder
// in a child process, as `strapi start` runs it: no admin build (the fixture app's config/admin.js sets
// serveAdminPanel: false). The project borrows this folder's node_modules through a symlink, which removing the
// project folder removes (fs.rmSync does not follow it).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../bench/lib/servers';
import { BESIDE_STRAPI_DIR } from '../helpers/beside-strapi-global';

const STRAPI_BIN = path.join(BESIDE_STRAPI_DIR, 'node_modules/@strapi/strapi/bin/strapi.js');

export interface RealStrapi {
  url: string;
  /** what it printed so far (its log: errors with their SQL) */
  output(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startRealStrapi(projectDir: string, timeoutMs = 90_000): Promise<RealStrapi> {
  if (!fs.existsSync(STRAPI_BIN)) throw new Error(`real Strapi is not installed in ${BESIDE_STRAPI_DIR} (test/helpers/beside-strapi-global.ts installs it)`);
  fs.symlinkSync(path.join(BESIDE_STRAPI_DIR, 'node_modules'), path.join(projectDir, 'node_modules'), 'dir');
  const port = await freePort();
  const child = spawn(process.execPath, [STRAPI_BIN, 'start'], {
    cwd: projectDir,
    env: {
      ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port), BROWSER: 'false',
      STRAPI_TELEMETRY_DISABLED: 'true', STRAPI_DISABLE_UPDATE_NOTIFICATION: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`real Strapi exited (${child.exitCode}) while starting:\n${out.slice(-3000)}`);
    const health = await fetch(`${url}/_health`).then((r) => r.status, () => 0);
    if (health === 204) return { url, output: () => out, stop };
    await sleep(250);
  }
  await stop();
  throw new Error(`real Strapi did not answer /_health within ${timeoutMs} ms:\n${out.slice(-3000)}`);
}
