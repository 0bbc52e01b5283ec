// Issue #18 part 1, the advisory suite (uploads, CVE-2026-22707): a file whose name or type lies is stored as
// what its bytes are; HTML and SVG with script are never served inline in the site's origin; a name with a path
// stores nothing outside the uploads folder; zero-byte and oversize files are refused or stored harmlessly.
// Through REST (POST /api/upload) and GraphQL (`upload`). Covered in depth elsewhere: every spelling of a path
// to an uploaded file (test/security/uploads-sandbox.test.ts), replacing files (test/security/upload-replace.test.ts),
// long names (test/security/upload-no-500.test.ts), size limits and allowed types
// (test/integration/upload/limits.test.ts), GraphQL multipart limits (test/integration/graphql/users-upload.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, post, startUploadApp, type UploadApp } from '../integration/upload/app';
import { htmlPage } from '../integration/upload/fixtures';

const svgImage = () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>\n');
const SIZE_LIMIT = 50_000;

let t: UploadApp;
beforeAll(async () => {
  t = await startUploadApp({ plugins: `module.exports = () => ({ upload: { config: { sizeLimit: ${SIZE_LIMIT} } } });\n` });
});
afterAll(async () => {
  await t?.stop();
});

/** a GraphQL `upload` of one file (the multipart request format), with the full-access token */
async function gqlUpload(name: string, type: string, data: Buffer) {
  const fd = new FormData();
  fd.append('operations', JSON.stringify({ query: 'mutation($file: Upload!) { upload(file: $file) { data { id attributes { name ext mime size url } } } }', variables: { file: null } }));
  fd.append('map', JSON.stringify({ 0: ['variables.file'] }));
  fd.append('0', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${t.token}` }, body: fd });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** an uploaded file as the server serves it: never active content inline */
async function expectServedSafely(url: string, kind: 'html' | 'svg'): Promise<void> {
  const served = await fetch(t.url + url);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toMatch(kind === 'html' ? /^text\/html/ : /^image\/svg\+xml/);
  expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  expect(served.headers.get('content-security-policy')).toMatch(/(^|;\s*)sandbox(;|$)/);
  if (kind === 'html') expect(served.headers.get('content-disposition')).toBe('attachment');
}

describe('uploads (CVE-2026-22707)', () => {
  it('a lying type or extension: an HTML page sent as photo.png (image/png) is stored as .html, text/html, and served sandboxed as a download', async () => {
    const rest = await post(t, form([{ name: 'photo.png', type: 'image/png', data: htmlPage() }]));
    expect(rest.status).toBe(200);
    expect(rest.body[0]).toMatchObject({ name: 'photo.png', ext: '.html', mime: 'text/html' });
    await expectServedSafely(rest.body[0].url, 'html');

    const graphql = await gqlUpload('avatar.jpg', 'image/jpeg', htmlPage());
    expect(graphql.status).toBe(200);
    const file = graphql.body.data.upload.data.attributes;
    expect(file).toMatchObject({ name: 'avatar.jpg', ext: '.html', mime: 'text/html' });
    await expectServedSafely(file.url, 'html');
  });

  it('SVG with script: served with a sandboxing CSP and nosniff (REST and GraphQL); HTML as a download', async () => {
    const rest = await post(t, form([{ name: 'drawing.svg', type: 'image/svg+xml', data: svgImage() }, { name: 'page.html', type: 'text/html', data: htmlPage() }]));
    expect(rest.status).toBe(200);
    await expectServedSafely(rest.body[0].url, 'svg');
    await expectServedSafely(rest.body[1].url, 'html');
    // an SVG sent as a PNG is still an SVG
    const graphql = await gqlUpload('innocent.png', 'image/png', svgImage());
    expect(graphql.body.data.upload.data.attributes).toMatchObject({ ext: '.svg', mime: 'image/svg+xml' });
    await expectServedSafely(graphql.body.data.upload.data.attributes.url, 'svg');
  });

  it('path traversal in names: the file lands in the uploads folder under a generated name, nothing outside', async () => {
    const outside = (dir: string) => fs.readdirSync(dir).sort();
    const projectBefore = outside(t.dir);
    const publicBefore = outside(path.join(t.dir, 'public'));
    const names = ['../../evil.html', '..\\..\\evil2.html', '/etc/evil3.html', '....//....//evil4.png', '%2e%2e%2fevil5.png'];
    const rest = await post(t, form(names.map((name) => ({ name, type: 'image/png', data: Buffer.from('just text') }))));
    expect(rest.status).toBe(200);
    const graphql = await gqlUpload('../../../evil7.txt', 'text/plain', Buffer.from('just text'));
    expect(graphql.status).toBe(200);
    const stored = [...rest.body, graphql.body.data.upload.data.attributes] as Array<{ url: string; name: string }>;
    for (const file of stored) {
      // a plain generated file name right under /uploads/, which is on disk in the uploads folder
      expect(file.url, file.name).toMatch(/^\/uploads\/[A-Za-z0-9_-]+\.[a-z0-9]+$/);
      expect(fs.existsSync(path.join(t.uploadsDir, path.basename(file.url))), file.url).toBe(true);
    }
    expect(outside(t.dir)).toEqual(projectBefore);
    expect(outside(path.join(t.dir, 'public'))).toEqual(publicBefore);
    expect(fs.existsSync(path.join(t.dir, '..', 'evil.html'))).toBe(false);
    // a NUL byte (an extension after it) is refused
    expect(await post(t, form([{ name: 'evil6.png\u0000.html', type: 'image/png', data: Buffer.from('x') }]))).toMatchObject({ status: 400, body: { error: { message: 'File name contains invalid characters' } } });
  });

  it('zero-byte files: stored as an empty text file (as v4 stores them), served as 0 bytes, nosniff', async () => {
    const rest = await post(t, form([{ name: 'empty.html', type: 'text/html', data: Buffer.alloc(0) }]));
    expect(rest.status).toBe(200);
    const graphql = await gqlUpload('empty.bin', 'application/octet-stream', Buffer.alloc(0));
    expect(graphql.status).toBe(200);
    for (const file of [rest.body[0], graphql.body.data.upload.data.attributes]) {
      // the claimed type and extension are not kept: typed by the (empty) content
      expect(file).toMatchObject({ size: 0, ext: '.txt', mime: 'text/plain' });
      const served = await fetch(t.url + file.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await served.arrayBuffer()).byteLength).toBe(0);
    }
  });

  it(`oversize files (upload.config.sizeLimit ${SIZE_LIMIT}): 413 on REST and GraphQL, nothing stored`, async () => {
    const before = t.uploads();
    const big = Buffer.alloc(SIZE_LIMIT * 2, 'a');
    const rest = await post(t, form([{ name: 'big.txt', type: 'text/plain', data: big }]));
    expect(rest).toMatchObject({ status: 413, body: { data: null, error: { status: 413, name: 'PayloadTooLargeError' } } });
    expect(await gqlUpload('big.txt', 'text/plain', big)).toEqual(rest);
    expect(t.uploads()).toEqual(before);
  });

  it('prototype keys in `fileInfo` set nothing and pollute nothing', async () => {
    const fd = form([{ name: 'info.txt', type: 'text/plain', data: Buffer.from('hello') }], { fileInfo: '{"__proto__":{"alternativeText":"polluted"},"constructor":{"prototype":{"caption":"polluted"}},"name":"kept.txt"}' });
    const res = await post(t, fd);
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ name: 'kept.txt', alternativeText: null, caption: null });
    const later = await post(t, form([{ name: 'later.txt', type: 'text/plain', data: Buffer.from('hello') }]));
    expect(later.body[0]).toMatchObject({ name: 'later.txt', alternativeText: null, caption: null });
    expect(({} as Record<string, unknown>).alternativeText).toBeUndefined();
  });
});
