// Backend customization on the custom-app test project (test/fixtures/custom-app) with an empty database:
// createdBy/updatedBy of content types with `populateCreatorFields` (populate, fields, filters, sort, nested,
// single type; refused or left out where the option is off), strapi.requestContext in a service, a route
// middleware and model lifecycle hooks, the strapi object project code sees, and strapi.cron's job list.
// Every answer must equal what Strapi 4.26.2 answered (test/golden/customization.*) except the differences
// listed in its deviations file.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import type { RunningApp } from '../helpers/fixture-app';
import { startCustomApp } from '../integration/customization/custom-app';

let running: RunningApp;
beforeAll(async () => {
  running = await startCustomApp();
});
afterAll(async () => {
  await running?.stop();
});

it('answers as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('customization', running.url, running.token)).toEqual([]);
});
