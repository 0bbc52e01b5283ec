// Issue #20, part 2: one sandbox for everything under the uploads folder. An uploaded HTML page or SVG is
// served from /uploads/* with a sandboxing CSP (and, for HTML, as a download); any other spelling of a path
// into that folder (`//uploads/x`, `/./uploads/x`, `/x/../uploads/x`, `/uploads%2fx`, encoded letters or
// dots, backslashes, a link in the public folder) gets the same headers or a 404, never the file inline in
// the site's origin. Paths are sent byte for byte (node:http): fetch would normalise them first.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, post, startUploadApp, type UploadApp } from '../integration/upload/app';
import { htmlPage } from '../integration/upload/fixtures';
import { rawRequest, type RawResponse } from '../helpers/raw-http';

const svgImage = () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>\n');

let t: UploadApp;
/** file names in public/uploads: the uploaded page and image */
const stored = { html: '', svg: '' };

beforeAll(async () => {
  // a link inside the public folder that points at the uploads folder (a deployment may have one)
  t = await startUploadApp({ prepareDir: (dir) => fs.symlinkSync('uploads', path.join(dir, 'public/media')) });
  const res = await post(t, form([{ name: 'page.html', type: 'text/html', data: htmlPage() }, { name: 'drawing.svg', type: 'image/svg+xml', data: svgImage() }]));
  expect(res.status).toBe(200);
  const [html, svg] = res.body;
  expect([html.mime, svg.mime]).toEqual(['text/html', 'image/svg+xml']);
  stored.html = path.basename(html.url);
  stored.svg = path.basename(svg.url);
});
afterAll(async () => {
  await t?.stop();
});

/** every spelling of a path to `name` in the uploads folder that a browser or a client could send */
function spellings(name: string): string[] {
  const enc = (s: string) => s.replace(/\./g, '%2e');
  return [
    `/uploads/${name}`,
    `//uploads/${name}`,
    `///uploads/${name}`,
    `/./uploads/${name}`,
    `/x/../uploads/${name}`,
    `/uploads/../uploads/${name}`,
    `/robots.txt/../uploads/${name}`,
    `/uploads/./${name}`,
    `/uploads//${name}`,
    `/uploads/x/../${name}`,
    `/uploads%2f${name}`,
    `/uploads%2F${name}`,
    `/.%2fuploads/${name}`,
    `/%2e/uploads/${name}`,
    `/x/%2e%2e/uploads/${name}`,
    `/uploads/%2e/${name}`,
    `/uploads/${enc(name)}`,
    `/upload%73/${name}`,
    `/%75ploads/${name}`,
    `/%75%70%6c%6f%61%64%73/${name}`,
    `/uploads\\${name}`,
    `/uploads%5c${name}`,
    `/uploads%5C${name}`,
    `\\uploads\\${name}`,
    `/media/${name}`,
    `/media/./${name}`,
    `/uploads/${name}?download=0`,
  ];
}

/** refused: 404, or 400 when Node's parser rejects the request line (`\\uploads\\x`); both in the envelope */
const refused = (res: RawResponse) => res.status === 404 || res.status === 400;

/** served only sandboxed (HTML also as a download), or not at all */
function expectUntrusted(res: RawResponse, kind: 'html' | 'svg', where: string): void {
  if (refused(res)) return;
  expect(res.status, where).toBe(200);
  expect(res.headers['content-security-policy'], where).toMatch(/(^|;\s*)sandbox(;|$)/);
  expect(res.headers['x-content-type-options'], where).toBe('nosniff');
  if (kind === 'html') expect(res.headers['content-disposition'], where).toBe('attachment');
}

describe('uploads are sandboxed whatever the spelling of their path', () => {
  for (const kind of ['html', 'svg'] as const) {
    it(`an uploaded ${kind === 'html' ? 'HTML page' : 'SVG image'}: GET and HEAD on every spelling are sandboxed or 404`, async () => {
      for (const p of spellings(stored[kind])) {
        // a request line Node rejects is answered before its method is known (a body even to HEAD): GET only
        for (const method of p.startsWith('\\') ? ['GET'] : ['GET', 'HEAD']) {
          const res = await rawRequest(t.url, { method, path: p });
          expectUntrusted(res, kind, `${method} ${p}`);
          if (refused(res) && method === 'GET') expect(JSON.parse(res.body).error, p).toMatchObject({ status: res.status, name: res.status === 404 ? 'NotFoundError' : 'BadRequestError' });
        }
      }
      // the plain path still serves the file
      const plain = await rawRequest(t.url, { path: `/uploads/${stored[kind]}` });
      expect(plain.status).toBe(200);
      expect(plain.body).toContain('<script>');
    });
  }

  it('a file reached through a link in the public folder is sandboxed like one under /uploads', async () => {
    const res = await rawRequest(t.url, { path: `/media/${stored.html}` });
    expect(res.status).toBe(200);
    expectUntrusted(res, 'html', '/media');
  });
});

describe('non-canonical paths are refused before any static handler, the same way for each', () => {
  it.each([
    ['/./robots.txt', 'public folder'],
    ['/x/../robots.txt', 'public folder'],
    ['//robots.txt', 'public folder'],
    ['/robots.txt%2f', 'public folder'],
    ['/uploads/./{html}', 'uploads folder'],
    ['/uploads//{html}', 'uploads folder'],
    ['/uploads/..%2f{html}', 'uploads folder'],
  ])('%s (%s): 404 in the envelope', async (p) => {
    const res = await rawRequest(t.url, { path: p.replace('{html}', stored.html) });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });

  it('a canonical path to a public file is served as before (inline, no download)', async () => {
    const robots = await rawRequest(t.url, { path: '/robots.txt' });
    expect(robots.status).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.headers['content-disposition']).toBeUndefined();
  });
});
