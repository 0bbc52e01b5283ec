// v4's shadow-CRUD switches (issue 15 part 1): test/fixtures/graphql-switches-app/src/index.js turns parts of the
// fixture app's schema off in register(); the schema Tessera serves for it equals the one real Strapi 4.26.2
// serves for the same register (test/fixtures/graphql-switches-app/schema.graphql, dumped by dump-sdl.js) but
// for the fixture app's deviations, and `tessera graphql:schema` prints it. The getters answer as v4's, a
// switched-off operation is a document error while the others answer, and where v4 fails to start (a
// switched-off component, media, users or roles still referred to) Tessera leaves the referring fields out.
import fs from 'node:fs';
import path from 'node:path';
import { printSchema, type GraphQLInputObjectType, type GraphQLObjectType, type GraphQLUnionType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { createExtensionService, type ExtensionService } from '../../../src/graphql/extension/extension-service';
import { buildGraphqlSchema } from '../../../src/graphql/schema/build-schema';
import { createGraphqlExtension } from '../../../src/plugins/graphql';
import { copyFixtureApp, startFixtureApp, type RunningApp } from '../../helpers/fixture-app';
import { fixtureModel } from '../../helpers/fixture-model';
import { gql } from '../../helpers/gql';
import { DEVIATIONS, difference, entries, sdlOverHttp } from '../../helpers/sdl-compare';

const APP = path.resolve(__dirname, '../../fixtures/graphql-switches-app');
const INDEX_JS = fs.readFileSync(path.join(APP, 'src/index.js'), 'utf8');
const V4_SDL = fs.readFileSync(path.join(APP, 'schema.graphql'), 'utf8');

describe('the switches app', () => {
  let app: RunningApp;
  let extension: ExtensionService;
  beforeAll(async () => {
    app = await startFixtureApp(true, { edit: { 'src/index.js': INDEX_JS } });
    extension = app.app.strapi.plugin('graphql').service('extension') as ExtensionService;
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("serves v4's schema for the same register(), but for the fixture app's deviations", async () => {
    const served = entries(await sdlOverHttp(app.url));
    expect(served.length).toBeGreaterThan(600);
    expect(difference(entries(V4_SDL), served)).toEqual(DEVIATIONS);
    expect(difference(served, entries(V4_SDL))).toEqual([]);
  });

  it("answers v4's getters: the project's switches and the plugins' own", () => {
    const article = extension.shadowCRUD('api::article.article');
    expect([article.isEnabled(), article.isDisabled()]).toEqual([true, false]);
    expect([article.areQueriesEnabled(), article.areMutationsEnabled(), article.areMutationsDisabled()]).toEqual([true, true, false]);
    expect(['find', 'findOne', 'create', 'update', 'delete'].map((a) => article.isActionEnabled(a))).toEqual([true, true, false, true, false]);
    expect(article.isActionDisabled('delete')).toBe(true);
    const field = (name: string) => {
      const f = article.field(name);
      return [f.isEnabled(), f.isDisabled(), f.hasOutputEnabled(), f.hasInputEnabled(), f.hasFiltersEnabeld(), f.hasFiltersEnabled()];
    };
    expect(field('body')).toEqual([false, true, false, false, false, false]);
    expect(field('views')).toEqual([true, false, false, true, true, true]);
    expect(field('rating')).toEqual([true, false, true, false, true, true]);
    expect(field('price')).toEqual([true, false, true, true, false, false]);
    expect(field('title')).toEqual([true, false, true, true, true, true]);

    expect(extension.shadowCRUD('api::category.category').isDisabled()).toBe(true);
    // v4: queries switched off leave the find actions on; they are separate switches
    const author = extension.shadowCRUD('api::author.author');
    expect([author.areQueriesDisabled(), author.isActionEnabled('find'), author.areMutationsEnabled()]).toEqual([true, true, true]);
    expect(extension.shadowCRUD('api::homepage.homepage').areMutationsDisabled()).toBe(true);
    expect(extension.shadowCRUD('api::page.page').isActionDisabled('findOne')).toBe(true);
    expect(extension.shadowCRUD('plugin::i18n.locale').isDisabled()).toBe(true);
    expect(extension.shadowCRUD('plugin::users-permissions.user').field('username').hasFiltersEnabeld()).toBe(false);
    // what users-permissions and i18n set in their register(), before the project's
    expect(extension.shadowCRUD('plugin::users-permissions.permission').areQueriesEnabled()).toBe(false);
    expect(extension.shadowCRUD('plugin::users-permissions.role').isActionEnabled('create')).toBe(false);
    expect(extension.shadowCRUD('api::page.page').field('locale').hasInputEnabled()).toBe(false);
  });

  it('refuses a document naming a switched-off operation, field or filter (400) and answers the others', async () => {
    const refused = [
      ['{ categories { data { id } } }', 'Cannot query field "categories" on type "Query".'],
      ['{ authors { data { id } } }', 'Cannot query field "authors" on type "Query".'],
      ['{ page(id: 1) { data { id } } }', 'Cannot query field "page" on type "Query".'],
      ['mutation { deleteArticle(id: 1) { data { id } } }', 'Cannot query field "deleteArticle" on type "Mutation".'],
      ['mutation { updateHomepage(data: { title: "x" }) { data { id } } }', 'Cannot query field "updateHomepage" on type "Mutation".'],
      ['{ articles { data { attributes { views } } } }', 'Cannot query field "views" on type "Article".'],
      ['{ articles(filters: { price: { gt: 1 } }) { data { id } } }', 'Field "price" is not defined by type "ArticleFiltersInput".'],
    ];
    for (const [query, message] of refused) {
      const answer = await gql(app.url, query, { token: app.token });
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors?.[0].message, query).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      expect(answer.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    }

    const articles = await gql(app.url, '{ articles(sort: "id:asc", pagination: { limit: 2 }) { data { id attributes { title author { data { attributes { name } } } } } } }', { token: app.token });
    expect(articles.status).toBe(200);
    expect(articles.body.errors).toBeUndefined();
    const list = (articles.body.data!.articles as { data: Array<{ id: string; attributes: { title: string } }> }).data;
    expect(list.map((a) => a.id)).toEqual(['1', '2']);
    expect(list[0].attributes.title).toBe('jade ember 0');

    const homepage = await gql(app.url, '{ homepage { data { attributes { title } } } }', { token: app.token });
    expect(homepage.body).toEqual({ data: { homepage: { data: { attributes: { title: 'Welcome' } } } } });

    // update stays (only create and delete were switched off); rating is no input any more
    const updated = await gql(app.url, 'mutation { updateArticle(id: 2, data: { title: "renamed" }) { data { id attributes { title } } } }', { token: app.token });
    expect(updated.body).toEqual({ data: { updateArticle: { data: { id: '2', attributes: { title: 'renamed' } } } } });
    const rating = await gql(app.url, 'mutation { updateArticle(id: 2, data: { rating: 1 }) { data { id } } }', { token: app.token });
    expect(rating.status).toBe(400);
  });
});

describe('tessera graphql:schema [dir]', () => {
  let dir: string;
  beforeAll(() => {
    dir = copyFixtureApp(false);
    fs.writeFileSync(path.join(dir, 'src/index.js'), INDEX_JS);
  });
  afterAll(() => {
    vi.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("prints the schema after the project's register()", async () => {
    let out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
    let code: number;
    try {
      code = await main(['graphql:schema', dir]);
    } finally {
      spy.mockRestore();
    }
    expect(code).toBe(0);
    expect(difference(entries(V4_SDL), entries(out))).toEqual(DEVIATIONS);
    expect(difference(entries(out), entries(V4_SDL))).toEqual([]);
  });
});

describe('the extension service', () => {
  it("has v4's shape: switches chain, `*` is every action, a field's disable() turns all four parts off", () => {
    const extension = createExtensionService();
    const crud = extension.shadowCRUD('api::x.x');
    expect(crud.disableQueries()).toBe(crud);
    expect(crud.isActionEnabled('find')).toBe(true);
    crud.disableActions(['*']);
    expect(['find', 'create', 'anything'].map((a) => crud.isActionEnabled(a))).toEqual([false, false, false]);
    const field = crud.field('a').disableFilters();
    expect([field.isEnabled(), field.hasFiltersEnabeld()]).toEqual([true, false]);
    field.disable();
    expect([field.isEnabled(), field.hasInputEnabled(), field.hasOutputEnabled(), field.hasFiltersEnabled()]).toEqual([false, false, false, false]);
    // the same state through another handle
    expect(extension.shadowCRUD('api::x.x').field('a').isDisabled()).toBe(true);
    expect(() => crud.disableActions('find' as never)).toThrow(TypeError);
    // use() keeps its arguments in order and only stores them
    const ext = { typeDefs: 'type X { a: Int }' };
    const fn = () => ({});
    expect(extension.use(ext).use(fn)).toBe(extension);
    expect(extension.registered()).toEqual([ext, fn]);
  });
});

describe('where v4 fails to start, the referring fields go', () => {
  const build = (configure: (e: ExtensionService) => void) => {
    const extension = createGraphqlExtension(fixtureModel());
    configure(extension);
    return buildGraphqlSchema(fixtureModel(), { extension });
  };
  const fields = (schema: ReturnType<typeof build>, name: string) => Object.keys((schema.getType(name) as GraphQLObjectType | GraphQLInputObjectType).getFields());

  it('a switched-off component: its fields, and its member of a dynamic zone', () => {
    const schema = build((e) => {
      e.shadowCRUD('shared.link').disable();
      e.shadowCRUD('blocks.quote').disable();
    });
    for (const type of ['Article', 'ArticleInput', 'ArticleFiltersInput']) expect(fields(schema, type)).not.toContain('links');
    expect(schema.getType('ComponentSharedLink')).toBeUndefined();
    expect((schema.getType('ArticleBlocksDynamicZone') as GraphQLUnionType).getTypes().map((t) => t.name)).toEqual(['ComponentBlocksText', 'ComponentBlocksGallery', 'Error']);
  });

  it("switched-off media: every media field and the upload mutations", () => {
    const schema = build((e) => e.shadowCRUD('plugin::upload.file').disable());
    expect(fields(schema, 'Article')).not.toContain('cover');
    expect(fields(schema, 'ArticleInput')).not.toContain('gallery');
    const sdl = printSchema(schema);
    expect(sdl).not.toMatch(/\bUploadFile\b|\bupload\(|multipleUpload|FileInfoInput/);
  });

  it('switched-off users or roles: the users-permissions mutations on them, login and the rest stay', () => {
    const schema = build((e) => e.shadowCRUD('plugin::users-permissions.role').disable());
    const mutations = fields(schema, 'Mutation');
    expect(mutations).not.toContain('createUsersPermissionsRole');
    expect(mutations).toContain('createUsersPermissionsUser');
    expect(mutations).toContain('login');
    expect(fields(schema, 'UsersPermissionsUser')).not.toContain('role');
    const noUsers = fields(build((e) => e.shadowCRUD('plugin::users-permissions.user').disable()), 'Mutation');
    expect(noUsers).not.toContain('createUsersPermissionsUser');
    expect(noUsers).toEqual(expect.arrayContaining(['createUsersPermissionsRole', 'register', 'login']));
  });

  it("an input with every field off is pruned with the arguments that took it, as v4's pruneSchema does", () => {
    const schema = build((e) => {
      for (const f of ['name', 'slug', 'priority', 'articles']) e.shadowCRUD('api::category.category').field(f).disableInput();
    });
    expect(schema.getType('CategoryInput')).toBeUndefined();
    const mutation = schema.getMutationType()!.getFields();
    expect(mutation.createCategory.args.map((a) => a.name)).toEqual([]);
    expect(mutation.updateCategory.args.map((a) => a.name)).toEqual(['id']);
  });
});
