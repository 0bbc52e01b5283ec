// The GraphQL schema Tessera builds for the fixture app against the one real Strapi 4.26.2 serves for it
// (test/fixtures/strapi4-app/schema.graphql, dumped by shared/tools/dump-sdl.js: introspection ->
// buildClientSchema -> printSchema). Both are printed that way and compared entry by entry: every type with its
// kind, description, members or values, and every field with its description, arguments, nullability and
// defaults. The only differences allowed are the listed deviations.
import fs from 'node:fs';
import path from 'node:path';
import { printSchema, isInputObjectType, isObjectType, type GraphQLInputObjectType, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { buildGraphqlSchema } from '../../../src/graphql/schema/build-schema';
import { copyFixtureApp, startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { FIXTURE_APP, fixtureModel } from '../../helpers/fixture-model';
import { DEVIATIONS, difference, entries, sdlOverHttp, servedSdl } from '../../helpers/sdl-compare';

const V4_SDL = fs.readFileSync(path.join(FIXTURE_APP, 'schema.graphql'), 'utf8');

describe('the fixture app schema', () => {
  const tessera = entries(servedSdl(buildGraphqlSchema(fixtureModel())));
  const v4 = entries(V4_SDL);

  it('has every type and field v4 has, except the listed deviations', () => {
    expect(v4.length).toBeGreaterThan(800);
    expect(difference(v4, tessera)).toEqual(DEVIATIONS);
  });

  it('has nothing v4 does not have', () => {
    expect(difference(tessera, v4)).toEqual([]);
  });

  it('has no private attribute, password or creator field in an output type or a filter', () => {
    expect(hiddenFieldsReached(buildGraphqlSchema(fixtureModel()), HIDDEN)).toEqual([]);
  });
});

const HIDDEN = ['secret', 'password', 'resetPasswordToken', 'confirmationToken', 'createdBy', 'updatedBy', 'folder', 'folderPath'];

/** `Type.field` of output types and `…FiltersInput`s named in `names` (writable inputs may name them, as in v4) */
function hiddenFieldsReached(schema: GraphQLSchema, names: string[]): string[] {
  const found: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || (isInputObjectType(type) && type.name.endsWith('FiltersInput')))) continue;
    for (const field of Object.keys(type.getFields())) if (names.includes(field)) found.push(`${type.name}.${field}`);
  }
  return found;
}

describe('the schema the endpoint serves', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startFixtureApp(false);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("introspected over HTTP, equals v4's but for the listed deviations", async () => {
    const served = entries(await sdlOverHttp(app.url));
    expect(difference(entries(V4_SDL), served)).toEqual(DEVIATIONS);
    expect(difference(served, entries(V4_SDL))).toEqual([]);
  });
});

describe('options', () => {
  it('shadowCRUD false generates no content-type types or operations', () => {
    const sdl = printSchema(buildGraphqlSchema(fixtureModel(), { shadowCRUD: false }));
    expect(sdl).not.toMatch(/\b(Article|UploadFile|UsersPermissions\w*|I18NLocale)\b/);
    expect(sdl).not.toMatch(/type Mutation/);
    expect(sdl).toMatch(/type Query \{\n {2}ok: Boolean!\n\}/);
  });

  it('config/api.js responses.privateAttributes hides those attributes in every type and filter', () => {
    const schema = buildGraphqlSchema(fixtureModel(), { privateAttributes: ['slug'] });
    expect(hiddenFieldsReached(schema, ['slug'])).toEqual([]);
    expect(hiddenFieldsReached(buildGraphqlSchema(fixtureModel()), ['slug'])).toEqual([
      'ArticleFiltersInput.slug', 'Article.slug', 'CategoryFiltersInput.slug', 'Category.slug', 'PageFiltersInput.slug', 'Page.slug',
    ]);
    expect(Object.keys((schema.getType('ArticleInput') as GraphQLInputObjectType).getFields())).toContain('slug');
  });
});

describe('tessera graphql:schema [dir]', () => {
  let dir: string;
  beforeAll(() => {
    dir = copyFixtureApp(false);
  });
  afterAll(() => {
    vi.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints the SDL of the project', async () => {
    let out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
    let code: number;
    try {
      code = await main(['graphql:schema', dir]);
    } finally {
      spy.mockRestore();
    }
    expect(code).toBe(0);
    expect(out).toBe(`${printSchema(buildGraphqlSchema(fixtureModel()))}\n`);
    expect(difference(entries(V4_SDL), entries(out))).toEqual(DEVIATIONS);
  });
});
