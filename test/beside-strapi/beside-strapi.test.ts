// Issue 18 part 4: real Strapi 4.26.2 and Tessera serving one project folder, on one SQLite file, at once (the
// adoption path while editors keep v4's admin). Both take creates, reads and deletes from 8 clients each; each
// entry one side creates is read back through the other, and deletes take entries of the other side first. Then:
// no request failed on either side, every acknowledged create is there with what was sent, every acknowledged
// delete is gone, both sides list the same entries, and the file is whole (integrity_check, foreign keys, no
// orphan rows). Strapi runs with the settings of ./database.js (docs/reliability.md, "Beside a live Strapi");
// without them ~1% of its writes fail with "database is locked" (BESIDE_STRAPI_DEFAULT_CONFIG=1 shows it).
// Sizes: BESIDE_STRAPI_CREATES (per side, default 200; the run was 800).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTessera } from '../../src/core/tessera';
import { runTessera, SERVING, type CliRun } from '../helpers/cli-process';
import { copyFixtureApp } from '../helpers/fixture-app';
import { onPostgres } from '../helpers/test-database';
import { consistencyProblems } from '../helpers/db-consistency';
import { startRealStrapi, type RealStrapi } from './real-strapi';

const CREATES = Number(process.env.BESIDE_STRAPI_CREATES ?? 200);
const CLIENTS = 8;
/** per side: 2 creates (each read back through the other side), 1 list read, 1 delete in every 4 operations */
const OPERATIONS = CREATES * 2;
const WITH_SETTINGS = process.env.BESIDE_STRAPI_DEFAULT_CONFIG !== '1';

type SideName = 'strapi' | 'tessera';
interface Side { name: SideName; url: string }
interface Sent { title: string; views: number; author: number; categories: number[]; seo: { metaTitle: string } }
interface Reply { status: number; body: any }

const LIST_QUERY = 'publicationState=preview&sort=id:asc&fields[0]=title&fields[1]=views'
  + '&populate[author][fields][0]=name&populate[categories][fields][0]=name&populate[seo]=true';

describe.skipIf(onPostgres)(`real Strapi 4.26.2 and Tessera on one SQLite file, ${CREATES} creates per side, ${CLIENTS} clients each`, () => {
  let dir = '';
  let strapi: RealStrapi | undefined;
  let tessera: CliRun | undefined;
  const sides = {} as Record<SideName, Side>;
  let headers: Record<string, string> = {};

  const stopServers = async () => {
    if (tessera && tessera.child.exitCode === null) {
      tessera.child.kill('SIGTERM');
      await tessera.exited;
    }
    await strapi?.stop();
  };

  beforeAll(async () => {
    dir = copyFixtureApp(true);
    if (WITH_SETTINGS) fs.copyFileSync(path.join(__dirname, 'database.js'), path.join(dir, 'config/database.js'));
    headers = { authorization: `Bearer ${fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim()}`, 'content-type': 'application/json' };
    strapi = await startRealStrapi(dir);
    tessera = runTessera(['start', dir, '--host', '127.0.0.1', '--port', '0']);
    const url = await Promise.race([
      tessera.waitFor(SERVING, 60_000).then((m) => m[1]),
      tessera.exited.then((code) => Promise.reject(new Error(`tessera start exited (${code}):\n${tessera!.output()}`))),
    ]);
    sides.strapi = { name: 'strapi', url: strapi.url };
    sides.tessera = { name: 'tessera', url };
  }, 180_000);

  afterAll(async () => {
    try {
      await stopServers();
    } finally {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  async function call(side: Side, method: string, urlPath: string, body?: unknown): Promise<Reply> {
    const res = await fetch(`${side.url}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify({ data: body }) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** every article both sides list (all pages), with the relations the creates set */
  async function listAll(side: Side): Promise<{ data: any[]; total: number }> {
    const data: any[] = [];
    for (let page = 1; ; page++) {
      const r = await call(side, 'GET', `/api/articles?${LIST_QUERY}&pagination[page]=${page}&pagination[pageSize]=100`);
      expect(r.status, `${side.name} list page ${page}`).toBe(200);
      data.push(...r.body.data);
      if (page >= r.body.meta.pagination.pageCount) return { data, total: r.body.meta.pagination.total };
    }
  }

  it('loses no acknowledged write or delete, fails no request on either side, and leaves the file whole', { timeout: 600_000 }, async () => {
    const before = await listAll(sides.tessera);
    const authors = (await call(sides.tessera, 'GET', '/api/authors?pagination[pageSize]=100')).body.data.map((a: { id: number }) => a.id);
    const categories = (await call(sides.tessera, 'GET', '/api/categories?pagination[pageSize]=100')).body.data.map((c: { id: number }) => c.id);
    expect(authors.length).toBeGreaterThan(2);
    expect(categories.length).toBeGreaterThan(2);

    const failures: string[] = [];
    const requests: Record<SideName, number> = { strapi: 0, tessera: 0 };
    const sent = new Map<number, Sent>();
    /** created entries, read back through the other side, that a delete may take: by the side that created them */
    const deletable: Record<SideName, number[]> = { strapi: [], tessera: [] };
    const deleted = new Set<number>();
    let creating = 0;

    const expectStatus = async (side: Side, what: string, reply: Promise<Reply>, status = 200): Promise<Reply | undefined> => {
      requests[side.name]++;
      const r = await reply.catch((err: Error) => ({ status: 0, body: err.message }));
      if (r.status === status) return r;
      failures.push(`${side.name} ${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      return undefined;
    };

    const create = async (side: Side, other: Side, n: number) => {
      const k = creating++;
      const data: Sent = {
        title: `${side.name} ${n}`, views: n,
        author: authors[k % authors.length], categories: [categories[k % categories.length], categories[(k + 1) % categories.length]].sort((a, b) => a - b),
        seo: { metaTitle: `seo of ${side.name} ${n}` },
      };
      const r = await expectStatus(side, `create ${n}`, call(side, 'POST', '/api/articles', data));
      if (!r) return;
      const id = r.body.data.id as number;
      sent.set(id, data);
      // read-your-write across processes: the other side sees the commit at once (its caches included)
      const back = await expectStatus(other, `read ${id} created by ${side.name}`, call(other, 'GET', `/api/articles/${id}?populate[0]=author&populate[1]=categories&populate[2]=seo`));
      if (back) {
        const a = back.body.data.attributes;
        if (a.title !== data.title || a.author.data?.id !== data.author || a.seo?.metaTitle !== data.seo.metaTitle) failures.push(`${other.name} read ${id}: ${JSON.stringify(a).slice(0, 300)}`);
      }
      deletable[side.name].push(id);
    };

    const remove = async (side: Side, other: Side) => {
      let id: number | undefined;
      for (const started = Date.now(); id === undefined && Date.now() - started < 30_000;) {
        id = deletable[other.name].shift() ?? deletable[side.name].shift();
        if (id === undefined) await new Promise((r) => setTimeout(r, 5));
      }
      if (id === undefined) return void failures.push(`${side.name}: nothing to delete after 30 s`);
      if (await expectStatus(side, `delete ${id}`, call(side, 'DELETE', `/api/articles/${id}`))) deleted.add(id);
    };

    const list = (side: Side, n: number) =>
      expectStatus(side, `list ${n}`, call(side, 'GET', `/api/articles?publicationState=preview&sort=id:desc&populate[0]=author&populate[1]=seo&pagination[pageSize]=20&pagination[page]=${1 + (n % 3)}`));

    const client = async (side: Side, other: Side, c: number) => {
      for (let n = c; n < OPERATIONS; n += CLIENTS) {
        const kind = n % 4;
        if (kind === 0 || kind === 2) await create(side, other, n);
        else if (kind === 1) await list(side, n);
        else await remove(side, other);
      }
    };

    const started = Date.now();
    await Promise.all([sides.strapi, sides.tessera].flatMap((side) => {
      const other = side === sides.strapi ? sides.tessera : sides.strapi;
      return Array.from({ length: CLIENTS }, (_, c) => client(side, other, c));
    }));
    const ms = Date.now() - started;
    console.log(`beside Strapi: ${JSON.stringify(requests)} requests in ${ms} ms; ${sent.size} creates and ${deleted.size} deletes acknowledged; ${failures.length} failed${WITH_SETTINGS ? '' : ' (Strapi without the settings)'}`);

    // soft: a failing run reports every check at once (without the settings: which requests failed, and what
    // Strapi's half-done writes left in the file)
    expect.soft(failures, strapi!.output().split('\n').filter((l) => /error/i.test(l)).slice(0, 10).join('\n')).toEqual([]);
    expect.soft(sent.size).toBe(2 * CREATES);
    expect.soft(deleted.size).toBe(CREATES);

    // both sides list the same entries, and exactly the expected ones
    const [viaStrapi, viaTessera] = [await listAll(sides.strapi), await listAll(sides.tessera)];
    expect.soft(viaTessera.total).toBe(viaStrapi.total);
    expect.soft(viaTessera.data).toEqual(viaStrapi.data);
    const expected = [...before.data.map((e) => e.id as number), ...[...sent.keys()].filter((id) => !deleted.has(id))].sort((a, b) => a - b);
    expect.soft(viaTessera.data.map((e) => e.id)).toEqual(expected);
    expect.soft(viaTessera.total).toBe(expected.length);
    for (const entry of viaTessera.data.filter((e) => sent.has(e.id))) {
      const data = sent.get(entry.id)!;
      const a = entry.attributes;
      expect.soft({ title: a.title, views: a.views, author: a.author.data?.id, categories: a.categories.data.map((c: { id: number }) => c.id).sort((x: number, y: number) => x - y), seo: a.seo?.metaTitle })
        .toEqual({ title: data.title, views: data.views, author: data.author, categories: data.categories, seo: data.seo.metaTitle });
    }
    for (const id of [...deleted].slice(0, 40)) {
      for (const side of [sides.strapi, sides.tessera]) expect.soft((await call(side, 'GET', `/api/articles/${id}`)).status, `${side.name} GET deleted ${id}`).toBe(404);
    }

    // the file, with both servers stopped: SQLite's checks and v4's layout (no orphan link or component row)
    await stopServers();
    const app = await createTessera({ dir, silent: true, lifecycle: false, env: { ...process.env, NODE_ENV: 'test' } });
    try {
      expect.soft(await consistencyProblems(app)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
