// strapi-plugin-rest-cache with its memory provider (issue 21 part 6) on test/plugin-projects/rest-cache-app: the
// fixture app and its data, articles, categories, pages and the homepage cached (authors not), ETags and X-Cache
// headers on. Public reads (the ones the plugin caches) between writes made every way a project writes: REST on a
// cached type, on an uncached type a cached answer populates, on a type pointing at a cached one, GraphQL,
// strapi.entityService in a custom route, the upload plugin, i18n's localization route, and a permission revoked.
//
// The recording (test/golden/plugins-rest-cache.*) is real Strapi 4.26.2 with rest-cache 4.2.9, the release that
// caches on 4.26.2 (the pinned 4.2.6 looks for the content-API routes before v4 mounts them, finds none, and
// caches nothing: with it, v4 answers every request as Tessera must). Where 4.2.9 answered stale data (7 answers,
// one of them a Public read after the Public role lost the permission), Tessera answers the data as it is: each is
// listed in plugins-rest-cache.deviations.json with the answer v4 gives without the cache.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import type { RunningApp } from '../helpers/fixture-app';
import { startPluginProject } from '../integration/plugins/plugin-project-app';

let running: RunningApp;
beforeAll(async () => {
  running = await startPluginProject('rest-cache-app');
});
afterAll(async () => {
  await running?.stop();
});

it('answers as Strapi 4.26.2 with rest-cache did, never with stale data', async () => {
  expect(await goldenProblems('plugins-rest-cache', running.url, running.token)).toEqual([]);
});
