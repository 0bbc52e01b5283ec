// `fields` with `sort` on other attributes of the same level: v4 answers the sort attributes too where that
// level's SQL has joins (filters or sort through relations and components, every populated relation, component
// and media level), and not elsewhere (test/golden/sort-fields.*, recorded from Strapi 4.26.2 on the fixture data).
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

it('answers sort attributes beside the requested fields exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('sort-fields', running.url, running.token)).toEqual([]);
});
