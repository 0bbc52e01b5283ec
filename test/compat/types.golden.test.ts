// Every scalar attribute type (test/fixtures/all-types) stored, returned and validated as Strapi 4.26.2
// does: test/golden/types.* was recorded from real Strapi on that project, on an empty database.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startProjectCopy, type RunningApp } from '../helpers/fixture-app';
import { goldenProblems } from '../helpers/golden';

let running: RunningApp;
beforeAll(async () => {
  running = await startProjectCopy(path.resolve(__dirname, '../fixtures/all-types'));
});
afterAll(async () => {
  await running?.stop();
});

it('answers the scalar-types request list as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('types', running.url, running.token)).toEqual([]);
});
