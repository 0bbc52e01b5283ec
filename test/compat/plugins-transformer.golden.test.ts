// strapi-plugin-transformer (issue 21 part 6) on test/plugin-projects/transformer-app: the fixture app and its data
// with the plugin configured as most projects use it (responseTransforms removeAttributesKey and removeDataKey:
// no `attributes` and no `data` wrappers at any level of a content-API answer), and with its other common
// setting (TRANSFORMER_KEEP_DATA_KEY=true: removeDataKey false). Every answer, writes, errors, the
// `strapi-transformer-ignore` header, plugin routes whose answers have no `data` and GraphQL (not a content-API
// route, so untouched) included, must equal what Strapi 4.26.2 answered running the same project
// (test/golden/plugins-transformer.*, plugins-transformer-keep-data.*). The plugin's own code does the
// transforming: the answers hold its quirks (a JSON attribute holding `id`/`attributes`/`data` keys is rewritten
// too). Recorded with the pinned 2.1.1; 3.1.2 (its last v4 release) answered every request alike.
import { afterEach, expect, it } from 'vitest';
import { goldenProblems } from '../helpers/golden';
import type { RunningApp } from '../helpers/fixture-app';
import { startPluginProject } from '../integration/plugins/plugin-project-app';

let running: RunningApp | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

it('answers through the transformer as Strapi 4.26.2 did (no attributes, no data wrappers)', async () => {
  running = await startPluginProject('transformer-app');
  expect(await goldenProblems('plugins-transformer', running.url, running.token)).toEqual([]);
});

it('keeps the data wrappers when removeDataKey is false, as Strapi 4.26.2 did', async () => {
  running = await startPluginProject('transformer-app', { env: { TRANSFORMER_KEEP_DATA_KEY: 'true' } });
  expect(await goldenProblems('plugins-transformer-keep-data', running.url, running.token)).toEqual([]);
});
