// GraphQL mutations on the fixture app's content types (create/update/delete with scalars, relations, media,
// components, dynamic zones; the single type; i18n pages and createPageLocalization; validation and document errors;
// access as Public, with a user's JWT and with bad credentials), on the database real Strapi wrote: every answer
// must equal what Strapi 4.26.2 answered to the same request (test/golden/graphql-writes.*, made by
// graphql-mutations-make-requests.ts and recorded with strapi-diff --record).
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

it('answers the GraphQL write request list as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('graphql-writes', running.url, running.token)).toEqual([]);
});
