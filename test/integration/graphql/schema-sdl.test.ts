// The GraphQL schema Tessera builds for the fixture app against the one real Strapi 4.26.2 serves for it
// (test/fixtures/strapi4-app/schema.graphql, dumped by shared/tools/dump-sdl.js: introspection ->
// buildClientSchema -> printSchema). Both are printed that way and compared entry by entry: every type with its
// kind, description, members or values, and every field with its description, arguments, nullability and
// defaults. The only differences allowed are the listed deviations.
import fs from 'node:fs';
import path from 'node:path';
import {
  buildClientSchema, buildSchema, getIntrospectionQuery, graphqlSync, lexicographicSortSchema, parse, print, printSchema,
  isInputObjectType, isObjectType,
  type DefinitionNode, type GraphQLInputObjectType, type GraphQLSchema, type IntrospectionQuery,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { buildGraphqlSchema } from '../../../src/graphql/schema/build-schema';
import { copyFixtureApp, startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { FIXTURE_APP, fixtureModel } from '../../helpers/fixture-model';

const V4_SDL = fs.readFileSync(path.join(FIXTURE_APP, 'schema.graphql'), 'utf8');

/**
 * In v4's schema, not in Tessera's: private attributes in `…FiltersInput` (v4 lists them, then rejects a query
 * that uses them; Tessera leaves them out so they cannot be reached through filters). docs/compatibility.md.
 */
const DEVIATIONS = [
  'AuthorFiltersInput.secret: StringFilterInput',
  'UploadFileFiltersInput.folder: UploadFolderFiltersInput',
  'UploadFileFiltersInput.folderPath: StringFilterInput',
  'UsersPermissionsUserFiltersInput.confirmationToken: StringFilterInput',
  'UsersPermissionsUserFiltersInput.password: StringFilterInput',
  'UsersPermissionsUserFiltersInput.resetPasswordToken: StringFilterInput',
];

/** what a client sees: introspected and printed as dump-sdl.js prints it */
function servedSdl(schema: GraphQLSchema): string {
  const result = graphqlSync({ schema, source: getIntrospectionQuery() });
  expect(result.errors).toBeUndefined();
  return printSchema(buildClientSchema(result.data as unknown as IntrospectionQuery));
}

/** `Type` (kind, description, members) and `Type.field` (description, arguments, defaults) entries, sorted */
function entries(sdl: string): string[] {
  const sorted = printSchema(lexicographicSortSchema(buildSchema(sdl)));
  const out: string[] = [];
  for (const def of parse(sorted).definitions as DefinitionNode[]) {
    if (!('name' in def) || !def.name) continue;
    const members = 'fields' in def ? def.fields : 'values' in def ? def.values : undefined;
    out.push(print({ ...def, ...(members ? { fields: undefined, values: undefined } : {}) } as DefinitionNode));
    for (const m of members ?? []) out.push(`${def.name.value}.${print(m).replace(/\n\s*/g, ' ')}`);
  }
  return out.sort();
}

function difference(a: string[], b: string[]): string[] {
  const inB = new Set(b);
  return a.filter((e) => !inB.has(e));
}

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
    const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: getIntrospectionQuery() }) });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: IntrospectionQuery };
    const served = entries(printSchema(buildClientSchema(data)));
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
