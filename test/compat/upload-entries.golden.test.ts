// Entry writes as multipart/form-data (`data` as JSON, files under `files.<path>`), recorded from Strapi
// 4.26.2 (test/golden/upload-entries.*): media attributes of the entry and of its components, adding to a
// multiple media on update, replacing a single one. Deliberate differences (test/golden/upload-entries.deviations.json,
// docs/compatibility.md): the 500s are 400s, unknown targets and wrong types are refused instead of stored
// as orphans, several files keep the request's order.
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

it('answers multipart entry writes as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('upload-entries', running.url, running.token)).toEqual([]);
});
