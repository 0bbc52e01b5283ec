// test/plugin-projects/fields-app where recorded answers cannot show it: what the custom-field plugins make of the
// model, slugify's lifecycles on writes made by project code, its slug table, its start-up lines, and the start-up
// refusals. What each test expects is what Strapi 4.26.2 did on the same project and database (observed from its
// bootstrap; test/plugin-projects/fields-app/README.md); the answers themselves are
// test/compat/plugins-fields.golden.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../../helpers/fixture-app';
import { PLUGIN_PROJECTS_DIR } from '../../helpers/plugin-projects-global';
import { startPluginProject, type LogLine } from './plugin-project-app';

const FIELDS_APP = path.join(PLUGIN_PROJECTS_DIR, 'fields-app');

/** the part of v4's `strapi` these tests use */
interface StrapiSurface {
  contentType(uid: string): { attributes: Record<string, Record<string, unknown>> };
  components: Record<string, { attributes: Record<string, Record<string, unknown>> }>;
  entityService: {
    create(uid: string, params: { data: Record<string, unknown> }): Promise<{ id: number; slug: string }>;
    update(uid: string, id: number, params: { data: Record<string, unknown> }): Promise<{ slug: string }>;
  };
  db: {
    query(uid: string): {
      create(params: { data: Record<string, unknown> }): Promise<{ id: number; slug: string }>;
      update(params: { where: Record<string, unknown>; data: Record<string, unknown> }): Promise<{ slug: string }>;
      findMany(params: Record<string, unknown>): Promise<Array<{ slug: string; count: number }>>;
      count(params?: Record<string, unknown>): Promise<number>;
    };
  };
  plugins: Record<string, unknown>;
}

const strapiOf = (running: RunningApp) => running.app.strapi as unknown as StrapiSurface;

/** a file of fields-app with one change, for `edit` */
function edited(file: string, from: string, to: string): Record<string, string> {
  const text = fs.readFileSync(path.join(FIELDS_APP, file), 'utf8');
  expect(text, `${file} has no ${from}`).toContain(from);
  return { [file]: text.replace(from, to) };
}

describe('fields-app running', () => {
  const logLines: LogLine[] = [];
  let running: RunningApp;
  beforeAll(async () => {
    running = await startPluginProject('fields-app', { logLines });
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('logs what slugify logs at start, in v4 order', () => {
    const slugify = logLines.map((l) => l.msg).filter((m) => m.startsWith('[slugify]'));
    expect(slugify).toEqual([
      '[slugify] graphql detected, registering queries',
      '[slugify] syncing slug count for registered content types',
      '[slugify] syncing slug count for api::article.article',
      '[slugify] sync for api::article.article completed',
      '[slugify] syncing slug count for api::product.product',
      '[slugify] sync for api::product.product completed',
      '[slugify] 60 out of 60 slugs synced successfully',
    ]);
    expect(logLines.map((l) => l.msg)).toContain('[fields-app] 5 products created');
    expect(logLines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('gives custom-field attributes their registered type and keeps the rest of the attribute, as v4', () => {
    const strapi = strapiOf(running);
    const product = strapi.contentType('api::product.product').attributes;
    const regex = '^#([A-Fa-f0-9]{6}|[A-Fa-f0-9]{3})$';
    expect(product.color).toEqual({ type: 'string', regex, customField: 'plugin::color-picker.color' });
    expect(product.background).toEqual({ type: 'string', regex, default: '#ffffff', required: true, customField: 'plugin::color-picker.color' });
    expect(product.tags).toEqual({ type: 'json', options: ['Red:red', 'Green:green', 'Blue:blue', 'Sale'], customField: 'plugin::multi-select.multi-select' });
    expect(product.internalTags).toEqual({ type: 'json', options: ['audit', 'hidden'], private: true, customField: 'plugin::multi-select.multi-select' });
    expect(product.description).toEqual({ type: 'richtext', options: { output: 'HTML', preset: 'rich' }, customField: 'plugin::ckeditor.CKEditor' });
    expect(product.notes).toEqual({
      type: 'richtext', options: { output: 'Markdown', preset: 'light', maxLengthCharacters: 40 }, maxLength: 40, customField: 'plugin::ckeditor.CKEditor',
    });
    expect(strapi.components['shared.swatch'].attributes.color).toEqual({ type: 'string', regex, customField: 'plugin::color-picker.color' });
  });

  it('lists the plugins in v4 order: internal ones, then config/plugins.js, then package.json dependencies', () => {
    // v4 4.26.2 on this project: Object.keys(strapi.plugins)
    expect(Object.keys(strapiOf(running).plugins)).toEqual([
      'content-manager', 'content-type-builder', 'email', 'upload', 'content-releases', 'slugify', 'graphql',
      'users-permissions', 'documentation', 'ckeditor', 'color-picker', 'i18n', 'seo', 'multi-select',
    ]);
  });

  it("synced slugify's slug table at start and counts the seeded slugs", async () => {
    const slugs = strapiOf(running).db.query('plugin::slugify.slug');
    // the fixture's 60 article slugs (art-0 .. art-59, count 1 each) and the 4 distinct product slugs
    expect(await slugs.count()).toBe(64);
    const products = await slugs.findMany({ where: { $not: { slug: { $startsWith: 'art-' } } }, orderBy: { id: 'asc' } });
    expect(products.map((r) => [r.slug, r.count])).toEqual([['red-chair', 2], ['blue-table', 1], ['green-lamp', 1], ['plain-box', 1]]);
  });

  it('runs slugify on writes through strapi.entityService and strapi.db.query, as v4 (database lifecycles)', async () => {
    const strapi = strapiOf(running);
    const created = await strapi.entityService.create('api::product.product', { data: { name: 'Red Chair' } });
    expect(created.slug).toBe('red-chair-3');
    const renamed = await strapi.entityService.update('api::product.product', created.id, { data: { name: 'Renamed Chair' } });
    expect(renamed.slug).toBe('renamed-chair');
    const queried = await strapi.db.query('api::product.product').create({ data: { name: 'Query Made' } });
    expect(queried.slug).toBe('query-made');
    const requeried = await strapi.db.query('api::product.product').update({ where: { id: queried.id }, data: { name: 'Query Renamed' } });
    expect(requeried.slug).toBe('query-renamed');

    const slugs = await strapi.db.query('plugin::slugify.slug').findMany({ where: { $not: { slug: { $startsWith: 'art-' } } }, orderBy: { id: 'asc' } });
    expect(slugs.map((r) => [r.slug, r.count])).toEqual([
      ['red-chair', 3], ['blue-table', 1], ['green-lamp', 1], ['plain-box', 1], ['renamed-chair', 1], ['query-made', 1], ['query-renamed', 1],
    ]);
    const res = await fetch(`${running.url}/api/slugify/slugs/product/query-renamed?fields[0]=name`, { headers: { authorization: `Bearer ${running.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { id: queried.id, attributes: { name: 'Query Renamed' } }, meta: {} });
  });
});

describe('start-up refusals as v4', () => {
  it('stops on an attribute whose custom field no plugin registers, naming it, the file and the attribute', async () => {
    // v4: "Could not find Custom Field: plugin::color-picker.colour", and no server
    const edit = edited('src/components/shared/swatch.json', '"plugin::color-picker.color"', '"plugin::color-picker.colour"');
    const start = startPluginProject('fields-app', { edit });
    await expect(start).rejects.toThrow('Could not find Custom Field: plugin::color-picker.colour');
    await expect(start).rejects.toThrow(/src\/components\/shared\/swatch\.json/);
    await expect(start).rejects.toThrow(/\bcolor\b/);
  });

  it("stops when slugify's config validator refuses the config, naming the plugin", async () => {
    // v4: "Error regarding slugify config: contentTypes.article.field is a required field"
    const edit = edited('config/plugins.js', "article: { field: 'slug', references: 'title' }", "article: { references: 'title' }");
    await expect(startPluginProject('fields-app', { edit })).rejects.toThrow('Error regarding slugify config: contentTypes.article.field is a required field');
  });

  it('stops on a config value of the wrong type, with the message of the plugin’s yup schema', async () => {
    // v4: 'Error regarding slugify config: slugifyWithCount must be a `boolean` type, but the final value was: `"often"`.'
    const edit = edited('config/plugins.js', 'slugifyWithCount: true', "slugifyWithCount: 'often'");
    await expect(startPluginProject('fields-app', { edit })).rejects.toThrow(
      'Error regarding slugify config: slugifyWithCount must be a `boolean` type, but the final value was: `"often"`.',
    );
  });
});
