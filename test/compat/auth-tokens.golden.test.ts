// API token types side by side: read-only, custom (with its permission list), expired and expiring tokens
// with known keys, written into the fixture database as v4 stores them (test/helpers/token-types-seed.ts;
// the same rows were in real Strapi's database when test/golden/auth-tokens.golden.jsonl was recorded).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../src/core/tessera';
import { copyFixtureApp } from '../helpers/fixture-app';
import { goldenProblems } from '../helpers/golden';
import { seedTokenTypes } from '../helpers/token-types-seed';

let app: Tessera;
let dir: string;
let url: string;
beforeAll(async () => {
  dir = copyFixtureApp(true);
  seedTokenTypes(path.join(dir, '.tmp/data.db'));
  app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('answers every token type exactly as Strapi 4.26.2 did', async () => {
  const token = fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim();
  expect(await goldenProblems('auth-tokens', url, token)).toEqual([]);
});
