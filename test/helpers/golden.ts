// Replays a request list against Tessera and compares with real Strapi 4.26.2's recorded answers, using the
// in-repo differential tool (test/helpers/strapi-diff.ts; recording: test/fixtures/strapi4-app/README.md).
//
// test/golden/<name>.requests.json      the requests (strapi-diff format)
// test/golden/<name>.golden.jsonl       Strapi 4.26.2's answers, recorded with strapi-diff.ts --record
// test/golden/<name>.deviations.json    optional: the differences we keep on purpose, each listed in
//                                       docs/compatibility.md, with every differing path and the exact value
//                                       Tessera answers there (`status` for the status, {"$absent": true} for
//                                       a missing key): { "<request name>": { "why": "...", "expect": { ".error.details": {} } } }
//
// test/golden/postgres/<name>.*        real Strapi 4.26.2 ON POSTGRESQL's answers (it differs from SQLite: case
//                                       rules, NULL order, exact bigints, docs/postgres-case-rules.md). In the
//                                       postgres project a list with such a golden is compared with it and the
//                                       deviations beside it (the requests too, when a postgres/ copy exists);
//                                       a list without one, with the SQLite files.
//
// GOLDEN_WRITE_DEVIATIONS=1 npx vitest run test/compat/<name>.golden.test.ts   rewrites the deviations file from
// the replay, keeping each entry's "why": an entry takes Tessera's current values at the paths it lists (a
// listed path also covers what lies below it: after a re-recording, an entry may name just `.data` or
// `status`, or nothing to take all of its request's differences; GOLDEN_WRITE_DEVIATIONS=all takes all of
// them for every listed request). Review the result with git diff before keeping it. In the postgres project
// (--project postgres) every list uses the SQLite list's deviations with test/golden/postgres/<name>.deviations.json
// over them (see Overrides), whether it has a PostgreSQL recording or not, and the rewrite writes only those.
import fs from 'node:fs';
import path from 'node:path';
import {
  Client, deviationProblems, readDeviations, readGolden, readRequests, replay, rewriteDeviations, writeDeviations,
  type Deviation, type Deviations,
} from './strapi-diff';

export const GOLDEN_DIR = path.resolve(__dirname, '../golden');

/**
 * Replays `name` and returns what is wrong: differences not listed as deviations (or with another value),
 * and listed deviations that no longer occur (so the list stays true). Empty when Tessera answers as recorded.
 */
export async function goldenProblems(name: string, url: string, token: string): Promise<string[]> {
  const { file, sqliteFile } = goldenFiles(name);
  const results = await replay(readRequests(file('requests.json')), new Client(url, token), readGolden(file('golden.jsonl')));
  // on PostgreSQL: the SQLite list's deviations with postgres/<name>.deviations.json over them, whichever golden
  const overridesFile = onPostgres() ? path.join(POSTGRES_GOLDEN_DIR, `${name}.deviations.json`) : undefined;
  const base = readDeviations(sqliteFile('deviations.json'));
  let deviations = overridesFile ? withOverrides(base, readOverrides(overridesFile)) : base;
  const deviationsName = path.relative(GOLDEN_DIR, overridesFile ?? sqliteFile('deviations.json'));
  const write = process.env.GOLDEN_WRITE_DEVIATIONS;
  if (write) {
    const next = rewriteDeviations(results, deviations, write === 'all');
    deviations = next.deviations;
    if (overridesFile) writeOverrides(overridesFile, base, deviations);
    else writeDeviations(sqliteFile('deviations.json'), deviations);
    for (const request of next.dropped) console.log(`${deviationsName}: dropped "${request}" (answered as recorded)`);
  }
  return deviationProblems(results, deviations, deviationsName);
}

/**
 * A PostgreSQL deviations file holds only what differs from the SQLite list's: entries of its own (a request v4
 * answers differently on PostgreSQL) and `null` for a SQLite entry that does not occur there. Tessera's deliberate
 * differences are the same on both databases, so each is written once.
 */
type Overrides = Record<string, Deviation | null>;

function readOverrides(file: string): Overrides {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Overrides) : {};
}

function withOverrides(base: Deviations, overrides: Overrides): Deviations {
  const out: Deviations = { ...base };
  for (const [request, d] of Object.entries(overrides)) {
    if (d === null) delete out[request];
    else out[request] = d;
  }
  return out;
}

function writeOverrides(file: string, base: Deviations, deviations: Deviations): void {
  const overrides: Overrides = {};
  for (const [request, d] of Object.entries(deviations)) if (JSON.stringify(d) !== JSON.stringify(base[request])) overrides[request] = d;
  for (const request of Object.keys(base)) if (!(request in deviations)) overrides[request] = null;
  if (Object.keys(overrides).length === 0) fs.rmSync(file, { force: true });
  else fs.writeFileSync(file, `${JSON.stringify(overrides, null, 1)}\n`);
}

export const POSTGRES_GOLDEN_DIR = path.join(GOLDEN_DIR, 'postgres');

const onPostgres = () => process.env.TESSERA_TEST_DB === 'postgres';

/**
 * Where list `name`'s files are: test/golden/postgres/ in the postgres project when real Strapi's answers on
 * PostgreSQL were recorded for it (each file there if present, the requests else from test/golden/), else
 * test/golden/. `sqliteFile`: the SQLite recording's.
 */
export function goldenFiles(name: string): { file(ext: string): string; sqliteFile(ext: string): string } {
  const sqliteFile = (ext: string) => path.join(GOLDEN_DIR, `${name}.${ext}`);
  const pgFile = (ext: string) => path.join(POSTGRES_GOLDEN_DIR, `${name}.${ext}`);
  if (!onPostgres() || !fs.existsSync(pgFile('golden.jsonl'))) return { file: sqliteFile, sqliteFile };
  return { file: (ext) => (ext === 'requests.json' && !fs.existsSync(pgFile(ext)) ? sqliteFile(ext) : pgFile(ext)), sqliteFile };
}
