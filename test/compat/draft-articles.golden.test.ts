// Draft & publish on the fixture app's articles (and the homepage's relation to them), on the database
// real Strapi wrote: live and preview lists and counts, the drafts-only recipe, findOne of a draft (v4's
// leak, kept by default), populated drafts in find (hidden under live), findOne and writes (shown, as v4),
// nested populate publicationState, create as draft, publish, unpublish, delete. Every answer must equal
// Strapi 4.26.2's (test/golden/draft-articles.*).
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

it('answers the draft & publish request list exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('draft-articles', running.url, running.token)).toEqual([]);
});
