// `tessera token create --type custom --permissions ...` on a copy of the fixture app: the printed token
// works against the app for exactly those actions; unknown actions are refused as v4 refuses them.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { createTessera } from '../../../src/core/tessera';
import { copyFixtureApp } from '../../helpers/fixture-app';

let dir: string;
beforeAll(() => {
  dir = copyFixtureApp(true);
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((c) => { out += String(c); return true; });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((c) => { err += String(c); return true; });
  try {
    return { code: await main(argv), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('tessera token create --type custom', () => {
  it('prints a token that grants exactly the listed actions', async () => {
    const r = await run(['token', 'create', '--name', 'cli-custom', '--type', 'custom', '--permissions', 'api::category.category.find,api::category.category.findOne', '--dir', dir]);
    expect(r.code).toBe(0);
    const token = r.out.trim().split('\n').pop()!;
    expect(token).toMatch(/^[0-9a-f]{256}$/);
    const app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
    try {
      const get = (url: string) => app.server.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect((await get('/api/categories')).statusCode).toBe(200);
      expect((await get('/api/categories/1')).statusCode).toBe(200);
      expect((await get('/api/articles')).statusCode).toBe(403);
    } finally {
      await app.close();
    }
    const list = await run(['token', 'list', '--dir', dir]);
    expect(list.out).toMatch(/cli-custom\tcustom/);
  });

  it('refuses unknown actions and a custom token without permissions', async () => {
    const bad = await run(['token', 'create', '--name', 'cli-bad', '--type', 'custom', '--permissions', 'api::nope.nope.find', '--dir', dir]);
    expect(bad).toMatchObject({ code: 1, err: 'tessera: Unknown permissions provided: api::nope.nope.find\n' });
    expect((await run(['token', 'create', '--name', 'cli-none', '--type', 'custom', '--dir', dir])).code).toBe(2);
  });
});
