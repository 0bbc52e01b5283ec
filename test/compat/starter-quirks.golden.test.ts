// Two things public v4 starters rely on (issue 21 part 8), on the test project test/fixtures/starter-quirks-app
// with an empty database: a route middleware that assigns `ctx.query` with booleans, numbers, null and a Date
// (v4's koa setter stringifies the object with qs and strapi::query parses it back, so the controller sees
// strings), and components and dynamic-zone items created by a PUT, which get their schema defaults as v4's
// database layer gives every new row. Every answer must equal what Strapi 4.26.2 answered on the same project
// (test/golden/starter-quirks.*).
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import { startProjectCopy, type RunningApp } from '../helpers/fixture-app';

const STARTER_QUIRKS_APP = path.resolve(__dirname, '../fixtures/starter-quirks-app');

let running: RunningApp;
beforeAll(async () => {
  running = await startProjectCopy(STARTER_QUIRKS_APP);
});
afterAll(async () => {
  await running?.stop();
});

it('answers a middleware assigning ctx.query and PUTs creating components exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('starter-quirks', running.url, running.token)).toEqual([]);
});

it('parses an assigned query back with the strapi::query options of config/middlewares.js', async () => {
  const middlewares = `module.exports = ['strapi::errors', { name: 'strapi::query', config: { arrayLimit: 1 } }, 'strapi::body'];\n`;
  const app = await startProjectCopy(STARTER_QUIRKS_APP, { 'config/middlewares.js': middlewares });
  try {
    const res = await fetch(`${app.url}/api/posts-echo`, { headers: { authorization: `Bearer ${app.token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { query: Record<string, unknown> };
    // what Strapi 4.26.2 answered with this configuration: past arrayLimit, qs makes the list an object
    expect(body.query.list).toEqual({ 0: '1', 1: 'x', 2: 'false' });
    expect(body.query.flag).toBe('true');
  } finally {
    await app.stop();
  }
});
