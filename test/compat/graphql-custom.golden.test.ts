// GraphQL customization (issue 15) on test/fixtures/graphql-custom-app: the fixture app and its data, with a
// `register` that customizes GraphQL through `strapi.plugin('graphql').service('extension')` (shadow CRUD switches,
// nexus types and plugins, typeDefs, resolvers and their overrides, resolversConfig auth, scopes, policies and
// middlewares). The schema Tessera serves must be the one Strapi 4.26.2 served for it (schema.graphql there), and
// every answer what Strapi 4.26.2 answered (test/golden/graphql-custom.*, requests written by
// graphql-custom-build-requests.mjs, recorded with strapi-diff --record).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureAppWith, type RunningApp } from '../helpers/fixture-app';
import { goldenProblems } from '../helpers/golden';
import { DEVIATIONS, difference, entries, sdlOverHttp } from '../helpers/sdl-compare';

const GRAPHQL_CUSTOM_APP = path.resolve(__dirname, '../fixtures/graphql-custom-app');

let running: RunningApp;
beforeAll(async () => {
  running = await startFixtureAppWith(GRAPHQL_CUSTOM_APP);
});
afterAll(async () => {
  await running?.stop();
});

it("serves the customized schema Strapi 4.26.2 served, but for the fixture app's listed deviations", async () => {
  const v4 = entries(fs.readFileSync(path.join(GRAPHQL_CUSTOM_APP, 'schema.graphql'), 'utf8'));
  const served = entries(await sdlOverHttp(running.url));
  expect(difference(v4, served)).toEqual(DEVIATIONS);
  expect(difference(served, v4)).toEqual([]);
});

it('answers the graphql-custom request list exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('graphql-custom', running.url, running.token)).toEqual([]);
}, 60_000);
