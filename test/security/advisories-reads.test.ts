// Issue #18 part 1, the advisory suite (reads): one test per class of v4 hole, each sending the attack through
// REST and GraphQL and checking its refusal. Private attributes (users' `password`, `resetPasswordToken`,
// `confirmationToken`; the fixture's `author.secret`) cannot be filtered, sorted, selected or populated on,
// directly, through relations, inside `$or`/`$and`/`$not` or `populate[x][filters]`, and a refused guess looks
// the same whether it was right or wrong (CVE-2023-22894 and its variants); users' private fields never leave
// (strapi/strapi#7856, #26182); unknown query parameters never reach storage (CVE-2026-27886); prototype keys
// in bodies and query strings pollute nothing.
// Covered elsewhere, not repeated here: private fields of populated users in every populate form
// (test/integration/relations/private-fields.test.ts), lifecycle hooks widening a read
// (test/integration/lifecycles/fixture-app-hooks.test.ts), webhooks' payloads
// (test/integration/webhooks/webhooks.test.ts: an author's `secret` and a registered user's password never sent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from '../helpers/gql';
import { startAuthApp, type AuthApp } from '../integration/auth/auth-app';

let t: AuthApp;
/** the fixture user's JWT (Authenticated role: `me` and `changePassword` only) */
let readerJwt: string;
const RESET = 'reset-token-never-answered';
const CONFIRM = 'confirm-token-never-answered';
/** anything that would show a user's private fields: their names, our planted values, a bcrypt hash */
const USER_SECRETS = new RegExp(`"password"|resetPasswordToken|confirmationToken|${RESET}|${CONFIRM}|\\$2[aby]\\$`);

beforeAll(async () => {
  t = await startAuthApp();
  await t.app.query('plugin::users-permissions.user').update({ where: { username: 'reader' }, data: { resetPasswordToken: RESET, confirmationToken: CONFIRM } });
  // author 1 (secret `secret-0`) gets an avatar, so the file's `related` reaches it
  await t.app.query('api::author.author').update({ where: { id: 1 }, data: { avatar: 1 } });
  readerJwt = await t.login('reader', 'Reader-pass-1');
});
afterAll(async () => {
  await t?.stop();
});

/** a GET as the Public role (full access with `token`), its status and raw text */
async function get(url: string, auth: { token?: boolean; jwt?: string } = {}): Promise<{ status: number; text: string }> {
  const r = await t.request('GET', url, auth);
  return { status: r.status, text: JSON.stringify(r.body) };
}

const INVALID = (name: string) => JSON.stringify({ data: null, error: { status: 400, name: 'ValidationError', message: `Invalid parameter ${name}`, details: {} } });

describe('private fields cannot be filtered, sorted, selected or populated on (CVE-2023-22894)', () => {
  // author 1's secret is `secret-0`: each query holds a right guess; `{g}` is replaced by a wrong one too
  const AUTHOR_SECRET = [
    '/api/authors?filters[secret][$startsWith]={g}',
    '/api/authors?filters[secret][$eq]={g}',
    '/api/authors?filters[$or][0][name][$eq]=nobody&filters[$or][1][secret][$startsWith]={g}',
    '/api/authors?filters[$and][0][id][$gt]=0&filters[$and][1][secret][$startsWith]={g}',
    '/api/authors?filters[$not][secret][$startsWith]={g}',
    '/api/authors?filters[$not][$or][0][secret][$startsWith]={g}',
    '/api/articles?filters[author][secret][$startsWith]={g}',
    '/api/articles?filters[$or][0][author][secret][$startsWith]={g}',
    '/api/authors?filters[articles][author][secret][$startsWith]={g}',
    '/api/articles?populate[author][filters][secret][$startsWith]={g}',
    '/api/articles?populate[author][filters][$or][0][secret][$startsWith]={g}',
    '/api/authors?populate[articles][populate][author][filters][secret][$startsWith]={g}',
  ];
  it.each(AUTHOR_SECRET)('REST, Public role: %s is a 400, the same for a right and a wrong guess', async (url) => {
    const right = await get(url.replace('{g}', 'secret-0'));
    const wrong = await get(url.replace('{g}', 'zzz'));
    expect(right).toEqual({ status: 400, text: INVALID('secret') });
    expect(wrong).toEqual(right);
    // the full-access token is refused the same way
    expect(await get(url.replace('{g}', 'secret-0'), { token: true })).toEqual(right);
  });

  it.each([
    ['/api/authors?sort=secret', 'secret'],
    ['/api/authors?sort[0]=name&sort[1]=secret:desc', 'secret'],
    ['/api/articles?sort=author.secret', 'secret'],
    ['/api/authors?fields[0]=name&fields[1]=secret', 'secret'],
    ['/api/authors?fields=secret', 'secret'],
    ['/api/authors?sort[secret]=asc', 'secret'],
    ['/api/authors?sort[0][secret]=desc', 'secret'],
    ['/api/articles?sort[0][author][secret]=asc', 'secret'],
    ['/api/articles?populate[author][populate][articles][populate][author][fields][0]=secret', 'secret'],
    ['/api/articles?populate[author][fields][0]=secret', 'secret'],
    ['/api/articles?populate[author][sort]=secret', 'secret'],
    ['/api/users?filters[password][$startsWith]=$2', 'password'],
    ['/api/users?filters[$or][0][resetPasswordToken][$eq]=' + RESET, 'resetPasswordToken'],
    ['/api/users?filters[$not][confirmationToken][$null]=true', 'confirmationToken'],
    ['/api/users?filters[role][users][password][$startsWith]=$2', 'password'],
    ['/api/users?populate[role][populate][users][filters][resetPasswordToken][$startsWith]=r', 'resetPasswordToken'],
    ['/api/users?sort=resetPasswordToken', 'resetPasswordToken'],
    ['/api/users?fields[0]=password', 'password'],
    ['/api/users?populate[role][populate][users][fields][0]=confirmationToken', 'confirmationToken'],
    // creators are admin users (private unless populateCreatorFields): their email and password hash too
    ['/api/articles?filters[createdBy][email][$startsWith]=a', 'createdBy'],
    ['/api/articles?sort=createdBy.email', 'createdBy'],
    ['/api/articles?filters[updatedBy][password][$null]=false', 'password'],
  ])('REST, full-access token: %s is a 400', async (url, name) => {
    expect(await get(url, { token: true })).toEqual({ status: 400, text: INVALID(name) });
  });

  it('REST and GraphQL: a file\'s `related` entries (the media morph) answer no private field', async () => {
    for (const url of ['/api/upload/files?populate[related][populate]=*', '/api/upload/files/1?populate=related', '/api/authors?populate[avatar][populate][related]=true', '/api/authors/1?populate[avatar][populate][related][populate]=*']) {
      const r = await get(url);
      expect(r.status, url).toBe(200);
      expect(r.text, url).toContain('Author amber');
      expect(r.text, url).not.toContain('secret-');
    }
    expect((await get('/api/upload/files?filters[related][secret][$eq]=secret-0')).text).toBe(INVALID('related'));
    const related = await gql(t.url, '{ uploadFiles { data { attributes { related { __typename ... on Author { name } } } } } }');
    expect(JSON.stringify(related.body)).toContain('Author amber');
    expect(JSON.stringify(related.body)).not.toContain('secret-');
  });

  it('REST: the `_q` search never matches private fields (no answer tells a right guess from a wrong one)', async () => {
    const none = (text: string) => ({ status: 200, text });
    const emptyList = JSON.stringify({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
    for (const q of ['secret-0', 'secret', 'zzz']) expect(await get(`/api/authors?fields[0]=name&_q=${q}`), q).toEqual(none(emptyList));
    // a public field still matches
    expect(JSON.parse((await get('/api/authors?fields[0]=name&_q=Author amber')).text).data).toEqual([{ id: 1, attributes: { name: 'Author amber' } }]);
    for (const q of [RESET, CONFIRM, '$2a$', '$2b$', 'zzz']) expect(await get(`/api/users?_q=${encodeURIComponent(q)}`, { token: true }), q).toEqual(none('[]'));
  });

  it('REST: the users routes answer no private field, however populated (strapi/strapi#7856, #26182)', async () => {
    for (const url of ['/api/users', '/api/users?populate=*', '/api/users?populate=role', '/api/users/1', '/api/users/1?populate[role][populate]=*', '/api/users/1?populate[role][populate][users]=true']) {
      const r = await get(url, { token: true });
      expect(r.status, url).toBe(200);
      expect(r.text, url).toContain('reader@example.com');
      expect(r.text, url).not.toMatch(USER_SECRETS);
    }
    const me = await get('/api/users/me?populate=*', { jwt: readerJwt });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.text)).toMatchObject({ username: 'reader' });
    expect(me.text).not.toMatch(USER_SECRETS);
  });

  it('GraphQL: private fields are not in the schema (filters, selection, relation filters), sort on them is refused', async () => {
    const refusedByValidation = [
      ['{ authors(filters: { secret: { startsWith: "{g}" } }) { data { id } } }', 'Field "secret" is not defined by type "AuthorFiltersInput".'],
      ['{ authors(filters: { or: [{ secret: { startsWith: "{g}" } }] }) { data { id } } }', 'Field "secret" is not defined by type "AuthorFiltersInput".'],
      ['{ authors(filters: { not: { secret: { startsWith: "{g}" } } }) { data { id } } }', 'Field "secret" is not defined by type "AuthorFiltersInput".'],
      ['{ articles(filters: { author: { secret: { startsWith: "{g}" } } }) { data { id } } }', 'Field "secret" is not defined by type "AuthorFiltersInput".'],
      ['{ authors { data { attributes { articles(filters: { author: { secret: { startsWith: "{g}" } } }) { data { id } } } } } }', 'Field "secret" is not defined by type "AuthorFiltersInput".'],
      ['{ authors { data { attributes { secret } } } }', 'Cannot query field "secret" on type "Author".'],
      ['{ usersPermissionsUsers(filters: { password: { startsWith: "{g}" } }) { data { id } } }', 'Field "password" is not defined by type "UsersPermissionsUserFiltersInput".'],
      ['{ usersPermissionsUsers(filters: { role: { users: { resetPasswordToken: { eq: "{g}" } } } }) { data { id } } }', 'Field "resetPasswordToken" is not defined by type "UsersPermissionsUserFiltersInput".'],
      ['{ usersPermissionsUsers { data { attributes { password } } } }', 'Cannot query field "password" on type "UsersPermissionsUser".'],
      ['{ me { confirmationToken } }', 'Cannot query field "confirmationToken" on type "UsersPermissionsMe".'],
    ];
    for (const [query, message] of refusedByValidation) {
      const right = await gql(t.url, query.replace('{g}', 'secret-0'), { token: t.token });
      expect(right.status, query).toBe(400);
      expect(right.body.errors?.map((e) => e.message), query).toEqual([message]);
      expect(await gql(t.url, query.replace('{g}', 'zzz'), { token: t.token })).toEqual(right);
    }
    for (const sort of ['secret', 'name,secret:desc']) {
      const answer = await gql(t.url, `{ authors(sort: "${sort}") { data { id } } }`);
      expect(answer.body).toMatchObject({ data: { authors: null }, errors: [{ message: 'Invalid parameter secret', extensions: { code: 'BAD_USER_INPUT' } }] });
    }
  });

  it('GraphQL: users, their role\'s users and `me` answer no private field', async () => {
    const users = await gql(t.url, '{ usersPermissionsUsers { data { id attributes { username email provider confirmed blocked role { data { attributes { name users { data { attributes { username email } } } } } } } } } }', { token: t.token });
    expect(users.status).toBe(200);
    expect(JSON.stringify(users.body)).toContain('reader@example.com');
    const me = await gql(t.url, '{ me { id username email confirmed blocked role { name } } }', { token: readerJwt });
    expect(me.body.data?.me).toMatchObject({ username: 'reader', email: 'reader@example.com' });
    expect(JSON.stringify([users.body, me.body])).not.toMatch(USER_SECRETS);
  });
});

describe('unknown query parameters never reach storage (CVE-2026-27886)', () => {
  const BASE = '/api/articles?fields[0]=title&pagination[pageSize]=100&sort=id';
  it.each([
    'foo[$ne]=x', 'where[id]=1', 'where[$or][0][id]=1', '$where=1', 'id[$ne]=1', 'title[$null]=true', 'data[title]=x', 'orderBy=id:desc',
  ])('an unknown top-level parameter is ignored: ?%s answers exactly what the query without it answers', async (extra) => {
    const plain = await get(BASE);
    expect(plain.status).toBe(200);
    expect(await get(`${BASE}&${extra}`)).toEqual(plain);
  });

  it.each([
    ['filters[unknownField][$eq]=1', 'unknownField'],
    ['filters[id][$foo]=1', '$foo'],
    ['filters[$where]=1', '$where'],
    ['filters[title][$raw]=x', '$raw'],
    ['filters[id][$ne][$ne]=1', '$ne'],
    ['filters[author][unknownField][$eq]=1', 'unknownField'],
    ['populate[author][filters][nope][$eq]=1', 'nope'],
  ])('an unknown field or operator inside filters is a 400: %s', async (extra, name) => {
    expect(await get(`${BASE}&${extra}`)).toEqual({ status: 400, text: INVALID(name) });
  });

  it('GraphQL: unknown arguments and filter operators fail validation', async () => {
    for (const query of ['{ articles(where: { id: 1 }) { data { id } } }', '{ articles(filters: { id: { ne2: 1 } }) { data { id } } }', '{ articles(filters: { unknownField: { eq: 1 } }) { data { id } } }']) {
      const answer = await gql(t.url, query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors![0].extensions?.code, query).toBe('GRAPHQL_VALIDATION_FAILED');
    }
  });
});

describe('prototype keys in bodies and query strings pollute nothing', () => {
  const POLLUTING_BODY = '{"data":{"name":"{name}","__proto__":{"polluted":"yes","priority":7},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}},"__proto__":{"polluted":"yes"}}';
  /** a category as the server answers it, read back without auth */
  const category = async (id: number) => JSON.parse((await get(`/api/categories/${id}`)).text).data.attributes as Record<string, unknown>;

  it('REST bodies: the keys are ignored (no field set from them), and later writes and reads show no polluted default', async () => {
    const res = await fetch(`${t.url}/api/categories`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: POLLUTING_BODY.replace('{name}', 'proto-a') });
    const text = await res.text();
    // a clean 4xx would do too; Tessera takes the entry and ignores the keys
    expect(res.status).toBe(200);
    const id = JSON.parse(text).data.id as number;
    expect(await category(id)).toMatchObject({ name: 'proto-a', priority: null });
    expect(await category(id)).not.toHaveProperty('polluted');

    // a later request made without the keys: nothing inherited from them
    const later = await t.request('POST', '/api/categories', { body: { data: { name: 'proto-b' } } });
    expect(later.status).toBe(200);
    expect(later.body.data.attributes).toMatchObject({ name: 'proto-b', priority: null });
    expect(JSON.stringify(later.body)).not.toContain('polluted');
    const update = await fetch(`${t.url}/api/categories/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"data":{"__proto__":{"name":"renamed"}}}' });
    expect([200, 400]).toContain(update.status);
    expect((await category(id)).name).toBe('proto-a');
    // the server runs in this process: its objects show no polluted default either
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    '__proto__[polluted]=1', '__proto__[fields][0]=slug', 'constructor[prototype][polluted]=1', 'filters[__proto__][polluted]=1',
    'filters[constructor][prototype][id]=1', 'filters[title][__proto__][$eq]=x', 'populate[__proto__][polluted]=true', 'pagination[__proto__][pageSize]=1',
  ])('REST query strings: ?%s is ignored (same answer as without), and the next plain request is unchanged', async (extra) => {
    const BASE = '/api/articles?fields[0]=title&pagination[pageSize]=5&sort=id';
    const plain = await get(BASE);
    expect(await get(`${BASE}&${extra}`)).toEqual(plain);
    expect(await get(BASE)).toEqual(plain);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('GraphQL variables: the keys are refused by validation, nothing written', async () => {
    const before = (await get('/api/categories?pagination[pageSize]=100')).text;
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: '{"query":"mutation($d: CategoryInput!) { createCategory(data: $d) { data { id } } }","variables":{"d":{"name":"gql-proto","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}}',
    });
    expect(res.status).toBe(400);
    const body = await res.json() as { errors: Array<{ extensions: { code: string } }> };
    expect(body.errors.map((e) => e.extensions.code)).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
    expect((await get('/api/categories?pagination[pageSize]=100')).text).toBe(before);
    const later = await gql(t.url, 'mutation { createCategory(data: { name: "gql-plain" }) { data { attributes { name priority } } } }');
    expect(later.body.data).toEqual({ createCategory: { data: { attributes: { name: 'gql-plain', priority: null } } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
