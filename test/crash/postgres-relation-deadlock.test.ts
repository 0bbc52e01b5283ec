// Found by the crash rounds (crash.test.ts) on PostgreSQL: concurrent updates of DIFFERENT articles that remove
// links to the same categories answered 500 "deadlock detected". Fixed: writes that change existing link rows take
// turns per link table (write-relations.ts lockLinkTables). LinkTable.unlink (src/storage/write-relations.ts)
// renumbers the inverse order column of every link of the removed targets (renumberInverse: one UPDATE ... FROM
// (ROW_NUMBER() ...) over other entries' link rows too) without the per-target transaction lock that
// nextInverseOrders takes for the same column; two such UPDATEs over overlapping rows lock them in different
// orders (PostgreSQL's log: both processes in that UPDATE on articles_categories_links, each waiting for the
// other's transaction). Nothing was lost (one transaction is aborted whole), but the write was refused. Deletes,
// whose cascade removes link rows of the same lists, race the updates too. Runs on PostgreSQL only (SQLite has one
// writer).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../helpers/fixture-app';

let app: RunningApp;
beforeAll(async () => {
  app = await startFixtureApp(true);
});
afterAll(async () => {
  await app?.stop();
});

async function put(id: number, data: unknown): Promise<number> {
  const res = await fetch(`${app.url}/api/articles/${id}`, {
    method: 'PUT', headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ data }),
  });
  await res.arrayBuffer();
  return res.status;
}

it('updates of different articles that unlink the same categories at once all succeed (no deadlock)', { timeout: 60_000 }, async () => {
  const ids: number[] = [];
  for (let i = 0; i < 16; i++) {
    const res = await fetch(`${app.url}/api/articles`, {
      method: 'POST', headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: `deadlock ${i}`, slug: `deadlock-${i}`, categories: [1, 2, 3, 4, 5, 6] } }),
    });
    ids.push(((await res.json()) as { data: { id: number } }).data.id);
  }
  // each article drops a different pair of categories, then takes them back: every update renumbers two
  // categories' inverse orders and appends to the others'
  const statuses = await Promise.all(ids.map(async (id, i) => {
    const drop = [1 + (i % 6), 1 + ((i + 3) % 6)];
    const set = await put(id, { categories: { set: [1, 2, 3, 4, 5, 6].filter((c) => !drop.includes(c)) } });
    return [set, await put(id, { categories: { connect: drop } })];
  }));
  // seen: about a dozen of these 32 answer 500 (PostgreSQL's "deadlock detected" in the server's log)
  expect(statuses.flat().filter((s) => s !== 200)).toEqual([]);
});
