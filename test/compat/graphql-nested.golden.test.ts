// GraphQL reads on the fixture app: nested selections (relations with their arguments, media, components, dynamic
// zones, localizations), aliases, fragments, variables. Every answer must equal what Strapi 4.26.2 answered on the
// fixture data (test/golden/graphql-nested.*, requests written by graphql-build-requests.mjs, recorded with
// strapi-diff --record), apart from the deviations listed in test/golden/graphql-nested.deviations.json (and
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

it('answers the graphql-nested request list exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('graphql-nested', running.url, running.token)).toEqual([]);
}, 60_000);
