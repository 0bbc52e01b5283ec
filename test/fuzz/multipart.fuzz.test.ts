// Fuzz: multipart bodies through the real HTTP server (the fixture app on a loopback port): /api/upload (files
// and fileInfo, also the update form ?id=), multipart entry writes (data + files.<field>) of a collection and a
// single type, and the framing itself: a boundary that does not match, no closing boundary, no boundary, huge
// field names, many parts, a lying Content-Type (of the body or of a file), zero-byte files, a Content-Length
// the bytes never reach, streams cut short. No 5xx, no answer slower than 5 s, every rejection in v4's error
// envelope; afterwards the database is whole, every upload and entry answered 2xx reads back, and its file is
// served. Seeded: FUZZ_SEED, FUZZ_RUNS (fuzz-kit.ts).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { garbagePng, htmlPage, pdfFile, textFile, tinyPng } from '../integration/upload/fixtures';
import { consistencyProblems } from '../helpers/db-consistency';
import { checkRestAnswer, expectInTime, fuzz, oneIn, PROTOTYPE_KEYS, runsOf, send, sendBytes, serveFixtureApp, SLOWEST_ANSWER_MS, timeoutOf, title, type Answer } from './fuzz-kit';
import { anything, entryData, nested, plant, plants, toJsonText } from './json-values';

const served = serveFixtureApp();
let FILES: Record<string, Buffer>;
beforeAll(async () => {
  FILES = {
    png: await tinyPng(), garbagePng: garbagePng(), html: htmlPage(), text: textFile(), pdf: pdfFile(), empty: Buffer.alloc(0),
    svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>'),
    zeros: Buffer.alloc(3000), jpegHead: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]),
  };
});

interface Part { name: string; filename?: string; type?: string; data: Buffer; noDisposition?: boolean }

const CRLF = '\r\n';
/** the multipart/form-data bytes of `parts` under `boundary`; `closed` false leaves the closing delimiter out */
function multipart(parts: Part[], boundary: string, closed = true): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.noDisposition ? '' : `Content-Disposition: form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}${CRLF}`;
    chunks.push(Buffer.from(`--${boundary}${CRLF}${disposition}${p.type === undefined ? '' : `Content-Type: ${p.type}${CRLF}`}${CRLF}`, 'utf8'), p.data, Buffer.from(CRLF));
  }
  if (closed) chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return Buffer.concat(chunks);
}

const FILE_NAMES = ['a.png', 'photo.PNG', '', 'no-extension', '../../../etc/passwd', '..\\..\\x.png', `${'n'.repeat(300)}.png`, 'é😀.png', 'a\u0000b.png', '.htaccess',
  'x.svg', 'x.html', 'a"b.png', 'a;b=c.png', 'x.png.exe', '%2e%2e%2fx.png', 'CON', ' '];
const FILE_TYPES = ['image/png', 'image/jpeg', 'text/html', 'image/svg+xml', 'application/octet-stream', 'text/plain', 'application/pdf', '', 'x/y', 'image/png; charset=utf-8'];
const filePart = (name: fc.Arbitrary<string>): fc.Arbitrary<Part> => fc.record({
  name,
  filename: fc.oneof({ arbitrary: fc.constantFrom('a.png', 'b.jpg', 'notes.txt'), weight: 4 }, fc.constantFrom(...FILE_NAMES)),
  type: fc.oneof({ arbitrary: fc.constant('image/png'), weight: 3 }, fc.constantFrom(...FILE_TYPES)),
  // a key of FILES, or random bytes
  data: fc.oneof({ arbitrary: fc.constant('png'), weight: 4 }, fc.constantFrom('garbagePng', 'html', 'text', 'pdf', 'empty', 'svg', 'zeros', 'jpegHead'), fc.uint8Array({ maxLength: 2048 }).map((b) => b)),
}).map((p) => ({ ...p, data: typeof p.data === 'string' ? FILES[p.data] : Buffer.from(p.data) }));

/** a JSON text for a field (fileInfo, data): mostly sound, now and then broken */
const jsonField = (good: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> => fc.tuple(good, oneIn(4, plants), fc.nat(19)).map(([value, plantList, n]) => {
  const text = toJsonText(plantList ? plant(structuredClone(value), plantList) : value);
  if (n === 1) return Buffer.from(text.slice(0, text.length >> 1)); // cut short
  if (n === 2) return Buffer.from(toJsonText(nested(70 + n * 10, '1', true)));
  if (n === 3) return Buffer.from([0xc3, 0x28, ...Buffer.from(text)]);
  return Buffer.from(text);
});
const fileInfo = fc.oneof(
  fc.record({ name: fc.oneof(fc.string({ maxLength: 20 }), anything), alternativeText: fc.oneof(fc.string({ maxLength: 20 }), anything), caption: fc.string({ maxLength: 20 }), folder: anything }, { requiredKeys: [] }),
  fc.array(fc.record({ name: fc.string({ maxLength: 10 }), caption: anything }, { requiredKeys: [] }), { maxLength: 3 }),
  anything,
);

type Framing = 'sound' | 'boundary mismatch' | 'no closing' | 'no boundary' | 'huge field name' | 'many fields' | 'many files' | 'no disposition' | 'body type' | 'cut';
const FRAMINGS: fc.Arbitrary<Framing> = fc.oneof(
  { arbitrary: fc.constant<Framing>('sound'), weight: 30 },
  fc.constantFrom<Framing>('boundary mismatch', 'no closing', 'no boundary', 'huge field name', 'many fields', 'many files', 'no disposition', 'body type', 'cut'),
);
const BODY_TYPES = ['multipart/mixed; boundary=B', 'application/json', 'text/plain', 'multipart/form-data; boundary="B"; charset=latin1', 'MULTIPART/FORM-DATA; boundary=B', 'application/x-www-form-urlencoded'];

interface Request { method: 'POST' | 'PUT'; path: string; parts: Part[]; framing: Framing; n: number; auth: boolean; readAs?: string }

/** parts of /api/upload: files under `files` (or odd names) and a fileInfo */
const uploadRequest: fc.Arbitrary<Request> = fc.record({
  update: oneIn(5, fc.oneof(fc.integer({ min: 1, max: 6 }).map(String), fc.constantFrom('0', 'abc', '99999', '-1', '1e400'))),
  files: fc.array(filePart(fc.oneof({ arbitrary: fc.constant('files'), weight: 8 }, fc.constantFrom('file', 'files[]', 'files.0', '__proto__', 'fileInfo', ''))), { maxLength: 3 }),
  info: oneIn(2, jsonField(fileInfo)),
  infoName: fc.oneof({ arbitrary: fc.constant('fileInfo'), weight: 8 }, fc.constantFrom('fileInfo[0]', 'fileinfo', 'data', ...PROTOTYPE_KEYS)),
  framing: FRAMINGS, n: fc.nat(), auth: fc.oneof({ arbitrary: fc.constant(true), weight: 6 }, fc.constant(false)),
}).map((c) => ({
  method: 'POST' as const, path: c.update === null ? '/api/upload' : `/api/upload?id=${c.update}`, framing: c.framing, n: c.n, auth: c.auth,
  parts: [...(c.info ? [{ name: c.infoName, data: c.info }] : []), ...c.files],
}));

const FILE_FIELDS = ['cover', 'gallery', 'seo.shareImage', 'blocks.0.images', 'blocks.1.images', 'links.0', 'nope', '__proto__', 'cover.__proto__', '', 'title', 'constructor.prototype', 'gallery.0'];
/** a multipart entry write: data (JSON text) + files.<field> */
const ARTICLE_FILES = ['files.cover', 'files.gallery', 'files.seo.shareImage', 'files.blocks.0.images'];
const entryRequest: fc.Arbitrary<Request> = fc.constantFrom(
  { method: 'POST' as const, path: '/api/articles', uid: 'api::article.article', readAs: '/api/articles/{id}?publicationState=preview', fileFields: ARTICLE_FILES },
  { method: 'PUT' as const, path: '/api/articles/5', uid: 'api::article.article', readAs: '/api/articles/{id}?publicationState=preview', fileFields: ARTICLE_FILES },
  { method: 'PUT' as const, path: '/api/articles/99999', uid: 'api::article.article', readAs: '', fileFields: ARTICLE_FILES },
  { method: 'POST' as const, path: '/api/authors', uid: 'api::author.author', readAs: '/api/authors/{id}', fileFields: ['files.avatar'] },
  { method: 'PUT' as const, path: '/api/homepage', uid: 'api::homepage.homepage', readAs: '/api/homepage', fileFields: ['files.hero.shareImage'] },
).chain((t) => fc.record({
  // the data part, missing one time in twenty
  data: fc.oneof({ arbitrary: jsonField(entryData(served.running.app.model, t.uid)).map((b) => [b]), weight: 19 }, { arbitrary: fc.constant<Buffer[]>([]), weight: 1 }),
  dataName: fc.oneof({ arbitrary: fc.constant('data'), weight: 30 }, fc.constantFrom('Data', 'data[]', '__proto__')),
  // the type's own media fields mostly, any name now and then
  files: fc.array(filePart(fc.oneof({ arbitrary: fc.constantFrom(...t.fileFields), weight: 8 }, fc.constantFrom(...FILE_FIELDS).map((f) => `files.${f}`))), { maxLength: 3 }),
  framing: FRAMINGS, n: fc.nat(), auth: fc.oneof({ arbitrary: fc.constant(true), weight: 6 }, fc.constant(false)),
}).map((c) => ({
  method: t.method, path: t.path, framing: c.framing, n: c.n, auth: c.auth, readAs: t.readAs,
  parts: [...c.data.map((data) => ({ name: c.dataName, data })), ...c.files],
})));

/** the request's bytes and Content-Type after its framing change */
function framed(r: Request): { type: string; body: Buffer } {
  const boundary = `----fuzz${r.n % 1000}`;
  const type = `multipart/form-data; boundary=${boundary}`;
  switch (r.framing) {
    case 'sound': return { type, body: multipart(r.parts, boundary) };
    case 'boundary mismatch': return { type: `multipart/form-data; boundary=other${r.n % 7}`, body: multipart(r.parts, boundary) };
    case 'no closing': return { type, body: multipart(r.parts, boundary, false) };
    case 'no boundary': return { type: 'multipart/form-data', body: multipart(r.parts, boundary) };
    case 'huge field name': return { type, body: multipart([{ name: 'f'.repeat(1_000 + (r.n % 200_000)), data: Buffer.from('x') }, ...r.parts], boundary) };
    case 'many fields': return { type, body: multipart([...r.parts, ...Array.from({ length: 1_001 + (r.n % 30) }, (_, i) => ({ name: `x${i}`, data: Buffer.from('1') }))], boundary) };
    case 'many files': return { type, body: multipart([...r.parts, ...Array.from({ length: 101 + (r.n % 10) }, () => ({ name: 'files', filename: 'z.txt', type: 'text/plain', data: Buffer.alloc(0) }))], boundary) };
    case 'no disposition': return { type, body: multipart(r.parts.map((p, i) => ({ ...p, noDisposition: i === r.n % Math.max(1, r.parts.length) })), boundary) };
    case 'body type': return { type: BODY_TYPES[r.n % BODY_TYPES.length].replace('B', boundary), body: multipart(r.parts, boundary) };
    case 'cut': {
      const whole = multipart(r.parts, boundary);
      return { type, body: whole.subarray(0, r.n % (whole.length + 1)) };
    }
  }
}

const written: Array<{ path: string; attributes: unknown }> = [];
const uploaded: Array<{ id: number; url: string }> = [];

function remember(r: Request, a: Answer): void {
  if (a.status >= 300) return;
  const body = JSON.parse(a.body) as unknown;
  if (r.path.startsWith('/api/upload')) {
    for (const f of Array.isArray(body) ? body : [body]) uploaded.push(f as { id: number; url: string });
  } else if (r.readAs) {
    const data = (body as { data: { id: number; attributes: unknown } }).data;
    written.push({ path: r.readAs.replace('{id}', String(data.id)), attributes: data.attributes });
  }
}

async function sendRequest(r: Request): Promise<void> {
  const { type, body } = framed(r);
  const what = `${r.method} ${r.path} ${r.framing} [${r.parts.map((p) => `${p.name.slice(0, 40)}${p.filename === undefined ? '' : `(${p.filename.slice(0, 40)} ${p.type} ${p.data.length} B)`}`).join(', ')}]`;
  const headers = { 'content-type': type, ...(r.auth ? { authorization: `Bearer ${served.running.token}` } : {}) };
  // no longer than the contract allows, and a little more
  const a = await send(served.port, { method: r.method, path: r.path, headers, body, timeoutMs: SLOWEST_ANSWER_MS + 500 });
  // the upload routes answer a file list or a file (v4), entries `{ data }`
  checkRestAnswer(what, a, !r.path.startsWith('/api/upload'));
  // past formidable.maxFields (1,000) or maxFiles (100): refused
  if (r.framing === 'many fields' || r.framing === 'many files') expect([400, 401, 403, 404, 413], what).toContain(a.status);
  remember(r, a);
}

// The bytes themselves: a Content-Length the body never reaches, then the connection half-closed.
const lyingLength = fc.tuple(fc.oneof(uploadRequest, entryRequest), fc.integer({ min: 1, max: 100_000 })).map(([r, extra]) => ({ r, extra }));

describe('multipart bodies', () => {
  it(title('multipart uploads', 'uploads to /api/upload'), async () => {
    await fuzz('multipart uploads', 20, served.port, uploadRequest, sendRequest);
    // enough of them got through to storage (some in every 40 cases)
    expect(uploaded.length).toBeGreaterThanOrEqual(Math.floor(runsOf('multipart uploads') / 40));
  }, timeoutOf('multipart uploads'));

  it(title('multipart entry writes', 'multipart entry writes (data + files.<field>)'), async () => {
    await fuzz('multipart entry writes', 21, served.port, entryRequest, sendRequest);
    expect(written.length).toBeGreaterThanOrEqual(Math.floor(runsOf('multipart entry writes') / 40));
  }, timeoutOf('multipart entry writes'));

  it(title('multipart raw bodies', 'bodies cut short under a Content-Length they never reach'), async () => {
    await fuzz('multipart raw bodies', 22, served.port, lyingLength, async ({ r, extra }) => {
      const { type, body } = framed(r);
      const head = `${r.method} ${r.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: ${type}\r\nContent-Length: ${body.length + extra}\r\n`
        + `${r.auth ? `Authorization: Bearer ${served.running.token}\r\n` : ''}\r\n`;
      const a = await sendBytes(served.port, Buffer.concat([Buffer.from(head), body]));
      const what = `${r.method} ${r.path} ${r.framing}, ${extra} bytes short: ${a.text.slice(0, 40)} … ${a.text.slice(-300)}`;
      expectInTime(what, a);
      // no answer (the connection closed) or an answer that is not a 5xx
      expect(a.status, what).toBeLessThan(500);
    });
  }, timeoutOf('multipart raw bodies'));

  it('afterwards: the database is whole, every upload and entry answered 2xx reads back, and its files are served', async () => {
    expect(await consistencyProblems(served.running.app)).toEqual([]);
    const auth = { authorization: `Bearer ${served.running.token}` };
    const latest = new Map(written.map((w) => [w.path, w.attributes]));
    for (const [p, attributes] of latest) {
      const a = await send(served.port, { path: p, headers: auth });
      const body = checkRestAnswer(`GET ${p}`, a) as { data: { attributes: unknown } };
      expect(a.status, p).toBe(200);
      expect(body.data.attributes, p).toEqual(attributes);
    }
    for (const f of uploaded) {
      const a = await send(served.port, { path: `/api/upload/files/${f.id}`, headers: auth });
      checkRestAnswer(`GET /api/upload/files/${f.id}`, a, false);
      expect(a.status, `file ${f.id}`).toBe(200);
      const file = await send(served.port, { path: (JSON.parse(a.body) as { url: string }).url });
      expect(file.status, `${f.url} served`).toBe(200);
    }
  }, 120_000);
});
