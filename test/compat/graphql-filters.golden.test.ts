// GraphQL reads on the fixture app: filters with every operator, and/or/not, through relations and components,
// invalid filters. Every answer must equal what Strapi 4.26.2 answered on the fixture data
// (test/golden/graphql-filters.*, requests written by graphql-build-requests.mjs, recorded with strapi-diff
// --record), apart from the deviations listed in test/golden/graphql-filters.deviations.json (and
// docs/compatibility.md).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../helpers/fixture-app';
import { goldenProblems } from '../helpers/golden';

let running: RunningApp;
beforeAll(async () => {
  running = await startFixtureApp(true);
});
afterAll(async () => {
  await running?.stop();
});

it('answers the graphql-filters request list exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('graphql-filters', running.url, running.token)).toEqual([]);
}, 60_000);
