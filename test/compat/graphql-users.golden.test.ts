// The users-permissions operations over GraphQL on the fixture app: login, register, me, the password and email
// confirmation mutations, users and roles through their queries and custom mutations, as Public, with a JWT and with
// the API token. Every answer must equal what Strapi 4.26.2 answered to the same request
// (test/golden/graphql-users.*, made by graphql-mutations-make-requests.ts and recorded with strapi-diff --record).
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

it('answers the GraphQL users-permissions request list as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('graphql-users', running.url, running.token)).toEqual([]);
});
