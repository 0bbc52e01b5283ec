// `rest.jsonReads: false` (config/api.js) answers every read through the JavaScript path, with the same
// responses: the escape hatch, and the reference the benchmark compares the JSON target with.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../../src/core/tessera';
import { copyFixtureApp } from '../../helpers/fixture-app';

const apps: Record<'json' | 'js', { app: Tessera; dir: string }> = {} as never;

beforeAll(async () => {
  for (const name of ['json', 'js'] as const) {
    const dir = copyFixtureApp(true);
    if (name === 'js') fs.writeFileSync(path.join(dir, 'config/api.js'), 'module.exports = { rest: { defaultLimit: 25, maxLimit: 100, withCount: true, jsonReads: false } };');
    apps[name] = { app: await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test', TESSERA_RESPONSE_CACHE: 'off' } }), dir };
  }
});
afterAll(async () => {
  for (const { app, dir } of Object.values(apps)) {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function read(name: 'json' | 'js', url: string): Promise<{ body: unknown; statements: number }> {
  const { app } = apps[name];
  await app.server.inject({ method: 'GET', url }); // warm: permissions, the total
  const before = app.db.statementCount;
  const res = await app.server.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return { body: JSON.parse(res.body), statements: app.db.statementCount - before };
}

it.each([
  '/api/articles?populate=*', '/api/articles/2?populate=*', '/api/articles?populate[author][populate]=avatar&populate[blocks][populate]=*&sort=title:desc',
  '/api/authors?populate[articles][fields][0]=title&populate[articles][sort]=views:desc',
])('%s: the same response, through one statement or through one per populated attribute', async (url) => {
  const json = await read('json', url);
  const js = await read('js', url);
  expect(json.body).toStrictEqual(js.body);
  expect(json.statements).toBeLessThan(js.statements);
});
