// Route policies, route middlewares and project middlewares (config/middlewares.js) on the hooks test project
// (test/fixtures/hooks-app with test/integration/route-hooks/app-middlewares.js), empty database. Every answer
// must equal what Strapi 4.26.2 answered on the same project (test/golden/hooks-routes.*), except the
// deviations listed in test/golden/hooks-routes.deviations.json and docs/compatibility.md.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import { startHooksApp, type RunningHooksApp } from '../integration/route-hooks/hooks-app';

let running: RunningHooksApp;
beforeAll(async () => {
  running = await startHooksApp();
});
afterAll(async () => {
  await running?.stop();
});

it('runs route policies, route middlewares and project middlewares as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('hooks-routes', running.url, running.token)).toEqual([]);
});
