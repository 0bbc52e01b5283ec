// The upload operations over GraphQL on the fixture app: upload and multipleUpload as GraphQL multipart requests
// (operations, map, then the files), attaching to entries, updateFileInfo, removeFile, the uploadFile(s) queries,
// the upload types' shadow CRUD, multipart and access errors. Every answer must equal what Strapi 4.26.2 answered to
// the same request (test/golden/graphql-upload.*, the files embedded as base64, made by
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

it('answers the GraphQL upload request list as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('graphql-upload', running.url, running.token)).toEqual([]);
});
