// strapi-plugin-navigation 2.5.6 (issue 21 part 6) on test/plugin-projects/content-plugins-app: the fixture app and
// its data with the plugin's content types, the items the project's bootstrap writes, and its content-API routes
// (/api/navigation: the list of navigations, render FLAT / TREE / RFR by slug or id, render a child, with menu,
// path and populate parameters, Public and token), plus its GraphQL queries (renderNavigation,
// renderNavigationChild). Every answer must equal what Strapi 4.26.2 answered running the same project
// (test/golden/plugins-navigation.*). The plugin's own code builds the answers, quirks included: TREE's `slug` of an
// external item is a Promise serialized as {}, `populate` is handed to strapi.query as it comes (a private author
// field is answered, a nested string populate makes the related entries null), orderBy names an attribute or the
// query engine's error is the 400's message.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import type { RunningApp } from '../helpers/fixture-app';
import { startPluginProject } from '../integration/plugins/plugin-project-app';

let running: RunningApp;
beforeAll(async () => {
  running = await startPluginProject('content-plugins-app');
});
afterAll(async () => {
  await running?.stop();
});

it('answers the navigation plugin as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('plugins-navigation', running.url, running.token)).toEqual([]);
});
