// strapi-plugin-rest-cache with its memory provider beyond its golden (test/compat/plugins-rest-cache.golden.test.ts):
// what no recorded answer shows. Teams keep the plugin when they move; whether Tessera caches or not, it never
// answers stale data: not after a cron task's write, not through an ETag of an older answer, not when reads race a
// write. Real Strapi 4.26.2 with rest-cache 4.2.9 fails the ETag and cron tests (the plugin purges only on the
// REST routes it watches, so a cached answer and its ETag stay for maxAge, an hour here); with the pinned 4.2.6
// it caches nothing at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../../helpers/fixture-app';
import { startPluginProject, type LogLine } from './plugin-project-app';

/** a Public read: the requests rest-cache caches (any Authorization or Cookie header skips the cache) */
async function publicRead(app: RunningApp, url: string, headers: Record<string, string> = {}): Promise<{ status: number; etag: string | null; body: any }> {
  const res = await fetch(app.url + url, { headers });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), body: text ? JSON.parse(text) : null };
}

/** renames an article through its REST route (which rest-cache watches), or through project code (which it does not) */
async function updateTitle(app: RunningApp, id: number, title: string, through: 'rest' | 'project code' = 'rest'): Promise<void> {
  const res = await fetch(through === 'rest' ? `${app.url}/api/articles/${id}` : `${app.url}/api/cache-probe/articles/${id}`, {
    method: through === 'rest' ? 'PUT' : 'POST',
    headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(through === 'rest' ? { data: { title } } : { title }),
  });
  expect(res.status).toBe(200);
}

describe('without cron', () => {
  const logLines: LogLine[] = [];
  let app: RunningApp;
  beforeAll(async () => {
    app = await startPluginProject('rest-cache-app', { logLines });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("runs the plugin's bootstrap, which logs its provider as on v4", () => {
    // Strapi 4.26.2: `info: Using REST Cache plugin with provider "memory"` (the name through chalk.cyan)
    expect(logLines.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^Using REST Cache plugin with provider "(\x1b\[\d+m)?memory(\x1b\[\d+m)?"$/));
  });

  it('never answers 304 to the ETag of an answer a write made stale', async () => {
    const url = '/api/articles/9?fields[0]=title';
    const before = await publicRead(app, url);
    expect(before.status).toBe(200);
    await publicRead(app, url);
    await updateTitle(app, 9, 'etag renamed', 'project code');
    // v4 (4.2.9): this conditional read with the old ETag answered 304 Not Modified (X-Cache: HIT) for an hour
    const after = await publicRead(app, url, { 'if-none-match': before.etag ?? '"no-etag-was-sent"' });
    expect(after.status).toBe(200);
    expect(after.body.data.attributes.title).toBe('etag renamed');
    if (after.etag !== null) {
      // an ETag Tessera sends stands for the answer it came with
      const again = await publicRead(app, url, { 'if-none-match': after.etag });
      if (again.status !== 304) expect(again.body).toEqual(after.body);
    }
  });

  it('answers the last write after reads raced it', async () => {
    const url = '/api/articles/7?fields[0]=title';
    for (let round = 0; round < 8; round++) {
      const title = `race ${round}`;
      await Promise.all([...Array.from({ length: 6 }, () => publicRead(app, url)), updateTitle(app, 7, title), ...Array.from({ length: 6 }, () => publicRead(app, url))]);
      expect((await publicRead(app, url)).body.data.attributes.title).toBe(title);
    }
  });
});

describe('with a cron task writing', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startPluginProject('rest-cache-app', { env: { REST_CACHE_CRON: 'true' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("answers what the project's cron task wrote (v4 served the cached answer for maxAge)", async () => {
    const url = '/api/articles/1?fields[0]=title';
    const first = (await publicRead(app, url)).body.data.attributes.title;
    await publicRead(app, url);
    // the task renames article 1 every second through strapi.entityService
    const deadline = Date.now() + 6000;
    let title = first;
    while (title === first && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      title = (await publicRead(app, url)).body.data.attributes.title;
    }
    expect(title).not.toBe(first);
    expect(title).toMatch(/^cron \d+$/);
  });
});
