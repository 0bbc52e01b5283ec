// Another process holding SQLite's write lock (real Strapi beside Tessera, another worker, a script): Tessera's
// write waits for it, and goes through once it is released, without stopping the process meanwhile. SQLite's
// own busy handler sleeps in the calling thread: every request, reads included, would wait with the write
// (src/storage/sqlite/sqlite-database.ts beginImmediate). SQLite only: PostgreSQL's waits never block the process.
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { onPostgres } from '../../helpers/test-database';

let app: RunningApp;
let other: BetterSqlite3.Database;

beforeAll(async () => {
  if (onPostgres) return;
  app = await startFixtureApp(true, { env: { TESSERA_RESPONSE_CACHE: 'off' } });
  other = new BetterSqlite3(path.join(app.dir, '.tmp/data.db'));
});
afterAll(async () => {
  other?.close();
  await app?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function create(title: string): Promise<Response> {
  return fetch(`${app.url}/api/articles`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { title } }),
  });
}

describe.skipIf(onPostgres)('a write lock held by another process', () => {
  it('a write waits for it while reads go on, and is done once it is released', async () => {
    other.exec('BEGIN IMMEDIATE');
    let released = 0;
    const write = create('after the lock').then(async (r) => ({ status: r.status, at: Date.now(), body: await r.json() as { data: { id: number } } }));
    try {
      await sleep(150);
      // the process answers while its write waits: each read well before the lock is gone
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        const r = await fetch(`${app.url}/api/articles?pagination[pageSize]=1`, { headers: { authorization: `Bearer ${app.token}` } });
        expect(r.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(1000);
      }
      await sleep(300);
    } finally {
      released = Date.now();
      other.exec('COMMIT');
    }
    const done = await write;
    expect(done.status).toBe(200);
    expect(done.at).toBeGreaterThanOrEqual(released);
    const row = other.prepare('SELECT title FROM articles WHERE id = ?').get(done.body.data.id) as { title: string };
    expect(row.title).toBe('after the lock');
  });

  it('a lock held past the busy timeout (5 s) refuses the write with a 503, and the next write goes through', async () => {
    other.exec('BEGIN IMMEDIATE');
    let status = 0;
    let body: { data: unknown; error?: { status: number; name: string } } = { data: undefined };
    try {
      const r = await create('never written');
      status = r.status;
      body = await r.json() as typeof body;
    } finally {
      other.exec('ROLLBACK');
    }
    expect(status).toBe(503);
    expect(body).toEqual({ data: null, error: { status: 503, name: 'ServiceUnavailableError', message: 'The database is busy: another process holds its write lock. Try again shortly', details: {} } });
    expect(other.prepare('SELECT COUNT(*) AS n FROM articles WHERE title = ?').get('never written')).toEqual({ n: 0 });
    expect((await create('written after all')).status).toBe(200);
  }, 20_000);
});
