// The upload plugin on the fixture app: uploads of generated images and files, find/findOne/delete,
// replace and file info updates, attaching to entries, errors. Every answer must equal what Strapi 4.26.2
// answered to the same request (test/golden/upload-files.*, the files embedded as base64), apart from the
// deviations listed in test/golden/upload-files.deviations.json (and docs/compatibility.md, "Upload").
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

it('answers the upload request list as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('upload-files', running.url, running.token)).toEqual([]);
});
