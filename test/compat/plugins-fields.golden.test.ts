// Five v4 npm plugins on test/plugin-projects/fields-app (the fixture app and its data, plus a product type):
// the custom fields of @strapi/plugin-color-picker (string, with the admin's regex), strapi-plugin-multi-select
// (json) and @ckeditor/strapi-plugin-ckeditor (richtext), in a type and in a component, read, filtered, sorted,
// written and refused; @strapi/plugin-seo's shared.seo and shared.meta-social components; strapi-plugin-slugify
// (lifecycles giving slugs on create and update, counted, its slug table synced at start, its content-api route
// /api/slugify/slugs/:modelName/:slug and its GraphQL query findSlug). Every answer must be what Strapi 4.26.2
// answered serving the same project and database (test/golden/plugins-fields.*, recorded as
// test/plugin-projects/fields-app/README.md says).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningApp } from '../helpers/fixture-app';
import { goldenProblems } from '../helpers/golden';
import { startPluginProject } from '../integration/plugins/plugin-project-app';

let running: RunningApp;
beforeAll(async () => {
  running = await startPluginProject('fields-app');
});
afterAll(async () => {
  await running?.stop();
});

it('answers custom fields, seo components and slugify exactly as Strapi 4.26.2 did', async () => {
  expect(await goldenProblems('plugins-fields', running.url, running.token)).toEqual([]);
}, 60_000);
