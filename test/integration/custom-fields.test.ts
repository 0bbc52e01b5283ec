// Custom fields end to end (test/fixtures/custom-fields-app): the app's register() calls
// strapi.customFields.register for `global::color` (a string) and `global::level` (an integer), used by a content
// type and a component. Stored, validated, filtered, sorted and answered as their underlying type; every
// expected answer below is what real Strapi 4.26.2 answered serving the same project (README of the fixture).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, startLoggedProjectCopy, type LoggedApp } from '../helpers/logged-app';
import { onPostgres } from '../helpers/test-database';

const CUSTOM_FIELDS_APP = path.resolve(__dirname, '../fixtures/custom-fields-app');
const SWATCH_SCHEMA = 'src/api/swatch/content-types/swatch/schema.json';
const COLOR_REGEX = '^#([A-Fa-f0-9]{6}|[A-Fa-f0-9]{3})$';

let running: LoggedApp;
beforeAll(async () => {
  running = await startLoggedProjectCopy(CUSTOM_FIELDS_APP);
});
afterAll(async () => {
  await running?.stop();
});

const call = (method: string, url: string, data?: unknown) => apiCall(running.url, method, url, data);

/** the live table's columns in order, `name:type` as the database names the type */
const columns = async (table: string) => [...(await running.app.db.introspect()).get(table)!.columns.values()].map((c) => `${c.name}:${c.type}`);
/** v4's datetime column: `datetime` on SQLite, `timestamp(6)` on PostgreSQL */
const DATETIME = onPostgres ? 'timestamp without time zone' : 'datetime';

describe('custom fields registered by the app', () => {
  it('show on strapi.contentTypes and strapi.components with their underlying type, as v4 converts them', () => {
    const strapi = running.app.strapi as unknown as { contentTypes: Record<string, any>; components: Record<string, any> };
    const attributes = strapi.contentTypes['api::swatch.swatch'].attributes;
    expect(JSON.stringify(attributes.color)).toBe(JSON.stringify({ type: 'string', regex: COLOR_REGEX, customField: 'global::color', required: true }));
    expect(attributes.level).toEqual({ type: 'integer', customField: 'global::level', max: 10 });
    expect(strapi.components['shared.tint'].attributes.shade).toEqual({ type: 'string', customField: 'global::color', options: { format: 'hex' } });
  });

  it('are stored in the columns v4 creates for those types', async () => {
    expect(await columns('swatches')).toEqual([
      'id:integer', 'name:varchar(255)', 'color:varchar(255)', 'level:integer', `created_at:${DATETIME}`, `updated_at:${DATETIME}`, 'created_by_id:integer', 'updated_by_id:integer',
    ]);
    expect(await columns('components_shared_tints')).toEqual(['id:integer', 'shade:varchar(255)']);
  });

  it('are written, validated, filtered, sorted and read as their underlying type', async () => {
    const red = await call('POST', '/api/swatches', { name: 'red', color: '#ff0000', level: 3, swatchInfo: { shade: '#aa0000' } });
    expect(red.status).toBe(200);
    expect(red.body.data).toEqual({ id: 1, attributes: { name: 'red', color: '#ff0000', level: 3, createdAt: expect.any(String), updatedAt: expect.any(String) } });
    const blue = await call('POST', '/api/swatches', { name: 'blue', color: '#00f', level: '7' });
    expect(blue.body.data.attributes.level).toBe(7);

    const invalid = await call('POST', '/api/swatches', { name: 'bad', color: 'red', level: 11 });
    expect(invalid).toEqual({
      status: 400,
      body: {
        data: null,
        error: {
          status: 400, name: 'ValidationError', message: '2 errors occurred',
          details: {
            errors: [
              { path: ['color'], message: `color must match the following: "/${COLOR_REGEX}/"`, name: 'ValidationError' },
              { path: ['level'], message: 'level must be less than or equal to 10', name: 'ValidationError' },
            ],
          },
        },
      },
    });
    const notANumber = await call('POST', '/api/swatches', { name: 'bad2', color: '#fff', level: 'abc' });
    expect(notANumber.status).toBe(400);
    expect(notANumber.body.error.message).toBe('level must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).');

    expect((await call('GET', '/api/swatches?filters[color][$eq]=%2300f&fields[0]=name')).body.data).toEqual([{ id: 2, attributes: { name: 'blue' } }]);
    expect((await call('GET', '/api/swatches?filters[level][$gt]=5&fields[0]=name&fields[1]=level')).body.data).toEqual([{ id: 2, attributes: { name: 'blue', level: 7 } }]);
    expect((await call('GET', '/api/swatches?sort=level:desc&fields[0]=name&fields[1]=level')).body.data).toEqual([
      { id: 2, attributes: { name: 'blue', level: 7 } },
      { id: 1, attributes: { name: 'red', level: 3 } },
    ]);
    expect((await call('GET', '/api/swatches?filters[swatchInfo][shade][$startsWith]=%23aa&fields[0]=name&populate=swatchInfo')).body.data)
      .toEqual([{ id: 1, attributes: { name: 'red', swatchInfo: { id: 1, shade: '#aa0000' } } }]);
    expect((await call('GET', '/api/swatches/1?populate=*')).body.data.attributes).toEqual({
      name: 'red', color: '#ff0000', level: 3, createdAt: expect.any(String), updatedAt: expect.any(String), swatchInfo: { id: 1, shade: '#aa0000' },
    });
    const updated = await call('PUT', '/api/swatches/1', { level: 10 });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes.level).toBe(10);
  });
});

describe('an attribute whose custom field nothing registers', () => {
  it('stops start-up, as in v4, naming the schema file and the attribute', async () => {
    const schema = JSON.parse(fs.readFileSync(path.join(CUSTOM_FIELDS_APP, SWATCH_SCHEMA), 'utf8'));
    schema.attributes.ghost = { type: 'customField', customField: 'plugin::ghost.thing' };
    const err = await startLoggedProjectCopy(CUSTOM_FIELDS_APP, { [SWATCH_SCHEMA]: JSON.stringify(schema) }).then(
      async (app) => { await app.stop(); throw new Error('expected start-up to fail'); },
      (e: Error) => e,
    );
    expect(err.message).toMatch(/[\\/]src[\\/]api[\\/]swatch[\\/]content-types[\\/]swatch[\\/]schema\.json: attribute "ghost": Could not find Custom Field: plugin::ghost\.thing/);
  });
});

describe('a project opened without its register() (the CLI: tessera token, locales)', () => {
  it('opens: a custom field only register() would register stays JSON instead of stopping it', async () => {
    const { createTessera } = await import('../../src/core/tessera');
    const { copyProject } = await import('../helpers/fixture-app');
    const dir = copyProject(CUSTOM_FIELDS_APP);
    try {
      const app = await createTessera({ dir, silent: true, lifecycle: false });
      try {
        expect(app.model.require('api::swatch.swatch').attributes.color).toMatchObject({ kind: 'scalar', type: 'json' });
      } finally {
        await app.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
