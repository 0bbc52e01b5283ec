// The query language (filters with every operator on every scalar type and deep through relations,
// components and media; sort; pagination; fields; _q) on the fixture app: every answer must equal what
// Strapi 4.26.2 answered (test/golden/query-*.golden.jsonl, requests built by query-build-requests.mjs),
// apart from the deviations listed in test/golden/query-*.deviations.json and docs/compatibility.md.
// Each list starts from the fixture data, so each runs on a fresh copy.
import { describe, expect, it } from 'vitest';
import { startFixtureApp } from '../helpers/fixture-app';
import { goldenProblems } from '../helpers/golden';

describe.each(['query-operators', 'query-deep', 'query-sort-pagination', 'query-fields'])('%s', (name) => {
  it('answers as Strapi 4.26.2 did', async () => {
    const running = await startFixtureApp(true);
    try {
      expect(await goldenProblems(name, running.url, running.token)).toEqual([]);
    } finally {
      await running.stop();
    }
  }, 120_000);
});
