// GraphQL extensions (issue 15): every key of the extension service's `use()` on a copy of the fixture app whose
// register() runs test/fixtures/graphql-extension-app/src/graphql-extension.js (nexus types over generated ones,
// typeDefs, nexus plugins, resolvers and overrides, resolversConfig auth, policies and middlewares, the format
// and utils services). The schema and the answers asserted here are the ones Strapi 4.26.2 served for the same
// project (a copy of shared/strapi4 with the same files, asked the same operations on 2026-11-25; its SDL dumped
// into schema.graphql there by shared/tools/dump-sdl.js), but for its development stack traces.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { FIXTURE_APP } from '../../helpers/fixture-model';
import { DEVIATIONS, difference, entries, sdlOverHttp } from '../../helpers/sdl-compare';

const EXTENSION_APP = path.resolve(__dirname, '../../fixtures/graphql-extension-app');
const FIXTURE_INDEX = fs.readFileSync(path.join(FIXTURE_APP, 'src/index.js'), 'utf8');

/** the fixture app's src/index.js with code added to its register() and bootstrap() */
function indexWith(register: string, bootstrap = ''): string {
  const out = FIXTURE_INDEX
    .replace('register(/* { strapi } */) {},', `register({ strapi }) {\n${register}\n  },`)
    .replace('async bootstrap({ strapi }) {\n', `async bootstrap({ strapi }) {\n${bootstrap}\n`);
  if (!out.includes(register) || !out.includes(bootstrap)) throw new Error('the fixture app\'s src/index.js changed: update indexWith');
  return out;
}

/** the extension project's files (relative path -> text) */
function extensionFiles(dir = path.join(EXTENSION_APP, 'src'), rel = 'src'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) Object.assign(out, extensionFiles(path.join(dir, e.name), `${rel}/${e.name}`));
    else out[`${rel}/${e.name}`] = fs.readFileSync(path.join(dir, e.name), 'utf8');
  }
  return out;
}

interface Answer {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: Array<Record<string, unknown>> };
}

async function gql(app: RunningApp, query: string, opts: { token?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }), signal: AbortSignal.timeout(20_000) });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

const FORBIDDEN = { message: 'Forbidden access', extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' } };
const POLICY_FAILED = { message: 'Policy Failed', extensions: { error: { name: 'PolicyError', message: 'Policy Failed', details: {} }, code: 'FORBIDDEN' } };

describe('use() on the fixture app', () => {
  let app: RunningApp;
  const ask = (query: string, opts?: Parameters<typeof gql>[2]) => gql(app, query, opts);
  beforeAll(async () => {
    // a use() in bootstrap comes after v4 built the schema: ignored
    const late = "strapi.plugin('graphql').service('extension').use(({ nexus }) => ({ types: [nexus.queryField('lateQuery', { type: 'String', resolve: () => 'late' })] }));";
    app = await startFixtureApp(true, { edit: { ...extensionFiles(), 'src/index.js': indexWith("    require('./graphql-extension')(strapi);", late) } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("serves the schema Strapi 4.26.2 served for it (schema.graphql there), but for the fixture app's listed deviations", async () => {
    const v4 = entries(fs.readFileSync(path.join(EXTENSION_APP, 'schema.graphql'), 'utf8'));
    const served = entries(await sdlOverHttp(app.url));
    expect(difference(v4, served)).toEqual(DEVIATIONS);
    expect(difference(served, v4)).toEqual([]);
  });

  it('typeDefs: a plain `type Query` merges with the generated one; resolvers: the later use() wins; a nexus plugin wraps', async () => {
    expect(await ask('{ hello(name: "x") }')).toEqual({ status: 200, body: { data: { hello: 'hi x!' } } });
    // an extension's operation without config: v4's default check (no scope), which Public fails
    expect(await ask('{ tally { articles } }')).toEqual({ status: 200, body: { errors: [FORBIDDEN], data: { tally: null } } });
    expect((await ask('{ tally { articles } }', { token: app.token })).body).toEqual({ data: { tally: { articles: 60 } } });
  });

  it('nexus types: enum, scalar, input object with a default, interface, union, queryField, list and nonNull', async () => {
    expect((await ask('{ echo(input: { text: " hey ", nums: [1] }) { id text mood nums } }')).body)
      .toEqual({ data: { echo: { id: '1', text: 'HEY', mood: 'HAPPY', nums: [1, 99] } } });
    expect((await ask('{ things { __typename ... on Echo { text mood nums } ... on Note { id note } } }')).body)
      .toEqual({ data: { things: [{ __typename: 'Echo', text: 'A', mood: 'SAD', nums: [1] }, { __typename: 'Note', id: '2', note: 'n' }] } });
  });

  it('middlewares run in their order, then the policies (an inline one sees the args the middlewares passed on)', async () => {
    expect(await ask('{ echo(input: { text: " blocked " }) { id text } }')).toEqual({ status: 200, body: { errors: [POLICY_FAILED], data: { echo: null } } });
  });

  it('a custom query answering toEntityResponse gets the generated fields below it: relations, media, components, computed fields', async () => {
    const query = '{ articleByTitle(title: "nectar lotus 3") { data { id attributes { title shout idPlusOne slugFromParent author { data { id attributes { name } } } categories(sort: "id:asc") { data { id attributes { name } } } cover { data { id attributes { name } } } seo { metaTitle } } } } }';
    // `shout` needs a scope Public lacks (`Article.shout` auth): the error at that field only
    expect(await ask(query)).toEqual({
      status: 200,
      body: {
        errors: [FORBIDDEN],
        data: {
          articleByTitle: {
            data: {
              id: '4',
              attributes: {
                title: 'nectar lotus 3 * #', shout: null, idPlusOne: 5, slugFromParent: '[art-3]',
                author: { data: { id: '5', attributes: { name: 'Author ember' } } },
                categories: { data: [{ id: '1', attributes: { name: 'Cat pearl' } }, { id: '3', attributes: { name: 'Cat nectar' } }] },
                cover: { data: { id: '2', attributes: { name: 'portrait.png' } } },
                seo: { metaTitle: 'SEO 3' },
              },
            },
          },
        },
      },
    });
    expect((await ask('{ articleByTitle(title: "nope") { data { id } } }')).body).toEqual({ data: { articleByTitle: { data: null } } });
  });

  it('toEntityResponseCollection of a promise: meta.pagination counted from info.args, relations read once for all entities', async () => {
    const latest = (limit: number) => `{ latestArticles(limit: ${limit}) { data { id attributes { title author { data { id } } } } meta { pagination { total page pageSize pageCount } } } }`;
    expect((await ask(latest(2))).body).toEqual({
      data: {
        latestArticles: {
          data: [
            { id: '60', attributes: { title: 'nectar amber 59 * #', author: { data: { id: '4' } } } },
            { id: '59', attributes: { title: 'jade dune 58 * #', author: { data: { id: '2' } } } },
          ],
          meta: { pagination: { total: 60, page: 1, pageSize: 2, pageCount: 30 } },
        },
      },
    });
    const statements = async (query: string) => {
      await ask(query);
      const before = app.app.db.statementCount;
      expect((await ask(query)).body.errors).toBeUndefined();
      return app.app.db.statementCount - before;
    };
    const nested = (limit: number) => `{ latestArticles(limit: ${limit}) { data { id attributes { author { data { id } } categories { data { id } } cover { data { id } } seo { metaTitle } blocks { __typename } } } } }`;
    expect(await statements(nested(1))).toBe(await statements(nested(30)));
  });

  it('meta.pagination of info.args without start and limit fails at `page`, as in v4 (NaN)', async () => {
    expect((await ask('{ rawArgs { data { id } meta { pagination { total } } } }')).body).toEqual({ data: { rawArgs: { data: [{ id: '1' }, { id: '2' }], meta: { pagination: { total: 60 } } } } });
    expect(await ask('{ rawArgs { meta { pagination { total page } } } }')).toEqual({
      status: 200,
      body: {
        errors: [{ message: 'Int cannot represent non-integer value: NaN', extensions: { code: 'INTERNAL_SERVER_ERROR' }, locations: [{ line: 1, column: 39 }], path: ['rawArgs', 'meta', 'pagination', 'page'] }],
        data: { rawArgs: null },
      },
    });
  });

  it('auth: v4\'s default for an extension operation, `false`, a scope replacing the generated one', async () => {
    expect((await ask('{ defaultAuth }')).body).toEqual({ errors: [FORBIDDEN], data: { defaultAuth: null } });
    expect((await ask('{ defaultAuth }', { token: app.token })).body).toEqual({ data: { defaultAuth: 'ok' } });
    // Public has no users-permissions permission
    expect((await ask('{ usersPermissionsUsers(pagination: { limit: 1 }) { data { id } } }')).body).toEqual({ data: { usersPermissionsUsers: { data: [{ id: '1' }] } } });
    expect((await ask('{ usersPermissionsRoles { data { id attributes { type } } } }')).body)
      .toEqual({ data: { usersPermissionsRoles: { data: [{ id: '1', attributes: { type: 'authenticated' } }, { id: '2', attributes: { type: 'public' } }] } } });
    // `Type.field` auth: a scope on a field of a generated type
    expect((await ask('{ article(id: 1) { data { id attributes { title shout } } } }')).body)
      .toEqual({ errors: [FORBIDDEN], data: { article: { data: { id: '1', attributes: { title: 'jade ember 0 * #', shout: null } } } } });
    expect((await ask('{ article(id: 1) { data { id attributes { shout } } } }', { token: app.token })).body)
      .toEqual({ data: { article: { data: { id: '1', attributes: { shout: 'JADE EMBER 0' } } } } });
  });

  it('a named global policy reads the request headers (`http`); resolvers read v4\'s context.state', async () => {
    expect((await ask('{ viewer }')).body).toEqual({ errors: [POLICY_FAILED], data: { viewer: null } });
    expect((await ask('{ viewer }', { headers: { 'x-key': 'open' } })).body).toEqual({ data: { viewer: 'users-permissions:none' } });
    expect((await ask('{ viewer }', { token: app.token, headers: { 'x-key': 'open' } })).body).toEqual({ data: { viewer: 'api-token:credentials' } });
  });

  it('generated operations: a middleware changing the args, a resolver override keeping its scope', async () => {
    expect((await ask('{ articles(pagination: { limit: 2 }) { data { id attributes { title slugFromParent } } } }')).body).toEqual({
      data: { articles: { data: [{ id: '60', attributes: { title: 'nectar amber 59 * #', slugFromParent: '[art-59]' } }, { id: '59', attributes: { title: 'jade dune 58 * #', slugFromParent: '[art-58]' } }] } },
    });
    expect((await ask('{ author(id: 2) { data { id attributes { name articles(pagination: { limit: 1 }) { data { id } } } } } }')).body)
      .toEqual({ data: { author: { data: { id: '2', attributes: { name: 'Author basil', articles: { data: [{ id: '12' }] } } } } } });
  });

  it('the utils service names types as the schema does; factories get the type registry', async () => {
    expect((await ask('{ names registryKnowsArticle }')).body).toEqual({
      data: {
        names: {
          type: 'Article', plural: 'Articles', entity: 'ArticleEntity', collection: 'ArticleEntityResponseCollection', relation: 'ArticleRelationResponseCollection',
          find: 'articles', findOne: 'article', create: 'createArticle', filters: 'ArticleFiltersInput', input: 'ArticleInput', enum: 'ENUM_ARTICLE_KIND',
          dynamicZone: 'ArticleBlocksDynamicZone', component: 'ComponentSharedSeo', scalar: 'String',
          filtersMapped: { title: { $containsi: 'a' }, author: { name: { $eq: 'b' } }, $or: [{ views: { $gt: 1 } }] }, isRelation: true,
        },
        registryKnowsArticle: true,
      },
    });
  });

  it('a use() in bootstrap is ignored, as in v4 (the schema was built before)', async () => {
    const answer = await ask('{ lateQuery }');
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0].message).toBe('Cannot query field "lateQuery" on type "Query". Did you mean "category"?');
  });

  it('a mutationField with a scope and a named api policy with config, which throws its own PolicyError', async () => {
    expect((await ask('mutation { renameArticle(id: 1, title: "renamed") { data { id attributes { title } } } }')).body)
      .toEqual({ data: { renameArticle: { data: { id: '1', attributes: { title: 'renamed * #' } } } } });
    expect((await ask('mutation { renameArticle(id: 1, title: "locked") { data { id } } }')).body).toEqual({
      errors: [{ message: '"locked" is not a title', extensions: { error: { name: 'PolicyError', message: '"locked" is not a title', details: { title: 'locked' } }, code: 'FORBIDDEN' } }],
      data: { renameArticle: null },
    });
  });
});

describe('start-up', () => {
  const start = (register: string) => startFixtureApp(true, { edit: { 'src/index.js': indexWith(register) } });
  const use = (extension: string) => `    strapi.plugin('graphql').service('extension').use(${extension});`;

  it('stops on a broken extension, naming the type and field', async () => {
    await expect(start(use("({ nexus }) => ({ types: [nexus.extendType({ type: 'Article', definition(t) { t.field('oops', { type: 'Nope' }); } })] })")))
      .rejects.toThrow('GraphQL extension: unknown type "Nope" (used by Article.oops)');
    await expect(start(use("{ typeDefs: 'extend type Query { broken(id: ID): Nowhere }' }"))).rejects.toThrow('GraphQL extension: unknown type "Nowhere" (used by Query.broken)');
    await expect(start(use('{ resolvers: { Query: { nope: () => 1 } } }'))).rejects.toThrow('GraphQL extension: Query.nope defined in resolvers, but not in schema');
  });

  it('stops on a resolversConfig naming a policy or middleware that does not exist', async () => {
    await expect(start(use("{ resolversConfig: { 'Query.articles': { policies: ['global::nope'] } } }"))).rejects.toThrow('policy "global::nope" does not exist');
    await expect(start(use("{ resolversConfig: { 'Article.title': { middlewares: ['global::nope'] } } }"))).rejects.toThrow('GraphQL resolversConfig "Article.title": middleware "global::nope" does not exist');
  });
});
