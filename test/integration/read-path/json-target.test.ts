// The JSON compile target against the JavaScript reference, on the fixture app's data (written by real
// Strapi 4.26.2): every read shape gives the same response through both, key order included.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/storage/dialect';
import { FIXTURE_DB, fixtureModel } from '../../helpers/fixture-model';
import { openTestDatabase } from '../../helpers/test-database';
import { bothTargets, expectSameAnswer, targetsFor, type Outcome, type Targets } from './targets';
import { eachId, FIXTURE_SHAPES, goldenReads } from './shapes';

let dir: string;
let db: Database;
let t: Targets;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-json-target-'));
  fs.copyFileSync(FIXTURE_DB, path.join(dir, 'data.db'));
  fs.chmodSync(path.join(dir, 'data.db'), 0o644);
  db = await openTestDatabase(path.join(dir, 'data.db'));
  t = targetsFor(db, fixtureModel());
});
afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function compareAll(urls: string[]): Promise<Record<Outcome, string[]>> {
  const seen: Record<Outcome, string[]> = { compared: [], rejected: [], 'single type': [], 'js only': [] };
  for (const url of urls) seen[await expectSameAnswer(t, url)].push(url);
  return seen;
}

/** populating a file's `related` (a morph relation), directly or through `populate=*` on a media field */
const FILE_RELATED = /(cover|avatar|shareImage)(\]\[populate\]=\*|\.related|\]\[populate\]\[related\])/;

describe('JSON target = JavaScript reference, fixture data', () => {
  it('every read of the populate-forms golden list', async () => {
    const seen = await compareAll(goldenReads('populate-forms'));
    expect(seen.compared.length).toBeGreaterThan(70);
    // the JSON target leaves only a file's related entries to the JavaScript path
    for (const url of seen['js only']) expect(url).toMatch(FILE_RELATED);
  });

  it('lists: pagination, sorts, filters, fields, search, publication state, nested populate', async () => {
    const seen = await compareAll(FIXTURE_SHAPES);
    expect(seen.compared).toEqual(FIXTURE_SHAPES);
  });

  it('findOne of every article, author and category (drafts and missing ids too)', async () => {
    const urls = [
      ...eachId('articles', 62, 'populate=*'),
      ...eachId('articles', 62, 'populate[blocks][populate]=*&populate[seo][populate]=*&populate[author][populate]=*&fields[0]=title'),
      ...eachId('authors', 9, 'populate[articles][populate]=*&populate[avatar]=true'),
      ...eachId('categories', 7, 'populate[articles][populate][author]=true&populate[articles][sort]=title'),
      ...eachId('pages', 9, 'populate=*'),
    ];
    const seen = await compareAll(urls);
    expect(seen.compared).toEqual(urls);
  });

  it('a missing entry is null through both', async () => {
    const r = await bothTargets(t, '/api/articles/9999?populate=*');
    expect(r).toEqual({ outcome: 'compared', js: 'null', json: 'null' });
  });

  it("a file's related entries (a morph relation) are left to the JavaScript path", async () => {
    const { ct, raw } = { ct: t.model.require('plugin::upload.file'), raw: { populate: { related: true } } };
    const { parseRestQuery } = await import('../../../src/query/parse-query');
    const q = parseRestQuery(t.context, ct, raw, 'find');
    expect(await t.service(ct.uid).findJson(q)).toBeNull();
  });
});
