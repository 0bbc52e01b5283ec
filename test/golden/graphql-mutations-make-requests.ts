// Writes the GraphQL write request lists (test/golden/graphql-{writes,users,upload}.requests.json): mutations on
// the fixture app's content types, the users-permissions operations and the upload operations (GraphQL multipart
// requests, the files embedded as base64). Queries are written here as text so the lists stay readable to edit.
//   npx tsx test/golden/graphql-mutations-make-requests.ts
// Each list is recorded on real Strapi 4.26.2 started with --fixture-data (test/fixtures/strapi4-app/README.md).
// Requests that show a v4 bug come last in their list: a server that refuses the write does not shift later ids.
import fs from 'node:fs';
import path from 'node:path';
import * as gen from '../integration/upload/fixtures';

type Req = Record<string, unknown>;
type Auth = { auth?: 'none' | 'jwt'; headers?: Record<string, string> };

/** a POST /graphql; `operationName` goes into the body, `auth` and `headers` onto the request */
const gql = (name: string, query: string, variables?: Record<string, unknown>, { operationName, ...extra }: Auth & { operationName?: string } = {}): Req => ({
  name, method: 'POST', url: '/graphql', body: { query, ...(variables && { variables }), ...(operationName && { operationName }) }, ...extra,
});
const asPublic = { auth: 'none' as const };
const asJwt = { auth: 'jwt' as const };
const badToken = { auth: 'none' as const, headers: { authorization: 'Bearer not-a-token' } };

// ---- graphql-writes: content-type mutations ------------------------------------------------------------

const ARTICLE = `data { id attributes {
  title slug body views rating price featured kind publishDate scheduledAt meta big publishedAt createdAt updatedAt
  author { data { id } } categories { data { id } } editorPick { data { id } } related(publicationState: PREVIEW) { data { id } }
  seo { id metaTitle metaDescription shareImage { data { id } } } links { id label url }
  blocks { __typename ... on ComponentBlocksText { id body } ... on ComponentBlocksQuote { id text by }
    ... on ComponentBlocksGallery { id title images { data { id } } } }
  cover { data { id } } gallery { data { id } } } }`;
const PAGE = `data { id attributes { title slug body order locale publishedAt
  localizations(publicationState: PREVIEW) { data { id attributes { locale title order } } } } }`;
const TWO_OPERATIONS = `mutation Other { deleteArticle(id: 1) { data { id } } }
  mutation Make($data: ArticleInput!) { createArticle(data: $data) { data { id attributes { title kind links { label } blocks { __typename } } } } }`;
const HOMEPAGE = 'data { id attributes { title hero { id metaTitle metaDescription } featured { data { id } } } }';

function writes(): Req[] {
  return [
    // creates (ids 61...: the fixture data has 60 articles)
    gql('create article with every scalar', `mutation { createArticle(data: { title: "G2 scalars", slug: "g2-scalars", body: "# body",
      views: 12, rating: 4.5, price: 19.99, featured: true, kind: review, publishDate: "2024-02-29",
      scheduledAt: "2024-03-01T10:00:00.000Z", meta: { a: [1, { b: 2 }], c: null }, big: "1234567890123" }) { ${ARTICLE} } }`),
    gql('create article with relations and media', `mutation { createArticle(data: { title: "G2 relations", author: 2,
      categories: [3, 1], editorPick: 5, related: [6, 7], cover: 1, gallery: [2, 3] }) { ${ARTICLE} } }`),
    gql('create article with components and a dynamic zone', `mutation { createArticle(data: { title: "G2 components",
      seo: { metaTitle: "G2 seo", metaDescription: "about", shareImage: 1 },
      links: [{ label: "one", url: "https://one.example" }, { label: "two" }],
      blocks: [{ __typename: "ComponentBlocksText", body: "hello" }, { __typename: "ComponentBlocksQuote", text: "q", by: "me" },
        { __typename: "ComponentBlocksGallery", title: "pics", images: [3, 2] }] }) { ${ARTICLE} } }`),
    gql('create article published at a given time', `mutation { createArticle(data: { title: "G2 published",
      publishedAt: "2025-01-02T03:04:05.000Z" }) { data { id attributes { title publishedAt } } } }`),
    gql('two operations without operationName', TWO_OPERATIONS, { data: { title: 'G2 no operationName' } }),
    gql('create article through variables and operationName', TWO_OPERATIONS,
      { data: { title: 'G2 variables', kind: 'opinion', links: [{ label: 'v' }], blocks: [{ __typename: 'ComponentBlocksText', body: 'v' }] } },
      { operationName: 'Make' }),
    gql('create article with an empty title', 'mutation { createArticle(data: { title: "" }) { data { id attributes { title } } } }'),
    gql('read back a created draft', `{ article(id: 63) { ${ARTICLE} } }`),
    gql('list the created articles (preview)', `{ articles(publicationState: PREVIEW, filters: { title: { startsWith: "G2" } }, sort: "id")
      { data { id attributes { title publishedAt } } meta { pagination { total } } } }`),
    gql('list the created articles (live)', `{ articles(filters: { title: { startsWith: "G2" } }, sort: "id")
      { data { id attributes { title } } meta { pagination { total } } } }`),
    // updates
    gql('update scalars only', 'mutation { updateArticle(id: 61, data: { title: "G2 scalars 2", views: 13, kind: news }) { ' + ARTICLE + ' } }'),
    gql('update relations', 'mutation { updateArticle(id: 62, data: { author: null, categories: [2], related: [], cover: null, gallery: [3] }) { ' + ARTICLE + ' } }'),
    gql('update components keeping a link id', `mutation { updateArticle(id: 63, data: { seo: { metaTitle: "G2 seo 2" },
      links: [{ id: 61, label: "one changed" }, { label: "three" }] }) { ${ARTICLE} } }`),
    gql('update the dynamic zone', `mutation { updateArticle(id: 63, data: { blocks: [{ __typename: "ComponentBlocksQuote", text: "only" }] }) { ${ARTICLE} } }`),
    gql('update clearing components', 'mutation { updateArticle(id: 63, data: { seo: null, links: [], blocks: [] }) { ' + ARTICLE + ' } }'),
    gql('publish by update', 'mutation { updateArticle(id: 61, data: { publishedAt: "2025-02-03T04:05:06.000Z" }) { data { id attributes { publishedAt } } } }'),
    gql('unpublish by update', 'mutation { updateArticle(id: 61, data: { publishedAt: null }) { data { id attributes { publishedAt } } } }'),
    gql('update a published fixture article', 'mutation { updateArticle(id: 2, data: { featured: false, rating: 1.5 }) { data { id attributes { title featured rating publishedAt } } } }'),
    gql('update an unknown id', 'mutation { updateArticle(id: 9999, data: { title: "x" }) { data { id } } }'),
    gql('update with an empty data object', 'mutation { updateArticle(id: 64, data: {}) { data { id attributes { title } } } }'),
    // deletes
    gql('delete an article with relations and components', `mutation { deleteArticle(id: 62) { ${ARTICLE} } }`),
    gql('read a deleted article', '{ article(id: 62) { data { id } } }'),
    gql('delete an unknown id', 'mutation { deleteArticle(id: 9999) { data { id } } }'),
    gql('delete a non-numeric id', 'mutation { deleteArticle(id: "abc") { data { id } } }'),
    // validation errors in the resolver (HTTP 200, BAD_USER_INPUT)
    gql('create without the required title', 'mutation { createArticle(data: { body: "no title" }) { data { id } } }'),
    gql('create with a null title', 'mutation { createArticle(data: { title: null }) { data { id } } }'),
    gql('create with an unknown author', 'mutation { createArticle(data: { title: "x", author: 9999 }) { data { id } } }'),
    gql('create with an unknown category among known ones', 'mutation { createArticle(data: { title: "x", categories: [1, 9999, 9998] }) { data { id } } }'),
    gql('create with an unknown cover', 'mutation { createArticle(data: { title: "x", cover: 9999 }) { data { id } } }'),
    gql('create with a component missing its required field', 'mutation { createArticle(data: { title: "x", seo: { metaDescription: "d" } }) { data { id } } }'),
    gql('create with a repeatable component item of the wrong shape', 'mutation($d: ArticleInput!) { createArticle(data: $d) { data { id } } }', { d: { title: 'x', links: [{ label: 5 }] } }),
    gql('create with a slug that breaks the uid pattern', 'mutation { createArticle(data: { title: "x", slug: "bad slug!" }) { data { id } } }'),
    gql('create with a slug already used', 'mutation { createArticle(data: { title: "x", slug: "art-0" }) { data { id } } }'),
    gql('create two in one document, the second failing', `mutation { a: createCategory(data: { name: "G2 cat", slug: "g2-cat" }) { data { id attributes { name slug priority } } }
      b: createCategory(data: { name: "G2 cat again", slug: "g2-cat" }) { data { id } } }`),
    gql('create a dynamic zone item without __typename', 'mutation { createArticle(data: { title: "x", blocks: [{ body: "b" }] }) { data { id } } }'),
    // document errors (HTTP 400)
    gql('create with an unknown input field', 'mutation { createArticle(data: { title: "x", nope: 1 }) { data { id } } }'),
    gql('create with a bad enum literal', 'mutation { createArticle(data: { title: "x", kind: bad }) { data { id } } }'),
    gql('create with a bad enum variable', 'mutation($d: ArticleInput!) { createArticle(data: $d) { data { id } } }', { d: { title: 'x', kind: 'bad' } }),
    gql('create with a string for an Int variable', 'mutation($d: ArticleInput!) { createArticle(data: $d) { data { id } } }', { d: { title: 'x', views: 'many' } }),
    gql('create with an invalid date', 'mutation { createArticle(data: { title: "x", publishDate: "2024-13-45" }) { data { id } } }'),
    gql('create with an invalid datetime', 'mutation { createArticle(data: { title: "x", scheduledAt: "yesterday" }) { data { id } } }'),
    gql('create with __component in a dynamic zone item', 'mutation { createArticle(data: { title: "x", blocks: [{ __component: "blocks.text", body: "b" }] }) { data { id } } }'),
    gql('create with an unknown __typename in a dynamic zone', 'mutation { createArticle(data: { title: "x", blocks: [{ __typename: "ComponentBlocksNope" }] }) { data { id } } }'),
    gql('create without the data argument', 'mutation { createArticle { data { id } } }'),
    gql('update without the id argument', 'mutation { updateArticle(data: { title: "x" }) { data { id } } }'),
    gql('an unknown mutation', 'mutation { createNothing(data: {}) { data { id } } }'),
    gql('a mutation with a syntax error', 'mutation { createArticle(data: { title: "x" }) { data { id } }'),
    // other collection types
    gql('create an author with a private attribute', 'mutation { createAuthor(data: { name: "G2 author", email: "g2@example.com", secret: "hidden", articles: [4] }) { data { id attributes { name email bio articles { data { id } } } } } }'),
    gql('update a category', 'mutation { updateCategory(id: 1, data: { name: "Cat renamed", priority: 5 }) { data { id attributes { name slug priority } } } }'),
    gql('delete a category', 'mutation { deleteCategory(id: 6) { data { id attributes { name articles { data { id } } } } } }'),
    // single type
    gql('read the homepage', `{ homepage { ${HOMEPAGE} } }`),
    gql('update the homepage', `mutation { updateHomepage(data: { title: "G2 home", hero: { metaTitle: "G2 hero" }, featured: [1, 2] }) { ${HOMEPAGE} } }`),
    gql('update the homepage with an unknown featured id', 'mutation { updateHomepage(data: { featured: [9999] }) { data { id } } }'),
    gql('delete the homepage', `mutation { deleteHomepage { ${HOMEPAGE} } }`),
    gql('delete the homepage again', 'mutation { deleteHomepage { data { id } } }'),
    gql('read the deleted homepage', `{ homepage { ${HOMEPAGE} } }`),
    gql('update the homepage creates it', `mutation { updateHomepage(data: { title: "G2 home again" }) { ${HOMEPAGE} } }`),
    // i18n pages (ids 9...: the fixture data has 8 pages)
    gql('create a page in the default locale', `mutation { createPage(data: { title: "G2 page", slug: "g2-page", order: 7 }) { ${PAGE} } }`),
    gql('create a page in fr', `mutation { createPage(data: { title: "G2 page fr", slug: "g2-page-fr" }, locale: "fr") { ${PAGE} } }`),
    gql('create a page in an unknown locale', 'mutation { createPage(data: { title: "x" }, locale: "xx") { data { id } } }'),
    gql('create a page localization', `mutation { createPageLocalization(id: 9, data: { title: "G2 page FR", slug: "g2-page-loc" }, locale: "fr") { ${PAGE} } }`),
    gql('read the page and its localizations', `{ page(id: 9) { ${PAGE} } }`),
    gql('create a localization in a locale already used', 'mutation { createPageLocalization(id: 9, data: { title: "again" }, locale: "fr") { data { id } } }'),
    gql('create a localization of an unknown page', 'mutation { createPageLocalization(id: 9999, data: { title: "x" }, locale: "fr") { data { id } } }'),
    gql('create a localization in a locale that does not exist', 'mutation { createPageLocalization(id: 9, data: { title: "x" }, locale: "de") { data { id } } }'),
    gql('update a page and its shared order', `mutation { updatePage(id: 9, data: { title: "G2 page 2", order: 8 }) { ${PAGE} } }`),
    gql('delete a page localization', 'mutation { deletePage(id: 11) { data { id attributes { title locale } } } }'),
    gql('list pages in all locales', '{ pages(locale: "all", publicationState: PREVIEW, sort: "id") { data { id attributes { title locale order } } } }'),
    // access
    gql('create a category as Public', 'mutation { createCategory(data: { name: "G2 public cat" }) { data { id attributes { name } } } }', undefined, asPublic),
    gql('update an article as Public', 'mutation { updateArticle(id: 64, data: { title: "G2 by public" }) { data { id attributes { title } } } }', undefined, asPublic),
    gql('a mutation with an invalid token', 'mutation { createCategory(data: { name: "x" }) { data { id } } }', undefined, badToken),
    gql('a mutation with a malformed jwt', 'mutation { createCategory(data: { name: "x" }) { data { id } } }', undefined,
      { auth: 'none', headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6MX0.c2lnbmF0dXJl' } }),
    gql('a mutation with an empty authorization header', 'mutation { createCategory(data: { name: "G2 empty header" }) { data { id } } }', undefined,
      { auth: 'none', headers: { authorization: '' } }),
    gql('log in as the reader', 'mutation { login(input: { identifier: "reader", password: "Reader-pass-1" }) { jwt user { id username } } }', undefined, asPublic),
    gql('create an article as an authenticated user', 'mutation { createArticle(data: { title: "x" }) { data { id } } }', undefined, asJwt),
    gql('delete an article as an authenticated user', 'mutation { deleteArticle(id: 3) { data { id } } }', undefined, asJwt),
    gql('a query the authenticated role may not run', '{ categories { data { id } } }', undefined, asJwt),
    { name: 'a mutation over GET', method: 'GET', url: `/graphql?query=${encodeURIComponent('mutation { deleteCategory(id: 2) { data { id } } }')}` },
    gql('category 2 still exists', '{ category(id: 2) { data { id attributes { name } } } }'),
    // ---- v4 bugs (last: a server that refuses these writes does not shift later ids) ----
    gql('create with a component outside the dynamic zone (v4 stores it)', `mutation { createArticle(data: { title: "G2 foreign block",
      blocks: [{ __typename: "ComponentSharedSeo", metaTitle: "seo" }] }) { data { id attributes { title } } } }`),
    gql('read the foreign block back (v4 fails)', `{ articles(publicationState: PREVIEW, filters: { title: { eq: "G2 foreign block" } }) { data { id attributes { blocks { __typename } } } } }`),
    gql('the same file in a component and a dynamic zone (v4 calls it missing)', `mutation { createArticle(data: { title: "G2 shared file",
      seo: { metaTitle: "s", shareImage: 1 }, blocks: [{ __typename: "ComponentBlocksGallery", images: [1] }] }) { data { id } } }`),
    gql('create with a Long beyond 2^53 (v4 rounds it)', 'mutation { createArticle(data: { title: "G2 big", big: "12345678901234567890" }) { data { id attributes { big } } } }'),
  ];
}

// ---- graphql-users: users-permissions -----------------------------------------------------------------

const ME = 'id username email confirmed blocked role { id name description type }';
const LOGIN = `jwt user { ${ME} }`;
const USER = 'data { id attributes { username email provider confirmed blocked createdAt updatedAt role { data { id attributes { name type } } } } }';
const login = (identifier: string, password: string) => `mutation { login(input: { identifier: "${identifier}", password: "${password}" }) { ${LOGIN} } }`;

function users(): Req[] {
  const wrongLogins = Array.from({ length: 11 }, (_, i) =>
    gql(`wrong password ${i + 1} (no rate limit in GraphQL)`, login('reader', 'wrong-again'), undefined, asPublic));
  return [
    gql('login', login('reader', 'Reader-pass-1'), undefined, asPublic),
    gql('me with the jwt', `{ me { ${ME} } }`, undefined, asJwt),
    gql('me as Public', `{ me { ${ME} } }`, undefined, asPublic),
    gql('me with the API token', '{ me { id username } }'),
    gql('login with a wrong password', login('reader', 'wrong-pass'), undefined, asPublic),
    gql('login with an unknown user', login('nobody', 'Reader-pass-1'), undefined, asPublic),
    gql('login with the email in capitals', login('READER@example.com', 'Reader-pass-1'), undefined, asPublic),
    gql('login with a disabled provider', 'mutation { login(input: { identifier: "reader", password: "Reader-pass-1", provider: "github" }) { jwt } }', undefined, asPublic),
    gql('login without a password', 'mutation { login(input: { identifier: "reader" }) { jwt } }', undefined, asPublic),
    gql('login with the API token', login('reader', 'Reader-pass-1')),
    gql('register', 'mutation { register(input: { username: "g2user", email: "G2User@Example.com", password: "G2user-pass-1" }) { ' + LOGIN + ' } }', undefined, asPublic),
    gql('me after register', `{ me { ${ME} } }`, undefined, asJwt),
    gql('register a taken email', 'mutation { register(input: { username: "g2other", email: "g2user@example.com", password: "G2user-pass-1" }) { jwt } }', undefined, asPublic),
    gql('register a taken username', 'mutation { register(input: { username: "reader", email: "g2new@example.com", password: "G2user-pass-1" }) { jwt } }', undefined, asPublic),
    gql('register with a bad email', 'mutation { register(input: { username: "g2bad", email: "not-an-email", password: "G2user-pass-1" }) { jwt } }', undefined, asPublic),
    gql('register with short values', 'mutation { register(input: { username: "ab", email: "ab@example.com", password: "x" }) { jwt } }', undefined, asPublic),
    gql('register without a password', 'mutation { register(input: { username: "g2nopass", email: "g2nopass@example.com" }) { jwt } }', undefined, asPublic),
    gql('register with an extra input field', 'mutation { register(input: { username: "g2x", email: "g2x@example.com", password: "G2user-pass-1", role: 2 }) { jwt } }', undefined, asPublic),
    gql('register with the API token', 'mutation { register(input: { username: "g2token", email: "g2token@example.com", password: "G2token-pass-1" }) { ' + LOGIN + ' } }'),
    // password flows (the last JWT is g2token's)
    gql('change password with a wrong current one', 'mutation { changePassword(currentPassword: "nope-nope", password: "Changed-pass-2", passwordConfirmation: "Changed-pass-2") { jwt } }', undefined, asJwt),
    gql('change password to the same one', 'mutation { changePassword(currentPassword: "G2token-pass-1", password: "G2token-pass-1", passwordConfirmation: "G2token-pass-1") { jwt } }', undefined, asJwt),
    gql('change password with a mismatch', 'mutation { changePassword(currentPassword: "G2token-pass-1", password: "Changed-pass-2", passwordConfirmation: "Changed-pass-3") { jwt } }', undefined, asJwt),
    gql('change password too short', 'mutation { changePassword(currentPassword: "G2token-pass-1", password: "abc", passwordConfirmation: "abc") { jwt } }', undefined, asJwt),
    gql('change password', 'mutation { changePassword(currentPassword: "G2token-pass-1", password: "Changed-pass-2", passwordConfirmation: "Changed-pass-2") { ' + LOGIN + ' } }', undefined, asJwt),
    gql('change password as Public', 'mutation { changePassword(currentPassword: "a", password: "Changed-pass-2", passwordConfirmation: "Changed-pass-2") { jwt } }', undefined, asPublic),
    gql('change password with the API token', 'mutation { changePassword(currentPassword: "a", password: "Changed-pass-2", passwordConfirmation: "Changed-pass-2") { jwt } }'),
    gql('login with the changed password', login('g2token', 'Changed-pass-2'), undefined, asPublic),
    gql('login with the old password', login('g2token', 'G2token-pass-1'), undefined, asPublic),
    gql('forgot password of a known email', 'mutation { forgotPassword(email: "reader@example.com") { ok } }', undefined, asPublic),
    gql('forgot password of an unknown email', 'mutation { forgotPassword(email: "ghost@example.com") { ok } }', undefined, asPublic),
    gql('forgot password with a bad email', 'mutation { forgotPassword(email: "ghost") { ok } }', undefined, asPublic),
    gql('reset password with a bad code', 'mutation { resetPassword(password: "Reset-pass-1", passwordConfirmation: "Reset-pass-1", code: "not-a-code") { jwt } }', undefined, asPublic),
    gql('reset password with a mismatch', 'mutation { resetPassword(password: "Reset-pass-1", passwordConfirmation: "Reset-pass-2", code: "not-a-code") { jwt } }', undefined, asPublic),
    gql('reset password with an empty code', 'mutation { resetPassword(password: "Reset-pass-1", passwordConfirmation: "Reset-pass-1", code: "") { jwt } }', undefined, asPublic),
    gql('email confirmation with a bad token', 'mutation { emailConfirmation(confirmation: "nope") { jwt } }', undefined, asPublic),
    gql('email confirmation with an empty token', 'mutation { emailConfirmation(confirmation: "") { jwt } }', undefined, asPublic),
    // users and roles through shadow CRUD and the custom mutations
    gql('list users', `{ usersPermissionsUsers(sort: "id") { ${USER} meta { pagination { total } } } }`),
    gql('list users as Public', '{ usersPermissionsUsers { data { id } } }', undefined, asPublic),
    gql('list users as an authenticated user', '{ usersPermissionsUsers { data { id } } }', undefined, asJwt),
    gql('find one user', `{ usersPermissionsUser(id: 1) { ${USER} } }`),
    gql('filter users by username', '{ usersPermissionsUsers(filters: { username: { eq: "g2user" } }) { data { id attributes { username } } } }'),
    gql('filter users by a private field', '{ usersPermissionsUsers(filters: { password: { eq: "x" } }) { data { id } } }'),
    gql('list roles', '{ usersPermissionsRoles(sort: "id") { data { id attributes { name description type users(sort: "id") { data { id } } } } } }'),
    gql('find the public role with its permissions', '{ usersPermissionsRole(id: 2) { data { id attributes { name type permissions(sort: "id", pagination: { limit: 5 }) { data { id attributes { action } } } } } } }'),
    gql('list roles as Public', '{ usersPermissionsRoles { data { id } } }', undefined, asPublic),
    gql('create a user', `mutation { createUsersPermissionsUser(data: { username: "g2made", email: "G2Made@example.com", password: "G2made-pass-1", role: 1 }) { ${USER} } }`),
    gql('create a user without a role', 'mutation { createUsersPermissionsUser(data: { username: "g2norole", email: "g2norole@example.com", password: "G2norole-pass-1" }) { data { id } } }'),
    gql('create a user with nothing but a username', 'mutation { createUsersPermissionsUser(data: { username: "g2only" }) { data { id } } }'),
    gql('create a user with a taken username', 'mutation { createUsersPermissionsUser(data: { username: "g2made", email: "g2made2@example.com", password: "G2made-pass-1", role: 1 }) { data { id } } }'),
    gql('create a user with a taken email', 'mutation { createUsersPermissionsUser(data: { username: "g2made2", email: "g2made@example.com", password: "G2made-pass-1", role: 1 }) { data { id } } }'),
    gql('create a user with an unknown role', 'mutation { createUsersPermissionsUser(data: { username: "g2made3", email: "g2made3@example.com", password: "G2made-pass-1", role: 99 }) { data { id } } }'),
    gql('create a user as Public', 'mutation { createUsersPermissionsUser(data: { username: "g2pub", email: "g2pub@example.com", password: "G2pub-pass-1", role: 1 }) { data { id } } }', undefined, asPublic),
    gql('login as the created user', login('g2made', 'G2made-pass-1'), undefined, asPublic),
    gql('update a user', `mutation { updateUsersPermissionsUser(id: 4, data: { username: "g2renamed", confirmed: true }) { ${USER} } }`),
    gql('update a user with a taken email', 'mutation { updateUsersPermissionsUser(id: 4, data: { email: "READER@example.com" }) { data { id } } }'),
    gql('update an unknown user', 'mutation { updateUsersPermissionsUser(id: 999, data: { username: "ghost" }) { data { id } } }'),
    gql('update a user as an authenticated user', 'mutation { updateUsersPermissionsUser(id: 1, data: { username: "hijacked" }) { data { id } } }', undefined, asJwt),
    gql('block a user', 'mutation { updateUsersPermissionsUser(id: 4, data: { blocked: true }) { data { id attributes { blocked } } } }'),
    gql('me as the blocked user', '{ me { id } }', undefined, asJwt),
    gql('login as the blocked user', login('g2renamed', 'G2made-pass-1'), undefined, asPublic),
    gql('delete a user', 'mutation { deleteUsersPermissionsUser(id: 4) { data { id attributes { username email } } } }'),
    gql('delete the user again', 'mutation { deleteUsersPermissionsUser(id: 4) { data { id } } }'),
    gql('delete a user as Public', 'mutation { deleteUsersPermissionsUser(id: 1) { data { id } } }', undefined, asPublic),
    gql('create a role', 'mutation { createUsersPermissionsRole(data: { name: "G2 Editor", description: "edits" }) { ok } }'),
    gql('create a role with an empty body', 'mutation { createUsersPermissionsRole(data: {}) { ok } }'),
    gql('create a role as Public', 'mutation { createUsersPermissionsRole(data: { name: "G2 public" }) { ok } }', undefined, asPublic),
    gql('the created role', '{ usersPermissionsRoles(filters: { name: { startsWith: "G2" } }) { data { id attributes { name description type } } } }'),
    gql('update a role', 'mutation { updateUsersPermissionsRole(id: 3, data: { name: "G2 Chief" }) { ok } }'),
    gql('update an unknown role', 'mutation { updateUsersPermissionsRole(id: 999, data: { name: "x" }) { ok } }'),
    gql('delete the public role', 'mutation { deleteUsersPermissionsRole(id: 2) { ok } }'),
    gql('delete an unknown role', 'mutation { deleteUsersPermissionsRole(id: 999) { ok } }'),
    gql('delete a role', 'mutation { deleteUsersPermissionsRole(id: 3) { ok } }'),
    gql('roles at the end', '{ usersPermissionsRoles(sort: "id") { data { id attributes { name type } } } }'),
    gql('a mutation with an invalid token', login('reader', 'Reader-pass-1'), undefined, badToken),
    ...wrongLogins,
    gql('login after the wrong passwords', login('reader', 'Reader-pass-1'), undefined, asPublic),
  ];
}

// ---- graphql-upload: the upload operations (GraphQL multipart request spec) -------------------------

type File = { name: string; type: string; base64: string };
const file = (name: string, type: string, data: Buffer): File => ({ name, type, base64: data.toString('base64') });
/** operations, map, then the files "0", "1", ... (the order the spec and v4's graphql-upload require) */
const multipart = (name: string, query: string, variables: Record<string, unknown>, map: Record<string, string[]>, files: File[], extra: Req = {}): Req => ({
  name, method: 'POST', url: '/graphql', fieldsFirst: true,
  fields: { operations: JSON.stringify({ query, variables }), map: JSON.stringify(map) },
  files: Object.fromEntries(files.map((f, i) => [String(i), [f]])),
  ...extra,
});
const FILE = `data { id attributes { name alternativeText caption width height formats hash ext mime size url previewUrl provider
  provider_metadata createdAt updatedAt } }`;
const UPLOAD = `mutation($file: Upload!, $info: FileInfoInput, $ref: String, $refId: ID, $field: String) {
  upload(file: $file, info: $info, ref: $ref, refId: $refId, field: $field) { ${FILE} } }`;
const one = { 0: ['variables.file'] };

async function upload(): Promise<Req[]> {
  const jpeg = file('photo.jpg', 'image/jpeg', await gen.bigJpeg());
  const text = file('notes.txt', 'text/plain', gen.textFile());
  const pdf = file('doc.pdf', 'application/pdf', gen.pdfFile());
  const other = file('other.txt', 'text/plain', Buffer.from('another text file\n'));
  // ids 4...: the fixture data has 3 files
  return [
    multipart('upload a jpeg with file info', UPLOAD, { file: null, info: { name: 'G2 photo.jpg', alternativeText: 'alt', caption: 'cap' } }, one, [jpeg]),
    multipart('upload a text file', UPLOAD, { file: null }, one, [text]),
    multipart('upload as Public', UPLOAD, { file: null }, one, [other], { auth: 'none' }),
    multipart('upload attached to an article gallery', UPLOAD, { file: null, ref: 'api::article.article', refId: '1', field: 'gallery' }, one, [pdf]),
    gql('the gallery after attaching', '{ article(id: 1) { data { id attributes { gallery { data { id attributes { name } } } } } } }'),
    multipart('upload several files', `mutation($files: [Upload]!) { multipleUpload(files: $files) { ${FILE} } }`, { files: [null, null] },
      { 0: ['variables.files.0'], 1: ['variables.files.1'] }, [text, other]),
    multipart('upload several files attached to an article cover', `mutation($files: [Upload]!) { multipleUpload(files: $files, ref: "api::article.article", refId: "2", field: "cover") { data { id attributes { name } } } }`,
      { files: [null] }, { 0: ['variables.files.0'] }, [jpeg]),
    gql('the cover after attaching', '{ article(id: 2) { data { id attributes { cover { data { id attributes { name } } } } } } }'),
    multipart('upload as an API token user without file info', `mutation($file: Upload!) { upload(file: $file) { data { id attributes { name caption alternativeText } } } }`, { file: null }, one, [pdf]),
    // errors
    { ...multipart('upload with the files before the map', UPLOAD, { file: null }, one, [text]), fieldsFirst: false },
    multipart('upload with a map naming a missing file', UPLOAD, { file: null }, { 0: ['variables.file'], 1: ['variables.other'] }, [text]),
    multipart('upload with a map that is not JSON', UPLOAD, { file: null }, one, [text], { fields: { operations: JSON.stringify({ query: UPLOAD, variables: { file: null } }), map: '{bad' } }),
    gql('upload without a file (JSON body)', UPLOAD, { file: null }),
    gql('upload with a string for the file', 'mutation { upload(file: "notes.txt") { data { id } } }'),
    multipart('upload with a bad token', UPLOAD, { file: null }, one, [text], { auth: 'none', headers: { authorization: 'Bearer not-a-token' } }),
    gql('log in as the reader', 'mutation { login(input: { identifier: "reader", password: "Reader-pass-1" }) { jwt } }', undefined, asPublic),
    multipart('upload as an authenticated user', UPLOAD, { file: null }, one, [text], { auth: 'jwt' }),
    // queries and the other mutations
    gql('list uploaded files', '{ uploadFiles(sort: "id") { data { id attributes { name mime ext size url caption alternativeText } } meta { pagination { total } } } }'),
    gql('filter files by mime', '{ uploadFiles(filters: { mime: { eq: "text/plain" } }, sort: "id:desc") { data { id attributes { name } } } }'),
    gql('list files as Public', '{ uploadFiles(sort: "id", pagination: { limit: 3 }) { data { id attributes { name } } } }', undefined, asPublic),
    gql('find one file', `{ uploadFile(id: 4) { ${FILE} } }`),
    gql('find an unknown file', '{ uploadFile(id: 9999) { data { id } } }'),
    gql('update file info', 'mutation { updateFileInfo(id: 5, info: { name: "renamed.txt", caption: "new caption", alternativeText: "new alt" }) { ' + FILE + ' } }'),
    gql('update file info as Public', 'mutation { updateFileInfo(id: 5, info: { caption: "by public" }) { data { id attributes { caption } } } }', undefined, asPublic),
    gql('update file info of an unknown file', 'mutation { updateFileInfo(id: 9999, info: { caption: "x" }) { data { id } } }'),
    gql('update a file through shadow CRUD', 'mutation { updateUploadFile(id: 6, data: { caption: "via shadow CRUD" }) { data { id attributes { name caption } } } }'),
    gql('create a file through shadow CRUD without a folder path', 'mutation { createUploadFile(data: { name: "fake.txt", hash: "fake", ext: ".txt", mime: "text/plain", size: 1.5, url: "/uploads/fake.txt", provider: "local" }) { data { id } } }'),
    gql('remove a file as Public', 'mutation { removeFile(id: 5) { data { id } } }', undefined, asPublic),
    gql('delete a file through shadow CRUD as Public', 'mutation { deleteUploadFile(id: 5) { data { id } } }', undefined, asPublic),
    gql('create a folder as Public', 'mutation { createUploadFolder(data: { name: "G2 folder", pathId: 90, path: "/90" }) { data { id } } }', undefined, asPublic),
    gql('remove a file', 'mutation { removeFile(id: 5) { data { id attributes { name caption } } } }'),
    gql('remove the file again', 'mutation { removeFile(id: 5) { data { id } } }'),
    gql('the removed file', '{ uploadFile(id: 5) { data { id } } }'),
    gql('list folders', '{ uploadFolders(sort: "id") { data { id attributes { name path pathId files(sort: "id") { data { id } } } } } }'),
    gql('files at the end', '{ uploadFiles(sort: "id") { data { id attributes { name caption } } } }'),
    // ---- v4 bugs (last) ----
    gql('select the related field of a file (v4 fails)', '{ uploadFile(id: 4) { data { id attributes { name related { __typename } } } } }'),
    gql('update file info without info (v4 fails)', 'mutation { updateFileInfo(id: 6) { data { id attributes { name } } } }'),
  ];
}

async function main() {
  const lists: Record<string, Req[]> = { 'graphql-writes': writes(), 'graphql-users': users(), 'graphql-upload': await upload() };
  for (const [name, requests] of Object.entries(lists)) {
    const names = requests.map((r) => r.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) throw new Error(`${name}: two requests named "${dup}"`);
    const out = path.join(__dirname, `${name}.requests.json`);
    fs.writeFileSync(out, JSON.stringify(requests, null, 1) + '\n');
    console.log(`${requests.length} requests -> ${out}`);
  }
}

void main();
