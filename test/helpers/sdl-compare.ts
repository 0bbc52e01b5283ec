// Comparing a GraphQL schema with the SDL real Strapi 4.26.2 served (dumped by shared/tools/dump-sdl.js:
// introspection -> buildClientSchema -> printSchema). Both sides are printed that way and compared entry by entry:
// every type with its kind, description, members or values, and every field with its description, arguments,
// nullability and defaults.
import {
  buildClientSchema, buildSchema, getIntrospectionQuery, graphqlSync, lexicographicSortSchema, parse, print, printSchema,
  type DefinitionNode, type GraphQLSchema, type IntrospectionQuery,
} from 'graphql';
import { expect } from 'vitest';

/**
 * In v4's schema, not in Tessera's: private attributes in `…FiltersInput` (v4 lists them, then rejects a query
 * that uses them; Tessera leaves them out so they cannot be reached through filters). docs/compatibility.md.
 */
export const DEVIATIONS = [
  'AuthorFiltersInput.secret: StringFilterInput',
  'UploadFileFiltersInput.folder: UploadFolderFiltersInput',
  'UploadFileFiltersInput.folderPath: StringFilterInput',
  'UsersPermissionsUserFiltersInput.confirmationToken: StringFilterInput',
  'UsersPermissionsUserFiltersInput.password: StringFilterInput',
  'UsersPermissionsUserFiltersInput.resetPasswordToken: StringFilterInput',
];

/** what a client sees: introspected and printed as dump-sdl.js prints it */
export function servedSdl(schema: GraphQLSchema): string {
  const result = graphqlSync({ schema, source: getIntrospectionQuery() });
  expect(result.errors).toBeUndefined();
  return printSchema(buildClientSchema(result.data as unknown as IntrospectionQuery));
}

/** the SDL a running server's endpoint serves, introspected over HTTP as dump-sdl.js does */
export async function sdlOverHttp(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: getIntrospectionQuery() }) });
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: IntrospectionQuery };
  return printSchema(buildClientSchema(data));
}

/** `Type` (kind, description, members) and `Type.field` (description, arguments, defaults) entries, sorted */
export function entries(sdl: string): string[] {
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

/** the entries of `a` that `b` does not have */
export function difference(a: string[], b: string[]): string[] {
  const inB = new Set(b);
  return a.filter((e) => !inB.has(e));
}
