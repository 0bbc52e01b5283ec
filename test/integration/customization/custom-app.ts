// The customization test project (test/fixtures/custom-app): creator fields, strapi.requestContext, cron and
// the strapi object. Started on a private copy with an empty database, as real Strapi was for its recording.
import path from 'node:path';
import { expect } from 'vitest';
import { startProjectCopy, type RunningApp } from '../../helpers/fixture-app';

export const CUSTOM_APP = path.resolve(__dirname, '../../fixtures/custom-app');

/** config/env/test/server.js of a copy (tests run with NODE_ENV=test): cron off, so no task writes meanwhile */
export const NO_CRON = { 'config/env/test/server.js': 'module.exports = { cron: { enabled: false } };\n' };

/** `edit`: files of the copy to write (path relative to the project -> content) */
export function startCustomApp(edit: Record<string, string> = {}): Promise<RunningApp> {
  return startProjectCopy(CUSTOM_APP, edit);
}

/** a request with an optional JSON body; the parsed answer and its status */
export async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** polls `probe` every 100 ms until it returns a truthy value; fails after `ms` */
export async function eventually<T>(probe: () => Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) expect.fail(`not within ${ms} ms: ${what}`);
    await sleep(100);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
