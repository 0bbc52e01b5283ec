// The GraphQL side of users-permissions, upload and i18n where the goldens do not look: the multipart request
// format's limits and malformed requests (413/400 in the REST error envelope, nothing stored, no temporary file
// left), files only from a multipart request, REST's attach rule (update on the entry), the REST rate limits
// counting GraphQL logins in the same window, a successful emailConfirmation, and createLocalization's scope.
// Real HTTP against the fixture app (with the data real Strapi wrote) and its SQLite database.
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUploadApp, type UploadApp } from '../upload/app';
import * as gen from '../upload/fixtures';

const UPLOAD = 'mutation($file: Upload!, $ref: String, $refId: ID, $field: String) { upload(file: $file, ref: $ref, refId: $refId, field: $field) { data { id attributes { name size } } } }';

type Part = { field: string; value: string } | { field: string; file: Buffer; name: string };

/** a multipart body with the parts in the given order (the format cares about the order) */
function multipart(parts: Part[]): FormData {
  const fd = new FormData();
  for (const p of parts) {
    if ('file' in p) fd.append(p.field, new Blob([new Uint8Array(p.file)]), p.name);
    else fd.append(p.field, p.value);
  }
  return fd;
}

/** operations, map, then the files: a well-formed request */
function uploadRequest(operations: unknown, map: unknown, files: Array<{ field: string; file: Buffer; name: string }>): FormData {
  return multipart([{ field: 'operations', value: JSON.stringify(operations) }, { field: 'map', value: JSON.stringify(map) }, ...files]);
}

async function gql(app: UploadApp, body: FormData | Record<string, unknown>, auth: string | null = app.token) {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = `Bearer ${auth}`;
  if (!(body instanceof FormData)) headers['content-type'] = 'application/json';
  const res = await fetch(`${app.url}/graphql`, { method: 'POST', headers, body: body instanceof FormData ? body : JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** the upload reader's temporary folders still on disk (removed once the answer is sent) */
async function leftoverTemps(): Promise<string[]> {
  for (let i = 0; i < 50; i++) {
    const left = fs.readdirSync(os.tmpdir()).filter((e) => e.startsWith('tessera-upload-'));
    if (left.length === 0) return left;
    await new Promise((r) => setTimeout(r, 20));
  }
  return fs.readdirSync(os.tmpdir()).filter((e) => e.startsWith('tessera-upload-'));
}

const SPEC = '(https://github.com/jaydenseric/graphql-multipart-request-spec).';

describe('GraphQL multipart requests', () => {
  let t: UploadApp;
  beforeAll(async () => {
    t = await startUploadApp({
      // the fixture's graphql and users-permissions config, a small upload size limit, at most 2 files
      plugins: `module.exports = () => ({ upload: { config: { sizeLimit: 20000 } }, 'users-permissions': { config: { jwtSecret: 'peer-users-permissions-jwt-secret-not-for-production' } } });\n`,
      middlewares: "module.exports = ['strapi::errors', { name: 'strapi::body', config: { formidable: { maxFiles: 2 } } }, 'strapi::query'];\n",
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers a file over upload.config.sizeLimit with REST\'s 413, storing nothing', async () => {
    const before = { files: t.uploads(), rows: (await t.rows('SELECT id FROM files')).length };
    const res = await gql(t, uploadRequest({ query: UPLOAD, variables: { file: null } }, { 0: ['variables.file'] }, [{ field: '0', file: await gen.bigJpeg(), name: 'big.jpg' }]));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'big.jpg exceeds size limit of 20 KB.', details: {} } });
    expect(t.uploads()).toEqual(before.files);
    expect((await t.rows('SELECT id FROM files')).length).toBe(before.rows);
    expect(await leftoverTemps()).toEqual([]);
  });

  it('answers more files than strapi::body formidable.maxFiles with 413', async () => {
    const text = gen.textFile();
    const query = 'mutation($files: [Upload]!) { multipleUpload(files: $files) { data { id } } }';
    const map = { 0: ['variables.files.0'], 1: ['variables.files.1'], 2: ['variables.files.2'] };
    const res = await gql(t, uploadRequest({ query, variables: { files: [null, null, null] } }, map, [0, 1, 2].map((i) => ({ field: String(i), file: text, name: `n${i}.txt` }))));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ status: 413, name: 'PayloadTooLargeError', message: 'Too many files in one request' });
    expect(await leftoverTemps()).toEqual([]);
  });

  it('answers requests that do not follow the format with 400 and the format\'s message', async () => {
    const file = { field: '0', file: gen.textFile(), name: 'notes.txt' };
    const ops = JSON.stringify({ query: UPLOAD, variables: { file: null } });
    const cases: Array<[Part[], string]> = [
      [[{ field: 'map', value: '{"0":["variables.file"]}' }, { field: 'operations', value: ops }, file], `Misordered multipart fields; ‘map’ should follow ‘operations’ ${SPEC}`],
      [[{ field: 'operations', value: ops }, file, { field: 'map', value: '{"0":["variables.file"]}' }], `Misordered multipart fields; files should follow ‘map’ ${SPEC}`],
      [[{ field: 'operations', value: '{nope' }, { field: 'map', value: '{}' }], `Invalid JSON in the ‘operations’ multipart field ${SPEC}`],
      [[{ field: 'operations', value: '"query"' }, { field: 'map', value: '{}' }], `Invalid type for the ‘operations’ multipart field ${SPEC}`],
      [[{ field: 'operations', value: ops }, { field: 'map', value: '["variables.file"]' }, file], `Invalid type for the ‘map’ multipart field ${SPEC}`],
      [[{ field: 'operations', value: ops }, { field: 'map', value: '{"0":"variables.file"}' }, file], `Invalid type for the ‘map’ multipart field entry key ‘0’ array ${SPEC}`],
      [[{ field: 'operations', value: ops }, { field: 'map', value: '{"0":[7]}' }, file], `Invalid type for the ‘map’ multipart field entry key ‘0’ array index ‘0’ value ${SPEC}`],
      [[{ field: 'operations', value: ops }, { field: 'map', value: '{"0":["__proto__.polluted"]}' }, file], `Invalid object path for the ‘map’ multipart field entry key ‘0’ array index ‘0’ value ‘__proto__.polluted’ ${SPEC}`],
      [[{ field: 'operations', value: ops }, { field: 'map', value: '{"0":["query.x"]}' }, file], `Invalid object path for the ‘map’ multipart field entry key ‘0’ array index ‘0’ value ‘query.x’ ${SPEC}`],
      [[{ field: 'map', value: '{}' }], `Misordered multipart fields; ‘map’ should follow ‘operations’ ${SPEC}`],
      [[{ field: 'operations', value: ops }], `Missing multipart field ‘map’ ${SPEC}`],
      [[file], `Misordered multipart fields; files should follow ‘map’ ${SPEC}`],
    ];
    const rows = (await t.rows('SELECT id FROM files')).length;
    for (const [parts, message] of cases) {
      const res = await gql(t, multipart(parts));
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { data: null, error: { status: 400, name: 'BadRequestError', message } } });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await t.rows('SELECT id FROM files')).length).toBe(rows);
    expect(await leftoverTemps()).toEqual([]);
  });

  it('answers an Upload that map names but the request never sent with an error at the field', async () => {
    const res = await gql(t, uploadRequest({ query: UPLOAD, variables: { file: null } }, { 0: ['variables.file'] }, []));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: null,
      errors: [{ message: 'File missing in the request.', extensions: { error: { name: 'BadRequestError', message: 'File missing in the request.', details: {} }, code: 'STRAPI_BAD_REQUEST_ERROR' } }],
    });
  });

  it('takes files only from a multipart request: a JSON value never stands for one', async () => {
    for (const file of [{ path: '/etc/passwd', fileName: 'passwd', bytes: 10 }, 'notes.txt']) {
      const res = await gql(t, { query: UPLOAD, variables: { file } });
      expect(res.status).toBe(400);
      // graphql-js words it with the scalar's message, graphql-jit (a document's later runs) with its own
      expect(res.body.errors[0].message).toMatch(/^Variable "\$file" got invalid value .*; (Upload value invalid|Expected type Upload)\.$/);
    }
  });

  it('stores one file mapped to two places twice, both intact', async () => {
    // a text file: stored as sent (an image would be re-encoded)
    const text = gen.textFile();
    const query = 'mutation($files: [Upload]!) { multipleUpload(files: $files) { data { id attributes { name size } } } }';
    const res = await gql(t, uploadRequest({ query, variables: { files: [null, null] } }, { 0: ['variables.files.0', 'variables.files.1'] }, [{ field: '0', file: text, name: 'twice.txt' }]));
    expect(res.status).toBe(200);
    const created = res.body.data.multipleUpload as Array<{ data: { id: string } }>;
    expect(created).toHaveLength(2);
    for (const { data } of created) {
      const [row] = await t.rows<{ url: string }>('SELECT url FROM files WHERE id = ?', Number(data.id));
      const served = await fetch(`${t.url}${row.url}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(text)).toBe(true);
    }
    expect(await leftoverTemps()).toEqual([]);
  });

  it('reads no file for a caller with a bad token', async () => {
    const res = await gql(t, uploadRequest({ query: UPLOAD, variables: { file: null } }, { 0: ['variables.file'] }, [{ field: '0', file: gen.textFile(), name: 'notes.txt' }]), 'not-a-token');
    expect(res.status).toBe(401);
    expect(await leftoverTemps()).toEqual([]);
  });

  it('needs update on the entry a file is attached to, as REST does (v4: the upload permission alone)', async () => {
    // the fixture's bootstrap grants Public article updates: take that back (through the query engine, so caches follow)
    await t.app.query('plugin::users-permissions.permission').deleteMany({ where: { action: 'api::article.article.update' } });
    const rows = (await t.rows('SELECT id FROM files')).length;
    const attach = { query: UPLOAD, variables: { file: null, ref: 'api::article.article', refId: '1', field: 'gallery' } };
    const refused = await gql(t, uploadRequest(attach, { 0: ['variables.file'] }, [{ field: '0', file: await gen.tinyPng(), name: 'a.png' }]), null);
    expect(refused.status).toBe(200);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.rows('SELECT id FROM files')).length).toBe(rows);
    // the API token may update articles
    const attached = await gql(t, uploadRequest(attach, { 0: ['variables.file'] }, [{ field: '0', file: await gen.tinyPng(), name: 'a.png' }]));
    const id = Number(attached.body.data.upload.data.id);
    expect(await t.rows("SELECT related_id FROM files_related_morphs WHERE file_id = ? AND related_type = 'api::article.article' AND field = 'gallery'", id)).toEqual([{ related_id: 1 }]);
    expect(await leftoverTemps()).toEqual([]);
  });
});

describe('GraphQL users-permissions and i18n', () => {
  let t: UploadApp;
  beforeAll(async () => {
    t = await startUploadApp({
      // a user waiting for its email confirmation
      prepareDb: (db) => db.prepare("UPDATE up_users SET confirmation_token = 'confirm-me', confirmed = 0 WHERE username = 'reader'").run(),
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const LOGIN = 'mutation($id: String!, $pw: String!) { login(input: { identifier: $id, password: $pw }) { jwt } }';

  it('counts GraphQL logins in the REST login window: the attempts after ratelimit.max are refused', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${t.url}/api/auth/local`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'reader', password: `wrong-${i}` }) });
      expect(res.status).toBe(400);
    }
    const res = await gql(t, { query: LOGIN, variables: { id: 'reader', pw: 'Reader-pass-1' } }, null);
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions).toEqual({ error: { name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} }, code: 'STRAPI_RATE_LIMIT_ERROR' });
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    // another identifier has its own window
    const other = await gql(t, { query: LOGIN, variables: { id: 'nobody', pw: 'x' } }, null);
    expect(other.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('confirms an email and answers a JWT and the user (v4\'s returnUser), once', async () => {
    const query = 'mutation($c: String!) { emailConfirmation(confirmation: $c) { jwt user { username confirmed } } }';
    const res = await gql(t, { query, variables: { c: 'confirm-me' } }, null);
    expect(res.status).toBe(200);
    expect(res.body.data.emailConfirmation.user).toEqual({ username: 'reader', confirmed: true });
    expect(await t.rows("SELECT confirmed, confirmation_token FROM up_users WHERE username = 'reader'")).toEqual([{ confirmed: 1, confirmation_token: null }]);
    const me = await gql(t, { query: '{ me { username } }' }, res.body.data.emailConfirmation.jwt);
    expect(me.body).toEqual({ data: { me: { username: 'reader' } } });
    const again = await gql(t, { query, variables: { c: 'confirm-me' } }, null);
    expect(again.body.errors[0].message).toBe('Invalid token');
  });

  it('creates a localization only with createLocalization permission', async () => {
    // page 3 ("Page 1") has no French version yet; the fixture lets Public create localizations: take that back
    await t.app.query('plugin::users-permissions.permission').deleteMany({ where: { action: 'api::page.page.createLocalization' } });
    const query = 'mutation { createPageLocalization(id: 3, data: { title: "Page 1 FR" }, locale: "fr") { data { id attributes { title locale localizations(publicationState: PREVIEW) { data { attributes { locale } } } } } } }';
    const pages = (await t.rows('SELECT id FROM pages')).length;
    const refused = await gql(t, { query }, null);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.rows('SELECT id FROM pages')).length).toBe(pages);
    const created = await gql(t, { query });
    expect(created.status).toBe(200);
    expect(created.body.data.createPageLocalization.data.attributes).toEqual({ title: 'Page 1 FR', locale: 'fr', localizations: { data: [{ attributes: { locale: 'en' } }] } });
  });
});
