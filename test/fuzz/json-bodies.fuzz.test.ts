// Fuzz: JSON bodies through the real HTTP server (the fixture app on a loopback port): REST writes of
// collection and single types (components, dynamic zones, relations in every v4 form, media ids), the same
// bodies as broken texts (cut short, invalid UTF-8, duplicated keys, odd numbers, a wrong Content-Type), and the
// users-permissions doors (/api/auth/local, /local/register, /forgot-password, PUT /api/users/:id). No 5xx, no
// answer slower than 5 s, every rejection in v4's error envelope, no prototype reached; afterwards the database
// is whole and every write answered 2xx reads back as answered. Seeded: FUZZ_SEED, FUZZ_RUNS (fuzz-kit.ts).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIXTURE_APP } from '../helpers/fixture-model';
import { consistencyProblems } from '../helpers/db-consistency';
import { checkRestAnswer, fuzz, oneIn, send, serveFixtureApp, timeoutOf, title, type Answer } from './fuzz-kit';
import { anything, duplicate, entryData, FIXTURE_IDS, nested, plant, plants, RAW_NUMBERS, toJsonText } from './json-values';

// the auth rate limit off: it would answer most auth cases with 429 before their body is read
const PLUGINS = fs.readFileSync(path.join(FIXTURE_APP, 'config/plugins.js'), 'utf8');
const PLUGINS_WITHOUT_LIMIT = PLUGINS.replace('jwtSecret:', 'ratelimit: { enabled: false },\n      jwtSecret:');
const served = serveFixtureApp({ edit: { 'config/plugins.js': PLUGINS_WITHOUT_LIMIT } });

type Auth = 'token' | 'public' | 'bad';
const authHeader = (auth: Auth): Record<string, string> =>
  auth === 'token' ? { authorization: `Bearer ${served.running.token}` } : auth === 'bad' ? { authorization: 'Bearer not-a-token' } : {};

function post(method: string, p: string, text: string | Buffer, headers: Record<string, string>): Promise<Answer> {
  return send(served.port, { method, path: p, headers: { 'content-type': 'application/json', ...headers }, body: text });
}

/** no key of any request reached Object.prototype (the server runs in this process) */
function expectNoPollution(what: string): void {
  const probe = {} as Record<string, unknown>;
  expect([Object.keys(Object.prototype), probe.polluted, probe.isAdmin], `prototype polluted by ${what.slice(0, 300)}`).toEqual([[], undefined, undefined]);
}

// Where REST writes go, and the entry path to read a 2xx answer back from.
interface WriteTarget { uid: string; method: 'POST' | 'PUT'; path: string; read: (id: number) => string }
const create = (uid: string, plural: string, query = ''): WriteTarget =>
  ({ uid, method: 'POST', path: `/api/${plural}${query}`, read: (id) => `/api/${plural}/${id}?publicationState=preview${query.replace('?', '&')}` });
const TARGETS: fc.Arbitrary<WriteTarget> = fc.oneof(
  fc.constantFrom(
    create('api::article.article', 'articles'),
    create('api::author.author', 'authors'),
    create('api::category.category', 'categories'),
    create('api::page.page', 'pages'),
    create('api::page.page', 'pages', '?locale=fr'),
    { uid: 'api::homepage.homepage', method: 'PUT', path: '/api/homepage', read: () => '/api/homepage' },
  ),
  // updates of the fixture's entries (and the run's first creates), and ids that name nothing
  fc.tuple(fc.constantFrom(['api::article.article', 'articles'], ['api::author.author', 'authors'], ['api::category.category', 'categories'], ['api::page.page', 'pages']), fc.nat(), fc.nat(8))
    .map(([[uid, plural], n, odd]) => {
      const id = odd ? String(1 + (n % (FIXTURE_IDS[uid] + 5))) : ['0', '-1', '99999', 'abc', '1e400', '9223372036854775808', '%00', '1.5'][n % 8];
      return { uid, method: 'PUT' as const, path: `/api/${plural}/${id}`, read: (m: number) => `/api/${plural}/${m}?publicationState=preview` };
    }),
);

/** the answer of the last 2xx write of each entry (by type and id), and where to read it: read back after the run */
const written = new Map<string, { path: string; attributes: unknown }>();
function remember(target: WriteTarget, r: Answer): void {
  if (r.status >= 300) return;
  const data = (JSON.parse(r.body) as { data: { id: number; attributes: unknown } | null }).data;
  if (data) written.set(`${target.uid} ${data.id}`, { path: target.read(data.id), attributes: data.attributes });
}

const writeCase = fc.tuple(TARGETS, fc.constantFrom<Auth>('token', 'token', 'token', 'token', 'token', 'token', 'public', 'public', 'bad')).chain(([target, auth]) => fc.record({
  target: fc.constant(target),
  auth: fc.constant(auth),
  data: entryData(served.running.app.model, target.uid),
  plants: oneIn(3, plants),
  // JSON nesting near and past rest.maxJsonDepth (64), in the json attribute or in place of the entry
  deep: oneIn(8, fc.tuple(fc.oneof(fc.integer({ min: 55, max: 75 }), fc.constant(5_000)), fc.boolean(), fc.constantFrom('meta', 'title', 'data'))),
  duplicated: oneIn(6, fc.tuple(fc.nat(), anything)),
  // the envelope itself wrong now and then
  envelope: fc.oneof({ arbitrary: fc.constant('data'), weight: 12 }, fc.constantFrom('none', 'array', 'null', 'string')),
}));

type WriteCase = typeof writeCase extends fc.Arbitrary<infer T> ? T : never;

/** the body's text; the generated value is left as generated (fast-check may hand the same objects out again) */
function bodyOf(c: WriteCase): string {
  let data: unknown = structuredClone(c.data);
  if (c.deep) {
    const [depth, lists, where] = c.deep;
    data = where === 'data' ? nested(depth, '1', lists) : { ...(data as object), [where]: nested(depth, '"x"', lists) };
  }
  let body: unknown = c.envelope === 'data' ? { data } : c.envelope === 'none' ? data : c.envelope === 'array' ? [{ data }] : c.envelope === 'null' ? { data: null } : { data: 'x' };
  if (c.plants) body = plant(body, c.plants);
  if (c.duplicated) body = duplicate(body, c.duplicated[0], structuredClone(c.duplicated[1]));
  return toJsonText(body);
}

// Broken texts: a good body's text, then one change no JSON.stringify would make.
const TEXT_CHANGES = ['cut', 'invalid utf-8', 'surrogate bytes', 'number', 'trailing', 'bom', 'empty', 'top-level', 'duplicate data'] as const;
const CONTENT_TYPES = ['application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1',
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/vnd.api+json', 'APPLICATION/JSON',
  'application/json, text/html', '', 'application/octet-stream', 'text/html; charset=utf-8'];
function changed(text: string, change: (typeof TEXT_CHANGES)[number], n: number, token: string): Buffer {
  const at = text.length ? n % text.length : 0;
  switch (change) {
    case 'cut': return Buffer.from(text.slice(0, at));
    case 'invalid utf-8': return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([[0xc3, 0x28], [0xff], [0xe2, 0x82], [0xf0, 0x9f, 0x98]][n % 4]), Buffer.from(text.slice(at))]);
    // a lone surrogate: as UTF-8 bytes (invalid UTF-8), or as a JSON escape (valid JSON, no valid text)
    case 'surrogate bytes': return n % 2
      ? Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(text.slice(at))])
      : Buffer.from(text.replace(/:"/, ':"\\udc00'));
    case 'number': return Buffer.from(text.replace(/(?<=[:[,])-?\d+(\.\d+)?(?=[,}\]])/, token));
    case 'trailing': return Buffer.from(`${text}${[' garbage', '{}', ',', '\u0000', ']'][n % 5]}`);
    case 'bom': return Buffer.from(`\ufeff${text}`);
    case 'empty': return Buffer.alloc(0);
    case 'top-level': return Buffer.from(['null', '[]', '"data"', '1', 'true', '{}', '{"data":{}}', `[${text}]`][n % 8]);
    case 'duplicate data': return Buffer.from(text.replace(/}$/, `,"data":{"title":${JSON.stringify(token)}}}`));
  }
}
const rawCase = fc.record({
  write: writeCase,
  change: fc.constantFrom(...TEXT_CHANGES),
  n: fc.nat(),
  token: fc.constantFrom(...RAW_NUMBERS, '12abc', 'NaN', 'Infinity', '-', '.5', '01', '0x1F', '1_000', '+1'),
  contentType: fc.constantFrom(...CONTENT_TYPES),
});

describe('JSON bodies', () => {
  it('the fixture app runs without the auth rate limit', () => {
    expect(PLUGINS_WITHOUT_LIMIT).not.toBe(PLUGINS);
  });

  it(title('json rest writes', 'REST writes of every content type'), async () => {
    const statuses = new Map<number, number>();
    await fuzz('json rest writes', 10, served.port, writeCase, async (c) => {
      const text = bodyOf(c);
      const what = `${c.target.method} ${c.target.path} (${c.auth}) ${text}`;
      const r = await post(c.target.method, c.target.path, text, authHeader(c.auth));
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      checkRestAnswer(what, r);
      expectNoPollution(what);
      remember(c.target, r);
      // the body is read before the caller is known (as v4's koa-body): too deep (or too large) whoever sends it
      if (c.deep && c.deep[0] > 200 && ['data', 'none', 'array'].includes(c.envelope)) expect([400, 413], what.slice(0, 200)).toContain(r.status);
    });
    // enough of them got through validation into storage
    expect(statuses.get(200) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(written.size / 2);
    expect(written.size, JSON.stringify([...statuses])).toBeGreaterThan(10);
  }, timeoutOf('json rest writes'));

  it(title('json raw texts', 'broken JSON texts and wrong Content-Types'), async () => {
    await fuzz('json raw texts', 11, served.port, rawCase, async (c) => {
      const bytes = changed(bodyOf(c.write), c.change, c.n, c.token);
      const what = `${c.write.target.method} ${c.write.target.path} ${c.contentType} ${c.change}: ${bytes.toString('latin1')}`;
      const headers: Record<string, string> = { ...authHeader(c.write.auth) };
      if (c.contentType) headers['content-type'] = c.contentType;
      const r = await send(served.port, { method: c.write.target.method, path: c.write.target.path, headers, body: bytes });
      checkRestAnswer(what, r);
      expectNoPollution(what);
      remember(c.write.target, r);
    });
  }, timeoutOf('json raw texts'));

  it(title('json auth and users', 'bodies to /api/auth/* and PUT /api/users/:id'), async () => {
    const registered: number[] = [];
    const text = fc.oneof({ arbitrary: fc.string({ maxLength: 20 }), weight: 4 }, { arbitrary: anything, weight: 1 });
    const authCase = fc.oneof(
      fc.record({
        identifier: fc.oneof(fc.constantFrom('reader', 'reader@example.com', 'READER@example.com'), text),
        password: fc.oneof(fc.constantFrom('Reader-pass-1', 'wrong-pass'), text),
        provider: anything,
      }, { requiredKeys: [] }).map((body) => ({ path: '/api/auth/local', method: 'POST', body })),
      fc.record({
        username: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9]{2,12}$/), fc.constantFrom('reader'), text),
        email: fc.oneof(fc.emailAddress(), fc.constantFrom('reader@example.com', `${'a'.repeat(250)}@x.io`), text),
        password: fc.oneof(fc.string({ minLength: 6, maxLength: 20 }), fc.constantFrom('x'.repeat(73), 'é'.repeat(40)), text),
        role: anything, confirmed: anything, blocked: anything, provider: anything, id: anything, resetPasswordToken: anything,
      }, { requiredKeys: ['username', 'email', 'password'] }).map((body) => ({ path: '/api/auth/local/register', method: 'POST', body })),
      fc.record({ email: fc.oneof(fc.emailAddress(), fc.constantFrom('reader@example.com'), text), url: anything }, { requiredKeys: [] })
        .map((body) => ({ path: '/api/auth/forgot-password', method: 'POST', body })),
      // users the run registered (never the fixture's reader: the final login needs it), and ids that name nothing
      fc.tuple(fc.oneof(fc.nat(), fc.constantFrom('99999', 'abc', '0', '-1', '1e400')), fc.record({
        username: text, email: fc.oneof(fc.emailAddress(), text), password: text, role: fc.oneof(fc.integer({ min: 1, max: 3 }), anything),
        confirmed: fc.oneof(fc.boolean(), anything), blocked: fc.oneof(fc.boolean(), anything), provider: anything, id: anything,
      }, { requiredKeys: [] })).map(([id, body]) => ({ path: `/api/users/${typeof id === 'number' ? registered[id % Math.max(1, registered.length)] ?? 99999 : id}`, method: 'PUT', body })),
    );
    await fuzz('json auth and users', 12, served.port, fc.tuple(authCase, oneIn(3, plants)), async ([c, plantList]) => {
      const body = toJsonText(plantList ? plant(structuredClone(c.body), plantList) : c.body);
      const what = `${c.method} ${c.path} ${body}`;
      const r = await post(c.method, c.path, body, c.method === 'PUT' ? authHeader('token') : {});
      checkRestAnswer(what, r, false);
      expectNoPollution(what);
      if (c.path.endsWith('/register') && r.status === 200) registered.push((JSON.parse(r.body) as { user: { id: number } }).user.id);
    });
    // the fixture's user still logs in
    const login = await post('POST', '/api/auth/local', JSON.stringify({ identifier: 'reader', password: 'Reader-pass-1' }), {});
    expect(login.status, login.body).toBe(200);
  }, timeoutOf('json auth and users'));

  it('afterwards: the database is whole and every write answered 2xx reads back as answered', async () => {
    expect(await consistencyProblems(served.running.app)).toEqual([]);
    let read = 0;
    for (const { path: p, attributes } of written.values()) {
      const r = await send(served.port, { path: p, headers: authHeader('token') });
      const body = checkRestAnswer(`GET ${p}`, r) as { data: { attributes: unknown } };
      expect(r.status, p).toBe(200);
      expect(body.data.attributes, p).toEqual(attributes);
      read++;
    }
    expect(read).toBe(written.size);
  }, 120_000);
});
