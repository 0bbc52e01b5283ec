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
// GOLDEN_WRITE_DEVIATIONS=1 npx vitest run test/compat/<name>.golden.test.ts   rewrites the deviations file from
// the replay, keeping each entry's "why": an entry takes Tessera's current values at the paths it lists (a
// listed path also covers what lies below it: after a re-recording, an entry may name just `.data` or
// `status`, or nothing to take all of its request's differences; GOLDEN_WRITE_DEVIATIONS=all takes all of
// them for every listed request). Review the result with git diff before keeping it.
import path from 'node:path';
import {
  Client, deviationProblems, readDeviations, readGolden, readRequests, replay, rewriteDeviations, writeDeviations,
} from './strapi-diff';

export const GOLDEN_DIR = path.resolve(__dirname, '../golden');

/**
 * Replays `name` and returns what is wrong: differences not listed as deviations (or with another value),
 * and listed deviations that no longer occur (so the list stays true). Empty when Tessera answers as recorded.
 */
export async function goldenProblems(name: string, url: string, token: string): Promise<string[]> {
  const file = (ext: string) => path.join(GOLDEN_DIR, `${name}.${ext}`);
  const results = await replay(readRequests(file('requests.json')), new Client(url, token), readGolden(file('golden.jsonl')));
  let deviations = readDeviations(file('deviations.json'));
  const write = process.env.GOLDEN_WRITE_DEVIATIONS;
  if (write) {
    const next = rewriteDeviations(results, deviations, write === 'all');
    deviations = next.deviations;
    writeDeviations(file('deviations.json'), deviations);
    for (const request of next.dropped) console.log(`${name}.deviations.json: dropped "${request}" (answered as recorded)`);
  }
  return deviationProblems(results, deviations, `${name}.deviations.json`);
}
