// Model lifecycle hooks on the hooks test project (test/fixtures/hooks-app) with an empty database: a slug
// set in beforeCreate, tenant filters in beforeFindMany / beforeFindOne / beforeCount / beforeUpdate, results
// changed in afterCreate / afterFindOne, hooks that refuse a write, subscribers added in bootstrap (for one
// model, and a function for every event), entityService, strapi.query and a users-permissions register.
// Every answer, the hook log (what each hook saw, in order) included, must equal what Strapi 4.26.2
// answered (test/golden/hooks-lifecycles.*) except the differences listed in its deviations file.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import { startHooksApp, type RunningHooksApp } from '../integration/lifecycles/hooks-app';

let running: RunningHooksApp;
beforeAll(async () => {
  running = await startHooksApp();
});
afterAll(async () => {
  await running?.stop();
});

it('runs lifecycle hooks as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('hooks-lifecycles', running.url, running.token)).toEqual([]);
});
