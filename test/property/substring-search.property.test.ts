// Property (issue 22, part 5): a substring index never changes an answer. A few thousand rows of random text (%,
// _ and \, mixed case, non-ASCII letters whose case SQLite's LIKE does not fold, empty texts and NULLs), indexed,
// then changed by plain writes (the triggers keep the index); for random values of 0-6 characters, every LIKE
// operator (plain, under $not, in lists, beside another condition, `_q`) gives the same entries, in the same order,
// and the same total with the index as with the scan. SQLite: the same statement compiled with and without the
// index (two Model objects on one database). PostgreSQL: the same statement planned with the trigram indexes
// wherever they can serve (sequential and plain index scans off: GIN is read by bitmap scans) and with them
// forbidden (bitmap scans off).
// Seeded and reproducible: PROPERTY_SEED=<n> PROPERTY_RUNS=<n> to explore further.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import qs from 'qs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildModel, type ModelSource } from '../../src/model/build-model';
import { internalModelSources } from '../../src/model/internal-models';
import type { Model } from '../../src/model/types';
import { DEFAULT_QUERY_LIMITS, type QueryContext } from '../../src/query/query-context';
import { parseRestQuery } from '../../src/query/parse-query';
import { countEntities, findEntities } from '../../src/storage/read-entities';
import { compilePage } from '../../src/storage/read-statements';
import { ensureSubstringIndexes } from '../../src/storage/schema/tessera-search';
import { syncSchema } from '../../src/storage/schema/sync-schema';
import type { Database, Executor } from '../../src/storage/dialect';
import { onPostgres, openTestDatabase } from '../helpers/test-database';
import { seededRandom } from '../../bench/lib/seeded-random';

const SEED = Number(process.env.PROPERTY_SEED ?? 20261126);
/** fewer on PostgreSQL, where each case is four transactions over the network (~11 ms) */
const RUNS = Number(process.env.PROPERTY_RUNS ?? (onPostgres ? 1000 : 3000));
const ROWS = 3000;
/** a slow machine runs fewer cases rather than a longer test */
const TIME_LIMIT_MS = Number(process.env.PROPERTY_TIME_LIMIT_MS ?? 60_000);

const UID = 'api::doc.doc';
const sources: ModelSource[] = [{
  uid: UID, kind: 'collectionType', origin: 'api', modelName: 'doc',
  schema: {
    kind: 'collectionType', collectionName: 'docs', info: { singularName: 'doc', pluralName: 'docs', displayName: 'doc' },
    options: { draftAndPublish: false }, attributes: { title: { type: 'string' }, note: { type: 'text' }, n: { type: 'integer' } },
  } as never,
}];

/** characters of the texts and of the values: LIKE's specials, letters in both cases, letters LIKE does not fold */
const CHARS = ['a', 'b', 'c', 'A', 'B', 'C', 'ab', 'abc', 'ABC', ' ', '%', '_', '\\', 'é', 'É', 'ä', 'Ä', 'ß', 'ς', 'Σ', 'İ', 'ı', '"', "'", '1'];
const OPS = ['$contains', '$containsi', '$notContains', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi'];

let dir: string;
let db: Database;
/** the model the index is registered for, and one (same types) it is not */
let indexed: Model;
let scanning: Model;

const rand = seededRandom(SEED);
const pick = <V>(xs: readonly V[]): V => xs[Math.floor(rand() * xs.length)];
const text = (max: number) => Array.from({ length: Math.floor(rand() * (max + 1)) }, () => pick(CHARS)).join('');
/** a stored text: NULL, empty, or random pieces */
const stored = () => (rand() < 0.1 ? null : rand() < 0.05 ? '' : text(8));
/** a value of 0-6 characters (pieces are 1-3 characters: cut to length) */
const value = () => {
  const chars = [...text(6)];
  return chars.slice(0, Math.floor(rand() * 7)).join('');
};

function ctxOf(model: Model): QueryContext {
  return { model, visibility: { globalPrivate: new Set() }, canRead: () => true, pagination: { defaultLimit: 25, withCount: true }, limits: DEFAULT_QUERY_LIMITS };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-substring-'));
  db = await openTestDatabase(path.join(dir, 'data.db'));
  indexed = buildModel([...internalModelSources(), ...sources]);
  scanning = buildModel([...internalModelSources(), ...sources]);
  await syncSchema(db, indexed, { info: () => undefined, warn: () => undefined });
  const ph = (n: number) => db.dialect.placeholder(n);
  const insert = `INSERT INTO docs (title, note, n) VALUES (${ph(1)}, ${ph(2)}, ${ph(3)})`;
  await db.transaction(async (tx) => {
    for (let i = 0; i < ROWS; i++) await tx.run(insert, [stored(), stored(), i % 7]);
  });
  const warnings: string[] = [];
  expect(await ensureSubstringIndexes(db, indexed, { warn: (m) => warnings.push(m) }, { mode: 'on', minRows: 0 })).not.toEqual([]);
  expect(warnings).toEqual([]);
  // changes after the index was made: its triggers (SQLite) keep it right
  await db.transaction(async (tx) => {
    for (let i = 0; i < ROWS / 10; i++) {
      await tx.run(`UPDATE docs SET title = ${ph(1)} WHERE id = ${ph(2)}`, [stored(), 1 + Math.floor(rand() * ROWS)]);
      await tx.run(`DELETE FROM docs WHERE id = ${ph(1)}`, [1 + Math.floor(rand() * ROWS)]);
      await tx.run(insert, [stored(), stored(), i % 7]);
    }
  });
  if (onPostgres) await db.run('ANALYZE docs');
}, 120_000);
afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** one random condition on the docs, as `filters` (or `_q`) */
function randomQuery(): Record<string, unknown> {
  const field = pick(['title', 'note']);
  const op = pick(OPS);
  const v = value();
  const shape = Math.floor(rand() * 7);
  switch (shape) {
    case 0: return { filters: { [field]: { [op]: v } } };
    case 1: return { filters: { $not: { [field]: { [op]: v } } } };
    case 2: return { filters: { $or: [{ [field]: { [op]: v } }, { n: { $eq: 3 } }] } };
    case 3: return { filters: { [field]: { [op]: [v, value()] } } };
    case 4: return { filters: { $not: { [field]: { [op]: [v, value()] } } } };
    case 5: return { filters: { title: { [op]: v }, note: { [pick(OPS)]: value() } } };
    default: return { _q: v };
  }
}

interface Answer {
  ids: number[];
  total: number;
}

async function answer(exec: Executor, model: Model, query: Record<string, unknown>): Promise<Answer & { sql: string }> {
  // the first entries (their order is the sort's: ids as tie-break) and the total of all
  const raw = qs.parse(qs.stringify({ ...query, fields: ['n'], sort: ['n:desc'], pagination: { limit: 60 } }, { encodeValuesOnly: true }), { depth: 20 }) as Record<string, unknown>;
  const ct = model.require(UID);
  const params = parseRestQuery(ctxOf(model), ct, raw, 'find').params;
  const rows = await findEntities(exec, model, ct, params);
  return { ids: rows.map((r) => r.id as number), total: await countEntities(exec, model, ct, params.where), sql: compilePage(exec.dialect, model, ct, params).sql };
}

/** PostgreSQL: plans that read a trigram index wherever one can serve the condition */
const FORCE_INDEX = ['enable_seqscan = off', 'enable_indexscan = off'];

/** PostgreSQL: the statement planned with `settings` (SET LOCAL: this transaction only) */
function planned(settings: string[], fn: (tx: Executor) => Promise<Answer & { sql: string }>): Promise<Answer & { sql: string }> {
  return db.transaction(async (tx) => {
    for (const s of settings) await tx.run(`SET LOCAL ${s}`);
    return fn(tx);
  });
}

it(`every LIKE operator answers the same with the substring index as with the scan (${RUNS} cases)`, async () => {
  const started = Date.now();
  let served = 0;
  let runs = 0;
  for (; runs < RUNS && Date.now() - started < TIME_LIMIT_MS; runs++) {
    const query = randomQuery();
    const [withIndex, withScan] = onPostgres
      ? [await planned(FORCE_INDEX, (tx) => answer(tx, indexed, query)), await planned(['enable_bitmapscan = off', 'enable_indexscan = off'], (tx) => answer(tx, indexed, query))]
      : [await answer(db, indexed, query), await answer(db, scanning, query)];
    if (withIndex.sql.includes('tessera_docs_search')) served++;
    expect({ ids: withIndex.ids, total: withIndex.total }, JSON.stringify(query)).toEqual({ ids: withScan.ids, total: withScan.total });
  }
  // the index did serve: on SQLite a good share of the statements read it (values of three characters and more)
  if (!onPostgres) expect(served).toBeGreaterThan(runs / 5);
}, 180_000);

it.runIf(onPostgres)('PostgreSQL plans $containsi and $contains on the trigram indexes', async () => {
  const plans = await db.transaction(async (tx) => {
    for (const setting of FORCE_INDEX) await tx.run(`SET LOCAL ${setting}`);
    const lines: string[] = [];
    for (const query of [{ filters: { title: { $containsi: 'abc' } } }, { filters: { note: { $contains: 'abc' } } }]) {
      const raw = qs.parse(qs.stringify(query, { encodeValuesOnly: true })) as Record<string, unknown>;
      const ct = indexed.require(UID);
      const page = compilePage(tx.dialect, indexed, ct, parseRestQuery(ctxOf(indexed), ct, raw, 'find').params);
      lines.push(...(await tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${page.sql}`, page.params)).map((r) => r['QUERY PLAN']));
    }
    return lines.join('\n');
  });
  expect(plans).toContain('tessera_docs_title_trgmi');
  expect(plans).toContain('tessera_docs_note_trgm');
});

it('configured off: every substring index removed, and writes go on', async () => {
  expect(await ensureSubstringIndexes(db, indexed, { warn: () => undefined }, { mode: 'off', minRows: 0 })).toEqual([]);
  const left = onPostgres
    ? await db.all<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE indexname LIKE 'tessera_docs_%trgm%'`)
    : await db.all<{ name: string }>(`SELECT name FROM sqlite_schema WHERE name LIKE 'tessera_docs_search%'`);
  expect(left).toEqual([]);
  await db.run(`UPDATE docs SET title = ${db.dialect.placeholder(1)} WHERE id = 1`, ['after']);
  await db.run('DELETE FROM docs WHERE id = 2');
});
