// Webhooks as Strapi 4.26.2 sends them: the scenario of test/golden/webhooks.requests.json replayed on
// Tessera (fixture data, the scenario's strapi_webhooks rows and defaultHeaders), and every POST the
// receiver got compared with what real Strapi posted (test/golden/webhooks.golden.json, recorded by
// test/golden/webhooks.scenario.mjs).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../src/core/tessera';
import { copyFixtureApp } from '../helpers/fixture-app';

interface Receiver { origin: string; posts: unknown[]; close(): Promise<void> }
interface Scenario {
  WEBHOOK_ROWS: Array<{ name: string; url: string; headers: object; events: string[]; enabled: boolean }>;
  DEFAULT_HEADERS: Record<string, string>;
  startReceiver(port?: number): Promise<Receiver>;
  runScenario(o: { base: string; token: string; posts: unknown[]; quietMs?: number }): Promise<unknown[]>;
  normalise(results: unknown[]): unknown[];
}

const GOLDEN = path.resolve(__dirname, '../golden');
let scenario: Scenario;
let receiver: Receiver;
let app: Tessera;
let dir: string;

beforeAll(async () => {
  const specifier = path.join(GOLDEN, 'webhooks.scenario.mjs');
  scenario = (await import(specifier)) as Scenario;
  receiver = await scenario.startReceiver(0);
  dir = copyFixtureApp(true);
  const server = path.join(dir, 'config/server.js');
  fs.writeFileSync(server, fs.readFileSync(server, 'utf8').replace('webhooks: {', `webhooks: {\n    defaultHeaders: ${JSON.stringify(scenario.DEFAULT_HEADERS)},`));
  const db = new Database(path.join(dir, '.tmp/data.db'));
  const insert = db.prepare('INSERT INTO strapi_webhooks (name, url, headers, events, enabled) VALUES (?, ?, ?, ?, ?)');
  for (const w of scenario.WEBHOOK_ROWS) insert.run(w.name, w.url.replace('${receiver}', receiver.origin), JSON.stringify(w.headers), JSON.stringify(w.events), w.enabled ? 1 : 0);
  db.close();
  app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
}, 30_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('posts what Strapi 4.26.2 posted, request by request', async () => {
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const token = fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim();
  const results = await scenario.runScenario({ base: url, token, posts: receiver.posts, quietMs: 150 });
  const golden = JSON.parse(fs.readFileSync(path.join(GOLDEN, 'webhooks.golden.json'), 'utf8')) as unknown[];
  expect(scenario.normalise(results)).toEqual(golden);
}, 60_000);
