// strapi.query(uid).createMany / updateMany / deleteMany write all their rows at once: multi-row INSERTs
// (bounded rows per statement), each link table (relations, media, component links) once per attribute,
// one UPDATE, one DELETE. The number of SQL statements does not grow with the number of rows, and the
// database ends up exactly as writing the rows one by one leaves it: the same rows, components, links and
// order columns on both sides (compared table by table on two copies of the same database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../../../src/model/types';
import { createQueryEngine, type QueryFn } from '../../../src/query/query-engine';
import type { Populate } from '../../../src/query/types';
import type { Database } from '../../../src/storage/dialect';
import { copyFixtureDb } from '../../helpers/fixture-db';
import { fixtureModel } from '../../helpers/fixture-model';
import { openTestDatabase } from '../../helpers/test-database';
import { startRelationsApp, type RunningRelationsApp } from '../relations/relations-app';

const ARTICLE = 'api::article.article';
const PUBLISHED = new Date('2025-03-04T05:06:07.000Z');

/** an article with every kind of attribute filled: relations both ways, components, a dynamic zone, media */
function article(i: number): Record<string, unknown> {
  return {
    title: `Batch ${i}`, slug: `batch-${i}`, views: i, rating: i / 4, featured: i % 2 === 0, meta: { i }, big: `${9007199254740993n + BigInt(i)}`, publishedAt: PUBLISHED,
    author: 1 + (i % 8), categories: [1 + (i % 6), 1 + ((i + 1) % 6)], related: [2], editorPick: 2,
    seo: { metaTitle: `Seo ${i}`, shareImage: 1 }, links: [{ label: 'a', url: `https://a/${i}` }, { label: 'b', url: `https://b/${i}` }],
    blocks: [{ __component: 'blocks.text', body: `t${i}` }, { __component: 'blocks.quote', text: 'q', by: 'x' }, { __component: 'blocks.gallery', title: 'g', images: [1, 2] }],
    cover: 2, gallery: [1, 3],
  };
}

/** every table's rows, sorted, without what differs between two identical writes: clocks and link-row ids */
async function dump(db: Database, ignore: RegExp = /^(created_at|updated_at)$/): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const tables = [...(await db.introspect()).values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const { name, columns } of tables) {
    const linkTable = /_(links|components)$/.test(name) || name === 'files_related_morphs';
    const cols = [...columns.keys()].filter((c) => !ignore.test(c) && !(linkTable && c === 'id'));
    const rows = await db.all(`SELECT ${cols.map((c) => `"${c}"`).join(', ')} FROM "${name}"`);
    out[name] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

interface Copy {
  db: Database;
  query: QueryFn;
  cleanup(): Promise<void>;
}

async function open(model: Model): Promise<Copy> {
  const tmp = copyFixtureDb();
  const db = await openTestDatabase(tmp.file);
  return {
    db, query: createQueryEngine(db, model),
    async cleanup() {
      try {
        await db.close();
      } finally {
        tmp.cleanup();
      }
    },
  };
}

async function statements(db: Database, fn: () => Promise<unknown>): Promise<number> {
  const before = db.statementCount;
  await fn();
  return db.statementCount - before;
}

describe('fixture app articles', () => {
  let one: Copy; // rows written one by one
  let many: Copy; // the same rows through createMany / updateMany / deleteMany
  beforeAll(async () => {
    one = await open(fixtureModel());
    many = await open(fixtureModel());
  });
  afterAll(async () => {
    await one?.cleanup();
    await many?.cleanup();
  });

  it('createMany: as many statements for 64 articles as for 1 (and few for 1,000), the same database as 65 creates', async () => {
    const data = Array.from({ length: 65 }, (_, i) => article(i));
    for (const d of data) await one.query(ARTICLE).create({ data: d });
    const s1 = await statements(many.db, async () => expect(await many.query(ARTICLE).createMany({ data: data.slice(0, 1) })).toMatchObject({ count: 1 }));
    let result: { count: number; ids: number[] } | undefined;
    const s64 = await statements(many.db, async () => (result = await many.query(ARTICLE).createMany({ data: data.slice(1) })));
    expect(s1).toBeLessThan(40);
    expect(s64).toBe(s1);
    // the ids of the new rows, in the order of `data`
    const first = (await many.query(ARTICLE).findOne({ where: { slug: 'batch-1' } }))!.id;
    expect(result).toEqual({ count: 64, ids: Array.from({ length: 64 }, (_, i) => first + i) });
    expect(await dump(many.db)).toEqual(await dump(one.db));
  });

  it('updateMany: two statements for 1 article or for 65, the same database as updating them one by one', async () => {
    const where = { slug: { $startsWith: 'batch-' } };
    const ids = (await one.query(ARTICLE).findMany({ where, select: [] })).map((e) => e.id);
    for (const id of ids) await one.query(ARTICLE).update({ where: { id }, data: { views: 7, title: 'Updated' } });
    const s1 = await statements(many.db, () => many.query(ARTICLE).updateMany({ where: { slug: 'batch-0' }, data: { views: 7, title: 'Updated' } }));
    const s65 = await statements(many.db, async () => expect(await many.query(ARTICLE).updateMany({ where, data: { views: 7, title: 'Updated' } })).toEqual({ count: 65 }));
    expect(s65).toBe(s1);
    expect(s1).toBe(2);
    expect(await dump(many.db)).toEqual(await dump(one.db));
  });

  it('deleteMany: as many statements for 65 articles as for 1, components and links gone as one by one', async () => {
    const where = { slug: { $startsWith: 'batch-' } };
    const ids = (await one.query(ARTICLE).findMany({ where, select: [] })).map((e) => e.id);
    for (const id of ids) await one.query(ARTICLE).delete({ where: { id } });
    const s1 = await statements(many.db, () => many.query(ARTICLE).deleteMany({ where: { slug: 'batch-0' } }));
    const s64 = await statements(many.db, async () => expect(await many.query(ARTICLE).deleteMany({ where })).toEqual({ count: 64 }));
    expect(s64).toBe(s1);
    const after = await dump(many.db);
    expect(after).toEqual(await dump(one.db));
    expect(after.components_shared_seos.filter((r) => r.includes('Seo '))).toEqual([]);
  });

  it('createMany of 1,000 rows: a bounded number of statements, each within the variable limit', async () => {
    const big = await open(fixtureModel());
    try {
      const s = await statements(big.db, () => big.query(ARTICLE).createMany({ data: Array.from({ length: 1000 }, (_, i) => ({ title: `Many ${i}`, slug: `many-${i}`, views: i, author: 1 + (i % 8), links: [{ label: 'l', url: 'u' }] })) }));
      // 1,000 rows of each table: 256 per statement, the rest in power-of-two statements (3 x 256 + 128 + 64 + 32 + 8)
      expect(s).toBeLessThanOrEqual(4 * 8);
      expect(await big.query(ARTICLE).count({ where: { slug: { $startsWith: 'many-' } } })).toBe(1000);
      const last = await big.query(ARTICLE).findOne({ where: { slug: 'many-999' }, populate: { author: true, links: true } });
      expect(last).toMatchObject({ title: 'Many 999', views: 999, author: { id: 8 }, links: [{ label: 'l', url: 'u' }] });
    } finally {
      await big.cleanup();
    }
  });
});

describe('relations test project: one-to-one both ways, self many-to-many, connect positions, nested components', () => {
  let one: RunningRelationsApp;
  let many: RunningRelationsApp;
  beforeAll(async () => {
    one = await startRelationsApp();
    many = await startRelationsApp();
  });
  afterAll(async () => {
    await one?.stop();
    await many?.stop();
  });

  /** people taking each other's profiles, friends placed with positions, mentors, nested components */
  function people(profiles: number[], base: number): Record<string, unknown>[] {
    return Array.from({ length: 12 }, (_, i) => ({
      name: `p${i}`,
      profile: profiles[i % 3], // later people take a profile from earlier ones
      // base + 1 and base + 2: seeded; base + 3 + i: person i (an earlier one of the same write, from i >= 4)
      friends: i < 2 ? [] : { connect: [{ id: base + 1 }, { id: base + 2, position: { before: base + 1 } }, ...(i >= 4 ? [{ id: base + 1 + i, position: { start: true } }] : [])] },
      mentor: i ? base + 1 : null,
      tags: [1, 2],
      boxes: [{ title: `b${i}`, inner: { note: 'in', tag: 1 }, extras: [{ note: 'x1' }, { note: 'x2', tag: 2 }] }],
      parts: [{ __component: 'thing.inner', note: `part ${i}` }, { __component: 'thing.box', title: 'pb', extras: [{ note: 'px' }] }],
    }));
  }

  async function seed(app: RunningRelationsApp['app']): Promise<{ profiles: number[]; base: number }> {
    await app.query('api::tag.tag').createMany({ data: [{ name: 't1' }, { name: 't2' }] });
    const profiles: number[] = [];
    for (const bio of ['a', 'b', 'c']) profiles.push((await app.query('api::profile.profile').create({ data: { bio } })).id);
    const base = (await app.query('api::person.person').create({ data: { name: 'first' } })).id - 1;
    await app.query('api::person.person').create({ data: { name: 'second', profile: profiles[0] } });
    return { profiles, base };
  }

  const POPULATE: Populate = { profile: true, friends: true, friendOf: true, mentor: true, tags: true, boxes: { populate: { inner: { populate: { tag: true } }, extras: { populate: { tag: true } } } }, parts: { populate: true } };

  /** clocks and components' own ids aside (one component type at several places of one write: numbered in another order) */
  function withoutComponentIds(v: unknown, inComponent = false): unknown {
    if (Array.isArray(v)) return v.map((x) => withoutComponentIds(x, inComponent));
    if (!v || typeof v !== 'object' || v instanceof Date) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if ((k === 'id' && inComponent) || k === 'createdAt' || k === 'updatedAt') continue;
      out[k] = withoutComponentIds(x, inComponent || ['boxes', 'parts', 'inner', 'extras'].includes(k));
    }
    return out;
  }

  it('createMany leaves the entries, links and order columns that 12 creates leave', async () => {
    const a = await seed(one.app);
    const b = await seed(many.app);
    expect(b).toEqual(a);
    for (const d of people(a.profiles, a.base)) await one.app.query('api::person.person').create({ data: d });
    await many.app.query('api::person.person').createMany({ data: people(b.profiles, b.base) });
    const read = (app: RunningRelationsApp['app']) => app.query('api::person.person').findMany({ populate: POPULATE, orderBy: { id: 'asc' } });
    const got = await read(many.app);
    expect(withoutComponentIds(got)).toEqual(withoutComponentIds(await read(one.app)));
    // what the write was meant to do: the last person naming a profile has it, positions applied, components nested
    const p = (name: string) => got.find((e) => e.name === name)!;
    expect(got.filter((e) => (e.profile as { id: number } | null)?.id === b.profiles[0]).map((e) => e.name)).toEqual(['p9']);
    expect((p('p5').friends as Array<{ id: number }>).map((f) => f.id)).toEqual([b.base + 6, b.base + 2, b.base + 1]);
    expect(p('p5')).toMatchObject({ mentor: { id: b.base + 1 }, boxes: [{ title: 'b5', inner: { note: 'in', tag: { id: 1 } }, extras: [{ note: 'x1', tag: null }, { note: 'x2', tag: { id: 2 } }] }] });
    expect(p('p5').parts).toMatchObject([{ __component: 'thing.inner', note: 'part 5' }, { __component: 'thing.box', title: 'pb', extras: [{ note: 'px' }] }]);
    const ignore = /^(created_at|updated_at|id)$/;
    const [x, y] = [await dump(many.app.db, ignore), await dump(one.app.db, ignore)];
    for (const table of ['people_profile_links', 'people_friends_links', 'people_mentor_links', 'people_tags_links', 'people']) expect(x[table], table).toEqual(y[table]);
  });
});
