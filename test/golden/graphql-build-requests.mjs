#!/usr/bin/env node
// Writes the request lists of the GraphQL read goldens (test/golden/graphql-*.requests.json):
//   node test/golden/graphql-build-requests.mjs
// then record each on real Strapi 4.26.2 started on the fixture data (test/fixtures/strapi4-app/README.md).
// Reads only: every list leaves the data as it found it. Queries are written readable here and sent on one line
// (whitespace collapsed), so error `locations` are columns of line 1.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const here = path.dirname(new URL(import.meta.url).pathname);
const oneLine = (q) => q.replace(/\s+/g, ' ').trim();

/** a POST /graphql; `as`: 'token' (full access, the default), 'none' (Public), or a JWT sent as the header */
function post(name, query, { variables, operationName, as = 'token', headers, body } = {}) {
  const r = { name, method: 'POST', url: '/graphql' };
  r.body = body ?? { query: oneLine(query), ...(variables !== undefined && { variables }), ...(operationName !== undefined && { operationName }) };
  return withAuth(r, as, headers);
}
/** a GET /graphql?query=... (variables JSON-encoded, as clients send them) */
function get(name, query, { variables, operationName, as = 'token', headers } = {}) {
  const p = new URLSearchParams({ query: oneLine(query) });
  if (variables !== undefined) p.set('variables', JSON.stringify(variables));
  if (operationName !== undefined) p.set('operationName', operationName);
  return withAuth({ name, method: 'GET', url: `/graphql?${p}` }, as, headers);
}
function withAuth(r, as, headers) {
  if (as === 'none') r.auth = 'none';
  else if (as !== 'token') {
    r.auth = 'none';
    headers = { authorization: `Bearer ${as}`, ...headers };
  }
  if (headers) r.headers = headers;
  return r;
}
const pub = (name, query, o = {}) => post(name, query, { ...o, as: 'none' });

// JWTs of the fixture's users-permissions secret (config/plugins.js default), fixed so the lists are stable:
// user 1 (`reader`, Authenticated) valid until 2100, the same expired, and an unknown user id.
const SECRET = 'peer-users-permissions-jwt-secret-not-for-production';
function jwt(payload) {
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${head}.${crypto.createHmac('sha256', SECRET).update(head).digest('base64url')}`;
}
const READER_JWT = jwt({ id: 1, iat: 1600000000, exp: 4102444800 });
const EXPIRED_JWT = jwt({ id: 1, iat: 1600000000, exp: 1600003600 });
const UNKNOWN_USER_JWT = jwt({ id: 99, iat: 1600000000, exp: 4102444800 });

function write(file, list) {
  const names = new Set();
  for (const r of list) {
    if (names.has(r.name)) throw new Error(`duplicate request name ${r.name}`);
    names.add(r.name);
  }
  fs.writeFileSync(path.join(here, `${file}.requests.json`), `[\n${list.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
  console.log(`${file}: ${list.length} requests`);
}

const IDS = 'data { id } meta { pagination { total } }';
const arts = (filters, sel = IDS) => `{ articles(filters: ${filters}) { ${sel} } }`;

// ---- graphql-filters: operators, logic, relations, components, types, invalid filters ---------------------
write('graphql-filters', [
  pub('eq string', arts('{ title: { eq: "dune dune 1" } }', 'data { id attributes { title } } meta { pagination { total } }')),
  pub('eqi string', arts('{ title: { eqi: "DUNE DUNE 1" } }')),
  pub('ne string', arts('{ title: { ne: "dune dune 1" } }')),
  pub('nei string', arts('{ title: { nei: "JADE EMBER 0" } }')),
  pub('in int', arts('{ views: { in: [151, 4013, 1475, 99999] } }')),
  pub('notIn int', arts('{ views: { notIn: [151, 4013, 1475] } }')),
  pub('contains', arts('{ title: { contains: "jade" } }')),
  pub('contains uppercase', arts('{ title: { contains: "JADE" } }')),
  pub('containsi', arts('{ title: { containsi: "JADE" } }')),
  pub('notContains', arts('{ title: { notContains: "a" } }')),
  pub('notContainsi', arts('{ title: { notContainsi: "E" } }')),
  pub('startsWith', arts('{ title: { startsWith: "harbor" } }')),
  pub('endsWith', arts('{ title: { endsWith: "9" } }')),
  pub('between int', arts('{ views: { between: [1000, 2000] } }')),
  pub('between float', arts('{ rating: { between: [1.5, 2.5] } }', 'data { id attributes { rating } } meta { pagination { total } }')),
  pub('gt lt combined', arts('{ views: { gt: 4000, lt: 4500 } }', 'data { id attributes { views } } meta { pagination { total } }')),
  pub('gte lte float', arts('{ price: { gte: 900, lte: 960 } }', 'data { id attributes { price } }')),
  pub('null enum', arts('{ kind: { null: true } }')),
  pub('notNull enum', arts('{ kind: { notNull: true } }')),
  pub('null false', arts('{ kind: { null: false } }')),
  pub('enum eq string', arts('{ kind: { eq: "review" } }', 'data { id attributes { kind } } meta { pagination { total } }')),
  pub('enum in', arts('{ kind: { in: ["news", "opinion"] } }')),
  pub('enum eq unknown value', arts('{ kind: { eq: "nope" } }')),
  pub('boolean eq true', arts('{ featured: { eq: true } }')),
  pub('boolean ne true', arts('{ featured: { ne: true } }')),
  pub('date eq', arts('{ publishDate: { eq: "2025-01-01" } }', 'data { id attributes { publishDate } }')),
  pub('date between', arts('{ publishDate: { between: ["2025-01-01", "2025-02-28"] } }', 'data { id attributes { publishDate } } meta { pagination { total } }')),
  pub('date gt', arts('{ publishDate: { gt: "2025-12-01" } }')),
  pub('datetime notNull', arts('{ scheduledAt: { notNull: true } }', 'data { id attributes { scheduledAt } } meta { pagination { total } }')),
  pub('datetime gt', arts('{ scheduledAt: { gt: "2026-06-01T00:00:00.000Z" } }')),
  pub('datetime eq', arts('{ scheduledAt: { eq: "2026-01-15T08:00:00.000Z" } }')),
  pub('datetime lt other offset', arts('{ scheduledAt: { lt: "2026-03-15T10:00:00+02:00" } }')),
  pub('createdAt gt', arts('{ createdAt: { gt: "2000-01-01T00:00:00.000Z" } }', 'meta { pagination { total } }')),
  pub('id eq', arts('{ id: { eq: 5 } }')),
  pub('id eq string', arts('{ id: { eq: "5" } }')),
  pub('id in', arts('{ id: { in: [1, 2, 8, 61] } }')),
  pub('id between', arts('{ id: { between: ["3", "6"] } }')),
  pub('id lt', arts('{ id: { lt: 4 } }')),
  pub('long eq string', arts('{ big: { eq: "1000000000005" } }', 'data { id attributes { big } }')),
  pub('long gt int literal', arts('{ big: { gt: 1000000000055 } }', 'data { id attributes { big } }')),
  pub('long in', arts('{ big: { in: ["1000000000001", "1000000000002"] } }', 'data { id attributes { big } }')),
  pub('json contains', arts('{ meta: { contains: "pearl" } }')),
  pub('eq null value', arts('{ title: { eq: null } }')),
  pub('empty filters', arts('{}', 'meta { pagination { total } }')),
  pub('empty operator object', arts('{ title: {} }', 'meta { pagination { total } }')),
  pub('or', arts('{ or: [{ title: { contains: "jade" } }, { views: { gt: 4500 } }] }')),
  pub('and', arts('{ and: [{ featured: { eq: true } }, { kind: { eq: "news" } }] }')),
  pub('not', arts('{ not: { kind: { eq: "news" } } }')),
  pub('not on scalar', arts('{ views: { not: { gt: 1000 } } }')),
  pub('and or nested', arts('{ and: [{ or: [{ kind: { eq: "news" } }, { kind: { eq: "review" } }] }, { not: { featured: { eq: true } } }, { views: { gte: 3000 } }] }')),
  pub('implicit and of fields', arts('{ kind: { eq: "news" }, featured: { eq: true } }')),
  pub('scalar and list', arts('{ views: { and: [1475] } }')),
  pub('scalar or list', arts('{ views: { or: [151, 1475] } }')),
  pub('relation to-one field', arts('{ author: { name: { eq: "Author amber" } } }')),
  pub('relation to-one id', arts('{ author: { id: { eq: 2 } } }')),
  pub('relation to-one null', arts('{ author: { id: { null: true } } }')),
  pub('relation to-many field', arts('{ categories: { slug: { eq: "cat-kelp" } } }')),
  pub('relation to-many int', arts('{ categories: { priority: { gte: 40 } } }')),
  pub('relation to-many in', arts('{ categories: { name: { in: ["Cat pearl", "Cat onyx"] } } }')),
  pub('not relation to-many', arts('{ not: { categories: { id: { eq: 1 } } } }')),
  pub('relation two levels', arts('{ author: { articles: { title: { startsWith: "jade" } } } }')),
  pub('relation or', arts('{ or: [{ author: { name: { eq: "Author cedar" } } }, { categories: { slug: { eq: "cat-moss" } } }] }')),
  pub('relation self to-one', arts('{ editorPick: { id: { notNull: true } } }', 'data { id attributes { editorPick { data { id } } } }')),
  pub('component field', arts('{ seo: { metaTitle: { eq: "SEO 5" } } }')),
  pub('component null', arts('{ seo: { metaTitle: { null: true } } }')),
  pub('component startsWith', arts('{ seo: { metaDescription: { startsWith: "Desc 1" } } }')),
  pub('repeatable component field', arts('{ links: { label: { eq: "L1" } } }')),
  pub('repeatable component url', arts('{ links: { url: { containsi: "/5/" } } }')),
  pub('publishedAt null preview', '{ articles(filters: { publishedAt: { null: true } }, publicationState: PREVIEW) { data { id } } }'),
  post('publishedAt null preview token', '{ articles(filters: { publishedAt: { null: true } }, publicationState: PREVIEW) { data { id } } }'),
  pub('authors email endsWith', '{ authors(filters: { email: { endsWith: "3@example.com" } }) { data { id attributes { name email } } } }'),
  pub('authors bio containsi', '{ authors(filters: { bio: { containsi: "**AMBER**" } }) { data { id } } }'),
  pub('authors by article', '{ authors(filters: { articles: { views: { gt: 4900 } } }) { data { id } } }'),
  pub('categories slug startsWith', '{ categories(filters: { slug: { startsWith: "cat-m" } }) { data { id attributes { slug } } } }'),
  pub('categories by article featured', '{ categories(filters: { articles: { featured: { eq: true }, kind: { eq: "review" } } }) { data { id } meta { pagination { total } } } }'),
  pub('pages by order', '{ pages(filters: { order: { gte: 2 } }) { data { id attributes { order locale } } } }'),
  pub('pages filter locale all', '{ pages(filters: { title: { contains: "FR" } }, locale: "all", publicationState: PREVIEW) { data { id attributes { title locale } } } }'),
  pub('uploadFiles mime', '{ uploadFiles(filters: { mime: { eq: "image/png" } }) { data { id attributes { name } } } }'),
  pub('uploadFiles width gt', '{ uploadFiles(filters: { width: { gt: 500 } }) { data { id attributes { name width } } } }'),
  pub('variables filters', 'query Q($f: ArticleFiltersInput) { articles(filters: $f) { data { id } meta { pagination { total } } } }', { variables: { f: { views: { lt: 600 }, kind: { ne: 'news' } } } }),
  pub('variables filter value', 'query Q($t: String) { articles(filters: { title: { startsWith: $t } }) { data { id attributes { title } } } }', { variables: { t: 'amber' } }),
  pub('variables filter null value', 'query Q($t: String) { articles(filters: { title: { eq: $t } }) { meta { pagination { total } } } }', { variables: { t: null } }),
  // invalid filters
  pub('unknown filter field', arts('{ foo: { eq: 1 } }')),
  pub('unknown operator', arts('{ title: { like: "x" } }')),
  pub('operator on relation', arts('{ author: { eq: 1 } }')),
  pub('private field through relation', arts('{ author: { secret: { eq: "x" } } }')),
  pub('private field on authors', '{ authors(filters: { secret: { notNull: true } }) { data { id } } }'),
  pub('dynamic zone not filterable', arts('{ blocks: { id: { eq: 1 } } }')),
  pub('media not filterable', arts('{ cover: { id: { eq: 1 } } }')),
  pub('wrong value type int', arts('{ views: { eq: "abc" } }')),
  pub('wrong value type boolean', arts('{ featured: { eq: "yes" } }')),
  pub('enum literal in string filter', arts('{ kind: { eq: news } }')),
  pub('bad date value', arts('{ publishDate: { eq: "not-a-date" } }')),
  pub('bad datetime value', arts('{ scheduledAt: { eq: "yesterday" } }')),
  pub('variables bad filter shape', 'query Q($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }', { variables: { f: { nope: { eq: 1 } } } }),
  pub('variables bad filter value', 'query Q($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }', { variables: { f: { views: { eq: 'abc' } } } }),
]);

// ---- graphql-pagination-sort: pagination, limits, sort, publication state, locale, findOne, single type --
const page = (args, sel = 'data { id } meta { pagination { total page pageSize pageCount } }') => `{ articles${args ? `(${args})` : ''} { ${sel} } }`;
write('graphql-pagination-sort', [
  pub('default page size', page('')),
  pub('default without meta', page('', 'data { id }')),
  pub('meta only', page('', 'meta { pagination { total page pageSize pageCount } }')),
  pub('meta without pagination', page('', 'data { id } meta { __typename }')),
  pub('empty pagination object', page('pagination: {}')),
  pub('page 2 size 5', page('pagination: { page: 2, pageSize: 5 }')),
  pub('page 3 size 25', page('pagination: { page: 3, pageSize: 25 }')),
  pub('page beyond', page('pagination: { page: 100 }')),
  pub('page only', page('pagination: { page: 2 }')),
  pub('pageSize only', page('pagination: { pageSize: 3 }')),
  pub('start limit', page('pagination: { start: 5, limit: 5 }')),
  pub('start beyond', page('pagination: { start: 50, limit: 10 }')),
  pub('start only', page('pagination: { start: 48 }')),
  pub('limit only', page('pagination: { limit: 4 }')),
  pub('limit -1', page('pagination: { limit: -1 }')),
  pub('limit -1 with start', page('pagination: { start: 2, limit: -1 }', 'meta { pagination { total page pageSize pageCount } }')),
  pub('limit -1 nothing found', page('filters: { id: { eq: 9999 } }, pagination: { limit: -1 }')),
  pub('pageSize over maxLimit', page('pagination: { pageSize: 200 }', 'meta { pagination { total page pageSize pageCount } }')),
  post('pageSize over maxLimit preview', '{ articles(pagination: { pageSize: 200 }, publicationState: PREVIEW) { meta { pagination { total page pageSize pageCount } } } }'),
  pub('limit over maxLimit', page('pagination: { limit: 500 }', 'meta { pagination { total page pageSize pageCount } }')),
  pub('pageSize 0', page('pagination: { pageSize: 0 }')),
  pub('limit 0', page('pagination: { limit: 0 }')),
  pub('page 0', page('pagination: { page: 0 }')),
  pub('page negative', page('pagination: { page: -1 }')),
  pub('pageSize negative', page('pagination: { pageSize: -5 }')),
  pub('start negative', page('pagination: { start: -1 }')),
  pub('mixed page and limit', page('pagination: { page: 1, limit: 2 }')),
  pub('mixed pageSize and start', page('pagination: { pageSize: 2, start: 4 }')),
  pub('mixed modes data only', page('pagination: { page: 1, start: 2 }', 'data { id }')),
  pub('pagination variables', 'query P($p: PaginationArg) { articles(pagination: $p) { data { id } meta { pagination { total page pageSize pageCount } } } }', { variables: { p: { page: 4, pageSize: 7 } } }),
  pub('pagination int variables', 'query P($s: Int, $l: Int) { articles(pagination: { start: $s, limit: $l }) { data { id } meta { pagination { page pageSize } } } }', { variables: { s: 10, l: 3 } }),
  pub('pagination wrong type', page('pagination: { page: "2" }')),
  pub('pagination unknown key', page('pagination: { offset: 2 }')),
  pub('pagination 32-bit overflow', page('pagination: { pageSize: 3000000000 }')),
  pub('authors paginated', '{ authors(pagination: { page: 2, pageSize: 3 }) { data { id } meta { pagination { total page pageSize pageCount } } } }'),
  pub('categories with meta', '{ categories { data { id } meta { pagination { total page pageSize pageCount } } } }'),
  pub('uploadFiles with meta', '{ uploadFiles(pagination: { limit: 2 }) { data { id } meta { pagination { total page pageSize pageCount } } } }'),
  // sort
  pub('sort single string', '{ articles(sort: "title") { data { id attributes { title } } } }'),
  pub('sort string desc', '{ articles(sort: "views:desc") { data { id attributes { views } } } }'),
  pub('sort list', '{ articles(sort: ["kind:asc", "views:desc"]) { data { id attributes { kind views } } } }'),
  pub('sort nulls enum asc', '{ articles(sort: ["kind", "id:desc"], pagination: { limit: 12 }) { data { id attributes { kind } } } }'),
  pub('sort id desc', '{ articles(sort: "id:desc", pagination: { pageSize: 5 }) { data { id } } }'),
  pub('sort date desc', '{ articles(sort: "publishDate:desc") { data { id attributes { publishDate } } } }'),
  pub('sort datetime nulls', '{ articles(sort: "scheduledAt:desc") { data { id attributes { scheduledAt } } } }'),
  pub('sort long desc', '{ articles(sort: "big:desc", pagination: { limit: 3 }) { data { id attributes { big } } } }'),
  pub('sort float with ties', '{ articles(sort: ["rating:asc"], pagination: { limit: 15 }) { data { id attributes { rating } } } }'),
  pub('sort uppercase direction', '{ articles(sort: "views:DESC", pagination: { limit: 3 }) { data { id attributes { views } } } }'),
  pub('sort relation field', '{ articles(sort: "author.name:asc") { data { id attributes { author { data { id } } } } } }'),
  pub('sort relation desc then id', '{ articles(sort: ["author.name:desc", "id:asc"], pagination: { limit: 12 }) { data { id } } }'),
  pub('sort to-many relation field', '{ articles(sort: "categories.priority:desc", pagination: { limit: 12 }) { data { id } } }'),
  pub('sort component field', '{ articles(sort: "seo.metaTitle:asc", pagination: { limit: 12 }) { data { id } } }'),
  pub('sort with filter and page', '{ articles(filters: { featured: { eq: true } }, sort: "price:desc", pagination: { page: 2, pageSize: 4 }) { data { id attributes { price } } meta { pagination { total page pageSize pageCount } } } }'),
  pub('sort variables', 'query S($s: [String]) { articles(sort: $s, pagination: { limit: 5 }) { data { id } } }', { variables: { s: ['rating:desc', 'title:asc'] } }),
  pub('sort categories', '{ categories(sort: "priority:desc") { data { id attributes { priority } } } }'),
  pub('sort unknown field', '{ articles(sort: "nope") { data { id } } }'),
  pub('sort bad direction', '{ articles(sort: "title:sideways") { data { id } } }'),
  pub('sort private field', '{ articles(sort: "author.secret") { data { id } } }'),
  pub('sort dynamic zone', '{ articles(sort: "blocks") { data { id } } }'),
  pub('sort not a string', '{ articles(sort: 5) { data { id } } }'),
  // publication state
  pub('live explicit', '{ articles(publicationState: LIVE) { meta { pagination { total } } } }'),
  pub('preview public', '{ articles(publicationState: PREVIEW, pagination: { limit: -1 }) { data { id } meta { pagination { total } } } }'),
  post('preview token', '{ articles(publicationState: PREVIEW, filters: { id: { lte: 16 } }) { data { id attributes { publishedAt } } meta { pagination { total } } } }'),
  post('live token', '{ articles(filters: { id: { lte: 16 } }) { data { id } meta { pagination { total } } } }'),
  pub('publicationState string literal', '{ articles(publicationState: "preview") { data { id } } }'),
  pub('publicationState unknown', '{ articles(publicationState: DRAFT) { data { id } } }'),
  pub('publicationState variable', 'query P($s: PublicationState) { articles(publicationState: $s, filters: { id: { in: [7, 8] } }) { data { id } } }', { variables: { s: 'PREVIEW' } }),
  pub('publicationState on non draft type', '{ authors(publicationState: PREVIEW) { data { id } } }'),
  // findOne
  pub('findOne', '{ article(id: 2) { data { id attributes { title publishedAt } } } }'),
  pub('findOne draft as public', '{ article(id: 8) { data { id attributes { title publishedAt } } } }'),
  post('findOne draft with token', '{ article(id: 16) { data { id attributes { title } } } }'),
  pub('findOne unknown id', '{ article(id: 999) { data { id } } }'),
  pub('findOne non numeric id', '{ article(id: "abc") { data { id } } }'),
  pub('findOne variable id', 'query A($id: ID!) { article(id: $id) { data { id attributes { slug } } } }', { variables: { id: '3' } }),
  pub('findOne publicationState argument', '{ article(id: 8, publicationState: LIVE) { data { id } } }'),
  pub('findOne category', '{ category(id: 3) { data { id attributes { name slug priority } } } }'),
  pub('findOne upload file', '{ uploadFile(id: 2) { data { id attributes { name mime } } } }'),
  pub('findOne upload file unknown', '{ uploadFile(id: 42) { data { id } } }'),
  // single type
  pub('single type', '{ homepage { data { id attributes { title hero { id metaTitle metaDescription } featured { data { id } } } } } }'),
  pub('single type typename', '{ homepage { __typename data { __typename id } } }'),
  pub('single type publicationState', '{ homepage(publicationState: PREVIEW) { data { id } } }'),
  pub('single type locale', '{ homepage(locale: "fr") { data { id } } }'),
  // locale
  pub('pages default locale', '{ pages { data { id attributes { title locale } } meta { pagination { total } } } }'),
  pub('pages locale fr live', '{ pages(locale: "fr") { data { id } meta { pagination { total } } } }'),
  pub('pages locale fr preview', '{ pages(locale: "fr", publicationState: PREVIEW) { data { id attributes { title locale publishedAt } } } }'),
  pub('pages locale all preview', '{ pages(locale: "all", publicationState: PREVIEW, sort: "id:desc") { data { id attributes { locale } } meta { pagination { total } } } }'),
  pub('pages locale en', '{ pages(locale: "en", sort: "order:desc") { data { id attributes { order } } } }'),
  pub('pages locale not installed', '{ pages(locale: "de") { data { id } meta { pagination { total } } } }'),
  pub('pages locale unknown', '{ pages(locale: "xx") { data { id } } }'),
  pub('pages locale unknown variable', 'query L($l: I18NLocaleCode) { pages(locale: $l) { data { id } } }', { variables: { l: 'zz' } }),
  pub('pages locale variable fr', 'query L($l: I18NLocaleCode) { pages(locale: $l, publicationState: PREVIEW) { data { id } } }', { variables: { l: 'fr' } }),
  pub('pages locale not a string', '{ pages(locale: 3) { data { id } } }'),
  pub('page findOne other locale', '{ page(id: 2) { data { id attributes { title locale } } } }'),
  pub('page findOne with locale arg', '{ page(id: 2, locale: "en") { data { id attributes { title locale } } } }'),
  pub('page findOne locale all', '{ page(id: 1, locale: "all") { data { id attributes { locale } } } }'),
  pub('pages filter locale field', '{ pages(filters: { locale: { eq: "fr" } }, publicationState: PREVIEW) { data { id } } }'),
  pub('articles locale argument', '{ articles(locale: "fr") { data { id } } }'),
  pub('i18n locales', '{ i18NLocales { data { id attributes { name code } } meta { pagination { total } } } }'),
  pub('i18n locale findOne', '{ i18NLocale(id: 2) { data { id attributes { code } } } }'),
  pub('i18n locales sorted', '{ i18NLocales(sort: "code:desc") { data { attributes { code } } } }'),
]);

// ---- graphql-nested: relations, media, components, dynamic zones, localizations, aliases, fragments -----
const FILE_FIELDS = 'name alternativeText caption width height formats hash ext mime size url previewUrl provider provider_metadata createdAt updatedAt';
write('graphql-nested', [
  pub('scalars of every type', `{ articles(filters: { id: { in: [1, 2, 3] } }) { data { id attributes {
    title slug body views rating price featured kind publishDate scheduledAt meta big createdAt updatedAt publishedAt } } } }`),
  pub('to-one relation', '{ articles(pagination: { limit: 4 }) { data { id attributes { author { data { id attributes { name email bio } } } } } } }'),
  pub('to-one relation null', '{ article(id: 1) { data { attributes { author { data { id } } } } } }'),
  pub('to-one self relation to a draft', '{ article(id: 7) { data { attributes { editorPick { data { id attributes { title publishedAt } } } } } } }'),
  pub('to-many relation default order', '{ articles(pagination: { limit: 5 }) { data { id attributes { categories { data { id attributes { name } } } } } } }'),
  pub('to-many relation filters', '{ articles(pagination: { limit: 5 }) { data { id attributes { categories(filters: { priority: { gte: 30 } }) { data { id } } } } } }'),
  pub('to-many relation pagination limit', '{ articles(pagination: { limit: 4 }) { data { id attributes { categories(pagination: { limit: 1 }) { data { id } } } } } }'),
  pub('to-many relation pagination page', '{ articles(pagination: { limit: 4 }) { data { id attributes { categories(pagination: { page: 2, pageSize: 1 }) { data { id } } } } } }'),
  pub('to-many relation sort', '{ articles(pagination: { limit: 4 }) { data { id attributes { categories(sort: "name:asc") { data { id attributes { name } } } } } } }'),
  pub('to-many relation sort desc list', '{ articles(pagination: { limit: 4 }) { data { id attributes { categories(sort: ["priority:desc"]) { data { id } } } } } }'),
  pub('to-many inverse default 10', '{ categories { data { id attributes { articles { data { id } } } } } }'),
  pub('to-many inverse limit -1', '{ categories(pagination: { limit: 2 }) { data { id attributes { articles(pagination: { limit: -1 }) { data { id } } } } } }'),
  pub('to-many inverse over maxLimit', '{ categories(pagination: { limit: 1 }) { data { id attributes { articles(pagination: { pageSize: 500 }, sort: "id:desc") { data { id } } } } } }'),
  pub('to-many inverse preview', '{ authors(pagination: { limit: 3 }) { data { id attributes { live: articles { data { id } } all: articles(publicationState: PREVIEW) { data { id } } } } } }'),
  post('to-many inverse preview token', '{ authors(filters: { id: { in: [1, 2] } }) { data { id attributes { articles(publicationState: PREVIEW, sort: "id:desc") { data { id } } } } } }'),
  pub('to-many self relation', '{ article(id: 7) { data { attributes { related { data { id } } drafts: related(publicationState: PREVIEW) { data { id } } } } } }'),
  pub('to-many relation sorted by relation', '{ category(id: 2) { data { attributes { articles(sort: ["author.name:asc", "id:asc"], pagination: { limit: 6 }) { data { id } } } } } }'),
  pub('to-many relation filter through relation', '{ category(id: 2) { data { attributes { articles(filters: { author: { name: { eq: "Author basil" } } }) { data { id } } } } } }'),
  pub('relation args unknown filter', '{ articles(pagination: { limit: 2 }) { data { id attributes { categories(filters: { nope: { eq: 1 } }) { data { id } } } } } }'),
  pub('relation args mixed pagination', '{ articles(pagination: { limit: 2 }) { data { id attributes { categories(pagination: { page: 1, limit: 2 }) { data { id } } } } } }'),
  pub('relation args unknown sort', '{ articles(pagination: { limit: 2 }) { data { id attributes { categories(sort: "nope") { data { id } } } } } }'),
  pub('relation args on to-one', '{ articles(pagination: { limit: 2 }) { data { id attributes { author(pagination: { limit: 1 }) { data { id } } } } } }'),
  pub('media single', `{ article(id: 4) { data { attributes { cover { data { id attributes { ${FILE_FIELDS} } } } } } } }`),
  pub('media single null', '{ article(id: 2) { data { attributes { cover { data { id } } } } } }'),
  pub('media multiple', '{ article(id: 7) { data { attributes { gallery { data { id attributes { name url width height } } } } } } }'),
  pub('media multiple args', '{ article(id: 7) { data { attributes { a: gallery(sort: "name:desc") { data { id } } b: gallery(pagination: { limit: 1 }) { data { id } } c: gallery(filters: { mime: { eq: "image/png" } }) { data { id } } } } } }'),
  pub('media multiple empty', '{ article(id: 2) { data { attributes { gallery { data { id } } } } } }'),
  pub('media on relation', '{ authors(pagination: { limit: 4 }) { data { id attributes { avatar { data { id attributes { name formats } } } } } } }'),
  pub('component single', '{ articles(pagination: { limit: 6 }) { data { id attributes { seo { id metaTitle metaDescription } } } } }'),
  pub('component media', '{ articles(pagination: { limit: 4 }) { data { id attributes { seo { metaTitle shareImage { data { id attributes { name } } } } } } } }'),
  pub('component repeatable', '{ articles(pagination: { limit: 6 }) { data { id attributes { links { id label url } } } } }'),
  pub('component repeatable args', '{ article(id: 3) { data { attributes { all: links { id label } desc: links(sort: "label:desc") { label } first: links(pagination: { limit: 1 }) { label } l1: links(filters: { label: { eq: "L1" } }) { id } } } } }'),
  pub('component repeatable bad filter', '{ article(id: 3) { data { attributes { links(filters: { nope: { eq: 1 } }) { id } } } } }'),
  pub('dynamic zone typename', '{ articles(pagination: { limit: 4 }) { data { id attributes { blocks { __typename } } } } }'),
  pub('dynamic zone fragments', `{ articles(pagination: { limit: 3 }) { data { id attributes { blocks {
    __typename
    ... on ComponentBlocksText { id body }
    ... on ComponentBlocksQuote { id text by }
    ... on ComponentBlocksGallery { id title images { data { id attributes { name } } } }
    ... on Error { code message } } } } } }`),
  pub('dynamic zone some fragments', '{ article(id: 12) { data { attributes { blocks { ... on ComponentBlocksQuote { text } } } } } }'),
  pub('dynamic zone without selection', '{ article(id: 12) { data { attributes { blocks } } } }'),
  pub('dynamic zone field not on union', '{ article(id: 12) { data { attributes { blocks { id } } } } }'),
  pub('single type nested', '{ homepage { data { attributes { hero { metaTitle shareImage { data { id attributes { name } } } } featured(sort: "id:desc") { data { id attributes { title } } } } } } }'),
  pub('single type featured args', '{ homepage { data { attributes { featured(pagination: { limit: 2 }, filters: { id: { gt: 2 } }) { data { id } } } } } }'),
  pub('localizations', '{ pages(locale: "all", publicationState: PREVIEW) { data { id attributes { locale localizations { data { id attributes { locale title } } } } } } }'),
  pub('localizations preview', '{ pages(locale: "fr", publicationState: PREVIEW) { data { id attributes { localizations(publicationState: PREVIEW) { data { id } } } } } }'),
  pub('localizations of default locale', '{ page(id: 1) { data { attributes { localizations { data { id } } } } } }'),
  pub('upload file related morph', '{ uploadFiles { data { id attributes { related { __typename ... on Article { articleTitle: title } ... on Author { name } ... on ComponentSharedSeo { metaTitle } ... on ComponentBlocksGallery { galleryTitle: title } } } } } }'),
  pub('aliases same relation', '{ article(id: 5) { data { attributes { asc: categories(sort: "name:asc") { data { id } } desc: categories(sort: "name:desc") { data { id } } one: categories(pagination: { limit: 1 }) { data { id } } } } } }'),
  pub('aliases root fields', '{ first: article(id: 1) { data { id } } second: article(id: 2) { data { id } } few: articles(pagination: { limit: 2 }) { data { id } } cats: categories(pagination: { limit: 2 }) { data { id } } }'),
  pub('aliases on scalars', '{ article(id: 2) { data { key: id attributes { name: title hits: views } } } }'),
  pub('named fragments', `query { articles(pagination: { limit: 3 }) { ...Coll } }
    fragment Coll on ArticleEntityResponseCollection { data { ...Ent } meta { pagination { total } } }
    fragment Ent on ArticleEntity { id attributes { ...Art } }
    fragment Art on Article { title author { data { id } } }`),
  pub('fragment on wrong type', 'query { articles { data { ...F } } } fragment F on Author { name }'),
  pub('unused fragment', 'query { articles(pagination: { limit: 1 }) { data { id } } } fragment F on Article { title }'),
  pub('variables and directives', `query V($id: ID!, $withAuthor: Boolean!, $skipCats: Boolean = false) { article(id: $id) { data { id attributes {
    title author @include(if: $withAuthor) { data { id } } categories @skip(if: $skipCats) { data { id } } } } } }`, { variables: { id: 9, withAuthor: true } }),
  pub('directives skip all', 'query V($no: Boolean!) { article(id: 9) { data { id attributes @include(if: $no) { title } } } }', { variables: { no: false } }),
  pub('typename everywhere', '{ articles(pagination: { limit: 1 }) { __typename data { __typename id attributes { __typename author { __typename data { __typename } } categories { __typename } seo { __typename } } } meta { __typename pagination { __typename total } } } }'),
  pub('authors with articles', '{ authors(pagination: { limit: 2 }) { data { id attributes { name articles(pagination: { limit: 2 }) { data { id attributes { title } } } } } } }'),
  pub('categories with articles sorted', '{ categories(pagination: { limit: 2 }) { data { id attributes { articles(pagination: { limit: 3 }, sort: "views:desc") { data { id attributes { views } } } } } } }'),
  post('users with role', '{ usersPermissionsUsers { data { id attributes { username email provider confirmed blocked role { data { id attributes { name type } } } createdAt } } } }'),
  post('roles with users and permissions', '{ usersPermissionsRoles(sort: "id:asc") { data { id attributes { name users { data { id } } permissions(sort: "action:asc", pagination: { limit: 3 }) { data { attributes { action } } } } } } }'),
  post('role findOne', '{ usersPermissionsRole(id: 2) { data { id attributes { name type description } } } }'),
  post('user findOne', '{ usersPermissionsUser(id: 1) { data { id attributes { username role { data { attributes { name } } } } } } }'),
  pub('upload files all fields', `{ uploadFiles(sort: "id:asc") { data { id attributes { ${FILE_FIELDS} } } } }`),
]);

// ---- graphql-errors-auth: document errors, limits, permissions, tokens, operations, GET, introspection ---
const DEEP = '{ articles { data { attributes { author { data { attributes { articles { data { id } } } } } } } } }';
write('graphql-errors-auth', [
  pub('depth limit anonymous', DEEP),
  pub('depth limit named', `query Deep ${DEEP}`),
  pub('depth at limit passes', '{ articles(pagination: { limit: 2 }) { data { attributes { seo { shareImage { data { attributes { name } } } } } } } }'),
  pub('depth through fragments', 'query F { articles(pagination: { limit: 1 }) { ...A } } fragment A on ArticleEntityResponseCollection { data { attributes { author { data { attributes { articles { data { id } } } } } } } }'),
  pub('depth limit beside ok operation', 'query Ok { __typename } query Deep ' + DEEP, { operationName: 'Ok' }),
  pub('unknown field', '{ articles { data { id attributes { nope } } } }'),
  pub('unknown root field', '{ nope { id } }'),
  pub('unknown argument', '{ articles(nope: 1) { data { id } } }'),
  pub('two unknown fields', '{ articles { data { attributes { a b } } } }'),
  pub('missing selection', '{ articles }'),
  pub('selection on scalar', '{ articles { data { id { x } } } }'),
  pub('syntax error', '{ articles { data { id '),
  pub('syntax error bad token', '{ articles(pagination: { limit: 1 } { data { id } } }'),
  pub('empty query', '', { body: { query: '' } }),
  pub('no query', '', { body: { variables: {} } }),
  pub('query not a string', '', { body: { query: 123 } }),
  pub('body not json', '', { body: 'nope', headers: { 'content-type': 'application/json' } }),
  pub('empty json object', '', { body: {} }),
  pub('content-type text/plain', '', { body: '{"query":"{ __typename }"}', headers: { 'content-type': 'text/plain' } }),
  pub('content-type application/graphql', '', { body: '{ __typename }', headers: { 'content-type': 'application/graphql' } }),
  pub('variables as a json string', '', { body: { query: 'query Q($id: ID) { article(id: $id) { data { id } } }', variables: '{"id":"4"}' } }),
  pub('bad variable type', 'query Q($id: ID) { article(id: $id) { data { id } } }', { variables: { id: { a: 1 } } }),
  pub('bad int variable', 'query Q($l: Int) { articles(pagination: { limit: $l }) { data { id } } }', { variables: { l: 'ten' } }),
  pub('missing required variable', 'query Q($id: ID!) { article(id: $id) { data { id } } }', { variables: {} }),
  pub('undefined variable', '{ article(id: $id) { data { id } } }'),
  pub('unused variable', 'query Q($id: ID) { articles(pagination: { limit: 1 }) { data { id } } }'),
  pub('variable type mismatch', 'query Q($p: String) { articles(pagination: $p) { data { id } } }'),
  pub('unknown variable type', 'query Q($p: Nope) { articles { data { id } } }'),
  pub('duplicate operation names', 'query A { __typename } query A { __typename }', { operationName: 'A' }),
  pub('findOne without id', '{ article { data { id } } }'),
  // pagination whose page does not fit a 32-bit Int: a non-null field resolving to an error
  pub('non-null page overflow', '{ articles(pagination: { start: 2147483647, limit: 1 }) { data { id } meta { pagination { total page pageSize pageCount } } } }'),
  pub('non-null page overflow without meta', '{ articles(pagination: { start: 2147483647, limit: 1 }) { data { id } } }'),
  pub('non-null error beside other root field', '{ categories(pagination: { limit: 1 }) { data { id } } articles(pagination: { start: 2147483647, limit: 1 }) { meta { pagination { page } } } }'),
  // permissions
  pub('forbidden users as public', '{ usersPermissionsUsers { data { id attributes { username } } } }'),
  pub('forbidden user findOne as public', '{ usersPermissionsUser(id: 1) { data { id } } }'),
  pub('forbidden roles as public', '{ usersPermissionsRoles { data { id } } }'),
  pub('forbidden folders as public', '{ uploadFolders { data { id } } }'),
  pub('forbidden beside allowed', '{ categories(pagination: { limit: 2 }) { data { id } } usersPermissionsUsers { data { id } } }'),
  pub('forbidden with variables error first', 'query Q($id: ID!) { usersPermissionsUser(id: $id) { data { id } } }'),
  pub('me as public', '{ me { id username } }'),
  post('me with api token', '{ me { id username } }'),
  post('me with jwt', '{ me { id username email confirmed blocked role { id name description type } } }', { as: READER_JWT }),
  post('jwt role reads articles', '{ articles { data { id } } }', { as: READER_JWT }),
  post('jwt role reads locales', '{ i18NLocales { data { id } } }', { as: READER_JWT }),
  post('jwt me beside forbidden', '{ me { username } categories { data { id } } }', { as: READER_JWT }),
  post('bad jwt', '{ categories { data { id } } }', { as: 'x.y.z' }),
  post('bad jwt introspection', '{ __typename }', { as: 'x.y.z' }),
  post('expired jwt', '{ me { id } }', { as: EXPIRED_JWT }),
  post('jwt of unknown user', '{ me { id } }', { as: UNKNOWN_USER_JWT }),
  post('bad api token', '{ categories { data { id } } }', { as: 'not-a-token' }),
  pub('empty authorization header', '{ categories(pagination: { limit: 1 }) { data { id } } }', { headers: { authorization: '' } }),
  pub('bearer without token', '{ categories(pagination: { limit: 1 }) { data { id } } }', { headers: { authorization: 'Bearer ' } }),
  pub('basic authorization', '{ categories(pagination: { limit: 1 }) { data { id } } }', { headers: { authorization: 'Basic YTpi' } }),
  post('bad jwt on a bad document', '{ nope }', { as: 'x.y.z' }),
  // operations
  pub('operationName picks first', 'query A { categories(pagination: { limit: 1 }) { data { id } } } query B { authors(pagination: { limit: 1 }) { data { id } } }', { operationName: 'A' }),
  pub('operationName picks second', 'query A { categories(pagination: { limit: 1 }) { data { id } } } query B { authors(pagination: { limit: 1 }) { data { id } } }', { operationName: 'B' }),
  pub('several operations without name', 'query A { __typename } query B { __typename }'),
  pub('operationName unknown', 'query A { __typename } query B { __typename }', { operationName: 'C' }),
  pub('operationName for single anonymous', '{ __typename }', { operationName: 'X' }),
  pub('operationName null', 'query A { __typename }', { operationName: null }),
  pub('batched operations', '', { body: [{ query: '{ categories(pagination: { limit: 1 }) { data { id } } }' }, { query: '{ nope }' }] }),
  get('get query', '{ articles(pagination: { limit: 2 }) { data { id attributes { title } } } }', { as: 'none' }),
  get('get with variables', 'query G($id: ID) { article(id: $id) { data { id } } }', { variables: { id: '6' }, as: 'none' }),
  get('get operationName', 'query A { __typename } query B { categories(pagination: { limit: 1 }) { data { id } } }', { operationName: 'B', as: 'none' }),
  get('get with token', '{ usersPermissionsRoles { data { id } } }'),
  get('get syntax error', '{ articles {', { as: 'none' }),
  get('get forbidden', '{ usersPermissionsUsers { data { id } } }', { as: 'none' }),
  { name: 'get without query', method: 'GET', url: '/graphql', auth: 'none' },
  // refused before it runs (and would change nothing: no such entry)
  get('get mutation', 'mutation { deleteArticle(id: 999999) { data { id } } }', { as: 'none' }),
  // introspection and plugin queries
  pub('typename only', '{ __typename }'),
  pub('typename named query', 'query T { __typename }'),
  pub('introspection query type', '{ __schema { queryType { name } mutationType { name } subscriptionType { name } } }'),
  pub('introspection type', '{ __type(name: "Pagination") { name kind fields { name type { kind ofType { name } } } } }'),
  pub('introspection enum', '{ __type(name: "ENUM_ARTICLE_KIND") { enumValues { name } } }'),
  pub('i18n locales public', '{ i18NLocales { data { id attributes { name code createdAt } } } }'),
  pub('upload files public', '{ uploadFiles(sort: "id:desc") { data { id attributes { name url } } } }'),
  pub('upload file public findOne', '{ uploadFile(id: 3) { data { id attributes { name formats } } } }'),
  post('roles with token', '{ usersPermissionsRoles { data { id attributes { name type } } meta { pagination { total } } } }'),
  post('folders with token', '{ uploadFolders { data { id attributes { name pathId path files { data { id } } } } } }'),
]);
