// config/api.js `rest.findOnePublicationState: true`: GET /api/:plural/:id honours publicationState as
// find does (v4 leaks drafts there: see test/golden/draft-articles.* for the default, which keeps v4's
// behaviour). On the fixture app's database, with only that line added to its config.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTessera, type Tessera } from '../../../src/core/tessera';
import { copyFixtureApp } from '../../helpers/fixture-app';

let app: Tessera;
let url: string;
let dir: string;
let token: string;

beforeAll(async () => {
  dir = copyFixtureApp(true);
  fs.writeFileSync(path.join(dir, 'config/api.js'), 'module.exports = { rest: { defaultLimit: 25, maxLimit: 100, withCount: true, findOnePublicationState: true } };\n');
  app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
  token = fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim();
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function get(u: string, auth = true): Promise<{ status: number; body: any }> {
  const res = await fetch(url + u, { headers: auth ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: await res.json() };
}

describe('findOne with rest.findOnePublicationState', () => {
  it('a draft is not found under live (the default), for every caller', async () => {
    for (const auth of [true, false]) {
      const r = await get('/api/articles/8', auth);
      expect(r.status).toBe(404);
      expect(r.body.error).toEqual({ status: 404, name: 'NotFoundError', message: 'Not Found', details: {} });
    }
    expect((await get('/api/articles/8?publicationState=live')).status).toBe(404);
  });

  it('publicationState=preview shows it, as find does', async () => {
    const r = await get('/api/articles/8?publicationState=preview&fields[0]=publishedAt');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ id: 8, attributes: { publishedAt: null } });
  });

  it('populated drafts are left out under live, shown under preview', async () => {
    const live = await get('/api/articles/7?fields[0]=title&populate[editorPick][fields][0]=title&populate[related][fields][0]=title');
    expect(live.body.data.attributes.editorPick).toEqual({ data: null });
    const preview = await get('/api/articles/7?publicationState=preview&fields[0]=title&populate[editorPick][fields][0]=title');
    expect(preview.body.data.attributes.editorPick.data.id).toBe(8);
    const author = await get('/api/authors/1?populate[articles][fields][0]=publishedAt');
    expect(author.body.data.attributes.articles.data.every((a: { attributes: { publishedAt: string | null } }) => a.attributes.publishedAt !== null)).toBe(true);
  });

  it('published entries, types without draft & publish and writes are unchanged', async () => {
    expect((await get('/api/articles/9')).status).toBe(200);
    expect((await get('/api/authors/1')).status).toBe(200);
    const res = await fetch(`${url}/api/articles/8?fields[0]=views`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ data: { views: 3 } }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ id: 8, attributes: { views: 3 } });
  });
});
