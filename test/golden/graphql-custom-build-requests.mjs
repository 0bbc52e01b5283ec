#!/usr/bin/env node
// Writes the request list of the GraphQL customization golden (test/golden/graphql-custom.requests.json):
//   node test/golden/graphql-custom-build-requests.mjs
// then record it on real Strapi 4.26.2 serving test/fixtures/graphql-custom-app (its README). Each customization
// of that project is exercised allowed and blocked, as Public ('none'), with the full-access token ('token') and
// as the fixture's `reader` user (Authenticated role: no content permissions; a fixed JWT, as in
// graphql-build-requests.mjs). The writes come last and touch article 3 only.
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const READER_JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6MSwiaWF0IjoxNjAwMDAwMDAwLCJleHAiOjQxMDI0NDQ4MDB9.2u9k8KGqrZWGoTOSeyyWi38NjOqOS-TQ8eM1N1Y45ZQ';
const oneLine = (q) => q.replace(/\s+/g, ' ').trim();
const list = [];
/** as: 'none' (Public), 'token' (full-access API token), 'jwt' (reader, Authenticated role) */
function q(name, as, query, { variables, headers } = {}) {
  const r = { name, method: 'POST', url: '/graphql', body: { query: oneLine(query), ...(variables && { variables }) } };
  if (as === 'none' || as === 'jwt') r.auth = 'none';
  if (as === 'jwt') headers = { authorization: `Bearer ${READER_JWT}`, ...headers };
  if (headers) r.headers = headers;
  list.push(r);
}
const KEY = { 'x-reader-key': 'open-sesame' };

// getters and switches
q('getters as the extension factory sees them', 'none', '{ shadowCrudReport }');
q('disable(): homepage query gone', 'none', '{ homepage { data { id } } }');
q('disableQueries() on a plugin uid: uploadFolders gone', 'none', '{ uploadFolders { data { id } } }');
q('disableMutations(): createAuthor gone', 'token', 'mutation { createAuthor(data: { name: "x" }) { data { id } } }');
q('disableAction(delete): deleteCategory gone', 'token', 'mutation { deleteCategory(id: 1) { data { id } } }');
q('disableActions([update, delete]): updatePage gone', 'token', 'mutation { updatePage(id: 1, data: { title: "x" }) { data { id } } }');
q('pruned and kept types', 'none', `{ authorInput: __type(name: "AuthorInput") { name } homepage: __type(name: "Homepage") { name }
  folders: __type(name: "UploadFolderEntityResponseCollection") { name } folder: __type(name: "UploadFolder") { name }
  named: __type(name: "Named") { kind possibleTypes { name } } percent: __type(name: "Percent") { kind description } }`);
q('field disable(): gone from output', 'none', '{ articles(pagination: { limit: 2 }) { data { id attributes { title rating } } } }');
q('field disable(): gone from filters', 'none', '{ articles(filters: { rating: { gt: 2 } }) { data { id } } }');
q('field disable(): gone from input', 'token', 'mutation { updateArticle(id: 1, data: { rating: 5 }) { data { id } } }');
q('disableInput(): views not writable', 'token', 'mutation { updateArticle(id: 1, data: { views: 5 }) { data { id } } }');
q('disableOutput(): author email not selectable', 'none', '{ author(id: 1) { data { id attributes { name email } } } }');
q('disableOutput(): author email still filters', 'none', '{ authors(filters: { email: { eq: "author1@example.com" } }) { data { id attributes { name } } } }', { headers: KEY });
q('disableFilters(): category priority not a filter', 'none', '{ categories(filters: { priority: { gt: 20 } }) { data { id } } }');

// a custom query answering an entity response
const ARTICLE_DEEP = `data { id attributes { title titleLength views body
  author { data { id attributes { name articleCount } } }
  categories(sort: "name:asc") { data { id attributes { name label } } }
  cover { data { id attributes { name } } } seo { metaTitle shareImage { data { id } } }
  blocks { __typename ... on ComponentBlocksText { id body } } editorPick { data { id } } } }`;
q('articleBySlug: relations, media, components resolve (Public; body blocked by policy)', 'none', `{ articleBySlug(slug: "art-3") { ${ARTICLE_DEEP} } }`);
q('articleBySlug with the token', 'token', `{ articleBySlug(slug: "art-3") { ${ARTICLE_DEEP} } }`);
q('articleBySlug: scope the reader lacks', 'jwt', '{ articleBySlug(slug: "art-1") { data { id } } }');
q('articleBySlug: a draft (entityService reads drafts)', 'none', '{ articleBySlug(slug: "art-7") { data { id attributes { title publishedAt } } } }');
q('articleBySlug: no match', 'none', '{ articleBySlug(slug: "nope") { data { id } } }');
q('articleBySlug: variables', 'none', 'query Q($slug: String!) { articleBySlug(slug: $slug) { data { id attributes { title } } } }', { variables: { slug: 'art-10' } });
q('articleBySlug: required argument missing', 'none', '{ articleBySlug { data { id } } }');

// a custom collection query with a named policy
q('topArticles: named policy blocks Public', 'none', '{ topArticles { data { id } } }');
q('topArticles with the token, meta counted from the given args', 'token', '{ topArticles(limit: 2) { data { id attributes { title views } } meta { pagination { total page pageSize pageCount } } } }');
q('topArticles: GraphQL filters through the v4 mapper', 'token', `{ topArticles(limit: 5, filters: { or: [{ author: { name: { eq: "Author basil" } } }, { title: { startsWith: "jade" } }], not: { views: { lt: 1000 } } })
  { data { id attributes { title views author { data { attributes { name } } } } } meta { pagination { total } } } }`);
q('topArticles: the scope fails before the policy runs', 'jwt', '{ topArticles { data { id } } }');

// typeDefs: types, extend type Query, a field on a generated type; use() order
q('stats: auth false, the first use() config wins', 'none', '{ stats { articles authors categories } }');
q('stats: Stats.authors scope fails for the reader (non-null)', 'jwt', '{ stats { articles authors categories } }');
q('stats without the scoped field for the reader', 'jwt', '{ stats { articles categories } }');
q('ping: no auth config, Public refused, partial data', 'none', '{ stats { articles authors } ping whoami }');
q('ping: signed-in user, the later use() resolver wins', 'jwt', '{ ping }');
q('ping with the token', 'token', '{ ping }');

// the overridden generated resolver (core service, generated scope kept) with a configured named policy
q('categories override: default order, core service page size', 'none', '{ categories { data { id attributes { name label priority } } meta { pagination { total page pageSize pageCount } } } }');
q('categories override: sort and page', 'none', '{ categories(sort: "name:asc", pagination: { page: 2, pageSize: 2 }) { data { id attributes { name } } meta { pagination { total page pageSize pageCount } } } }');
q('categories override: filters', 'none', '{ categories(filters: { or: [{ name: { containsi: "lotus" } }, { articles: { id: { eq: 2 } } }] }) { data { id attributes { name } } meta { pagination { total } } } }');
q('categories: api policy with config throws its own PolicyError', 'none', '{ categories(pagination: { pageSize: 6 }) { data { id } } }');
q('categories: same policy for the token', 'token', '{ categories(pagination: { pageSize: 6 }) { data { id } } }');
q('categories: generated scope still applies', 'jwt', '{ categories { data { id } } }');
q('category findOne: not overridden, typeDefs field and middleware', 'none', '{ category(id: 2) { data { id attributes { name label priority articles(pagination: { limit: 2 }) { data { id attributes { title } } } } } } }');

// auth: false on a generated query
q('usersPermissionsRoles: auth false opens it to Public', 'none', '{ usersPermissionsRoles { data { id attributes { name type } } } }');
q('usersPermissionsRoles: nested users keep their scope', 'none', '{ usersPermissionsRoles { data { id attributes { name users { data { id } } } } } }');
q('usersPermissionsRoles: nested users with the token', 'token', '{ usersPermissionsRoles { data { id attributes { name users { data { id attributes { username } } } } } } }');
q('usersPermissionsRole: findOne stays forbidden', 'none', '{ usersPermissionsRole(id: 1) { data { id } } }');

// auth scope on a custom query, the request state
q('whoami: Public lacks the scope', 'none', '{ whoami }');
q('whoami: reader', 'jwt', '{ whoami }');
q('whoami: token', 'token', '{ whoami }');

// inline policy reading an HTTP header, a middleware changing the arguments
q('authors: header missing', 'none', '{ authors(pagination: { limit: 3 }) { data { id attributes { name } } } }');
q('authors: header present, middleware sorts newest first', 'none', '{ authors(pagination: { limit: 3 }) { data { id attributes { name } } } }', { headers: KEY });
q('authors: explicit sort kept, computed field, meta', 'none', '{ authors(sort: "name:asc", pagination: { limit: 3 }) { data { id attributes { name articleCount } } meta { pagination { total } } } }', { headers: KEY });
q('authors: wrong header value with the token', 'token', '{ authors(pagination: { limit: 2 }) { data { id } } }', { headers: { 'x-reader-key': 'wrong' } });
q('authors: header name in another case', 'token', '{ authors(pagination: { limit: 2 }) { data { id } } }', { headers: { 'X-Reader-Key': 'open-sesame' } });
q('author findOne: no header needed, nested computed fields', 'none', '{ author(id: 1) { data { id attributes { name articleCount articles(pagination: { limit: 2 }) { data { id attributes { title titleLength } } } } } } }');

// named middleware with options, nested field policy, nexus types
q('pages: named middleware on Page.title', 'none', '{ pages(pagination: { limit: 3 }) { data { id attributes { title locale } } } }');
q('page findOne: middleware on nested localizations too', 'none', '{ page(id: 2) { data { id attributes { title localizations { data { id attributes { title locale } } } } } } }');
q('articles: nested field policy blocks body for Public', 'none', '{ articles(pagination: { limit: 2 }) { data { id attributes { title body } } } }');
q('articles: body for the token', 'token', '{ articles(pagination: { limit: 2 }) { data { id attributes { title body } } } }');
q('articles: computed field without its source field selected', 'none', '{ articles(pagination: { limit: 3 }) { data { id attributes { titleLength } } } }');
q('authorCards: objectType, interface, scalar, list', 'none', '{ authorCards { __typename id name shareOfArticles titles } }');
q('authorCards: fragment on the interface', 'none', '{ authorCards(first: 2) { ... on Named { name } __typename } }');

// mutations (each on article 3, in order)
q('bumpViews: mutationField, input object, default enum', 'none', 'mutation { bumpViews(id: 3, input: { by: 10 }) { data { id attributes { title views author { data { attributes { name } } } } } } }');
q('bumpViews: inline policy on args blocks', 'none', 'mutation { bumpViews(id: 3, input: { by: 0 }) { data { id attributes { views } } } }');
q('bumpViews: variables, enum DOWN, token', 'token', 'mutation M($id: ID!, $input: BumpViewsInput!) { bumpViews(id: $id, input: $input) { data { id attributes { views } } } }', { variables: { id: '3', input: { by: 5, direction: 'DOWN' } } });
q('bumpViews: reader lacks the update scope', 'jwt', 'mutation { bumpViews(id: 3, input: { by: 5 }) { data { id } } }');
q('bumpViews: NotFoundError thrown by the resolver', 'none', 'mutation { bumpViews(id: 999, input: { by: 5 }) { data { id } } }');
q('bumpViews: unknown enum value', 'none', 'mutation { bumpViews(id: 3, input: { by: 1, direction: SIDEWAYS }) { data { id } } }');
q('updateArticle: generated mutation, computed field in its answer', 'none', 'mutation { updateArticle(id: 3, data: { title: "renamed" }) { data { id attributes { title titleLength views } } } }');
q('article after the writes', 'none', '{ article(id: 3) { data { id attributes { title views } } } }');

const names = new Set();
for (const r of list) { if (names.has(r.name)) throw new Error(`duplicate ${r.name}`); names.add(r.name); }
fs.writeFileSync(path.join(here, 'graphql-custom.requests.json'), `[\n${list.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
console.log(`graphql-custom: ${list.length} requests`);
