// Upload limits and rules that come from the project's configuration and permissions: sizeLimit and the
// body middleware's maxFileSize (413 in v4's envelope), allow/deny lists, permission to attach, and a
// first upload on an empty database (settings and the "API Uploads" folder created as v4 does).
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { call, form, post, startUploadApp, type UploadApp } from './app';
import * as gen from './fixtures';

let t: UploadApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const plugins = (upload: string) => `module.exports = () => ({ upload: { config: ${upload} } });\n`;

describe('sizes', () => {
  it('answers a file over upload.config.sizeLimit with v4\'s 413, storing nothing', async () => {
    t = await startUploadApp({ plugins: plugins('{ sizeLimit: 20000 }') });
    const before = t.uploads();
    const res = await post(t, form([{ name: 'big.jpg', type: 'image/jpeg', data: await gen.bigJpeg() }]));
    expect(res).toEqual({ status: 413, body: { data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'big.jpg exceeds size limit of 20 KB.', details: {} } } });
    expect(t.uploads()).toEqual(before);
    const small = await post(t, form([{ name: 'tiny.png', data: await gen.tinyPng() }]));
    expect(small.status).toBe(200);
  });

  it('answers a file over strapi::body formidable.maxFileSize with 413 FileTooBig', async () => {
    t = await startUploadApp({
      plugins: plugins('{ sizeLimit: 20000 }'),
      middlewares: "module.exports = ['strapi::errors', { name: 'strapi::body', config: { formidable: { maxFileSize: 15000 } } }];\n",
    });
    const res = await post(t, form([{ name: 'big.jpg', data: await gen.bigJpeg() }]));
    expect(res).toEqual({ status: 413, body: { data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'FileTooBig', details: {} } } });
    // without strapi::public the public folder is not served, but /uploads still is (v4: the upload plugin's route)
    expect((await fetch(`${t.url}/robots.txt`)).status).toBe(404);
    expect((await fetch(`${t.url}/uploads/landscape_9e07983b1e.jpg`)).status).toBe(200);
  });

  it('uses the configured breakpoints', async () => {
    t = await startUploadApp({ plugins: plugins('{ breakpoints: { xlarge: 1920, tablet: 800, phone: 320 } }') });
    const [file] = (await post(t, form([{ name: 'big.jpg', data: await gen.bigJpeg() }]))).body;
    expect(Object.fromEntries(Object.entries<{ width: number; height: number }>(file.formats).map(([k, f]) => [k, [f.width, f.height]])))
      .toEqual({ thumbnail: [209, 156], xlarge: [1920, 1440], tablet: [800, 600], phone: [320, 240] });
  });

  it('refuses a project whose upload config is malformed, naming the file', async () => {
    await expect(startUploadApp({ plugins: plugins("{ breakpoints: { large: 'big' } }") })).rejects.toThrow(/config\/plugins\.js: upload\.config\.breakpoints must map format names/);
    await expect(startUploadApp({ plugins: plugins("{ provider: 'not-installed' }") })).rejects.toThrow(/upload provider "not-installed" is not installed/);
  });
});

describe('rules', () => {
  it('enforces security.allowedTypes / deniedTypes on the sniffed type', async () => {
    t = await startUploadApp({ plugins: plugins("{ security: { allowedTypes: ['image/*', 'application/pdf'], deniedTypes: ['image/svg+xml'] } }") });
    expect((await post(t, form([{ name: 'a.png', data: await gen.tinyPng() }]))).status).toBe(200);
    expect((await post(t, form([{ name: 'a.pdf', data: gen.pdfFile() }]))).status).toBe(200);
    const html = await post(t, form([{ name: 'page.pdf', type: 'application/pdf', data: gen.htmlPage() }]));
    expect(html.status).toBe(400);
    expect(html.body.error.message).toBe('page.pdf: files of type text/html are not allowed');
    const svg = await post(t, form([{ name: 'a.svg', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>') }]));
    expect(svg.status).toBe(400);
  });

  it('needs permission to update the entry a file is attached to (directly or through its component)', async () => {
    t = await startUploadApp();
    // the fixture's bootstrap grants Public article updates: take that back (through the query engine, so caches follow)
    await t.app.query('plugin::users-permissions.permission').deleteMany({ where: { action: 'api::article.article.update' } });
    const before = { files: t.uploads(), rows: (await t.rows('SELECT id FROM files')).length };
    const tiny = await gen.tinyPng();
    const direct = await post(t, form([{ name: 'a.png', data: tiny }], { ref: 'api::article.article', refId: '1', field: 'gallery' }), { auth: false });
    expect(direct.status).toBe(403);
    const viaComponent = await post(t, form([{ name: 'a.png', data: tiny }], { ref: 'shared.seo', refId: '1', field: 'shareImage' }), { auth: false });
    expect(viaComponent.status).toBe(403);
    expect(t.uploads()).toEqual(before.files);
    expect((await t.rows('SELECT id FROM files')).length).toBe(before.rows);
    // uploading without attaching needs only the upload permission; deleting needs destroy
    const plain = await post(t, form([{ name: 'a.png', data: tiny }]), { auth: false });
    expect(plain.status).toBe(200);
    expect((await call(t, 'DELETE', `/api/upload/files/${plain.body[0].id}`, { auth: false })).status).toBe(403);
  });

  it('creates v4\'s upload settings and the "API Uploads" folder on an empty database', async () => {
    t = await startUploadApp({ withData: false });
    const settings = await t.rows<{ key: string; value: string }>("SELECT key, value FROM strapi_core_store_settings WHERE key IN ('plugin_upload_settings', 'plugin_upload_view_configuration') ORDER BY key");
    expect(settings.map((r) => [r.key, JSON.parse(r.value)])).toEqual([
      ['plugin_upload_settings', { sizeOptimization: true, responsiveDimensions: true, autoOrientation: false }],
      ['plugin_upload_view_configuration', { pageSize: 10, sort: 'createdAt:DESC' }],
    ]);
    const token = await t.app.strapi.service('admin::api-token') as { create(a: unknown): Promise<{ accessKey: string }> };
    t.token = (await token.create({ name: 'uploads', type: 'full-access', lifespan: null })).accessKey;
    const [first] = (await post(t, form([{ name: 'a.png', data: await gen.tinyPng() }]))).body;
    const [second] = (await post(t, form([{ name: 'b.png', data: await gen.tinyPng() }]))).body;
    expect(await t.rows('SELECT id, name, path_id, path FROM upload_folders')).toEqual([{ id: 1, name: 'API Uploads', path_id: 1, path: '/1' }]);
    expect(await t.rows('SELECT file_id, folder_id, file_order FROM files_folder_links ORDER BY file_id')).toEqual([
      { file_id: first.id, folder_id: 1, file_order: 1 }, { file_id: second.id, folder_id: 1, file_order: 2 },
    ]);
    const store = await t.rows<{ value: string }>("SELECT value FROM strapi_core_store_settings WHERE key = 'plugin_upload_api-folder'");
    expect(JSON.parse(store[0].value)).toEqual({ id: 1 });
  });

  it('does not resize when responsiveDimensions is off in the upload settings, and keeps the original bytes without sizeOptimization', async () => {
    t = await startUploadApp({
      prepareDb: (db) => db.prepare("UPDATE strapi_core_store_settings SET value = ? WHERE key = 'plugin_upload_settings'")
        .run(JSON.stringify({ sizeOptimization: false, responsiveDimensions: false, autoOrientation: false })),
    });
    const data = await gen.bigJpeg();
    const [file] = (await post(t, form([{ name: 'big.jpg', data }]))).body;
    expect(Object.keys(file.formats)).toEqual(['thumbnail']);
    expect(file.size).toBe(Math.round(data.length / 10) / 100);
  });
});

describe('providers', () => {
  const remote = (dir: string) => path.join(dir, 'remote-bucket');
  const withDisk = (options: string) => ({
    prepareDir: (dir: string) => {
      gen.installDiskProvider(dir);
      fs.writeFileSync(path.join(dir, 'config/plugins.js'), plugins(`{ provider: 'diskcopy', providerOptions: { dir: ${JSON.stringify(remote(dir))}, base: 'https://cdn.example', ${options} } }`));
    },
  });

  it('stores through a provider package named in config/plugins.js, signing the urls of a private one', async () => {
    t = await startUploadApp(withDisk(''));
    const res = await post(t, form([{ name: 'big.jpg', data: await gen.bigJpeg() }]));
    expect(res.status).toBe(200);
    const [file] = res.body;
    expect(file).toMatchObject({ provider: 'diskcopy', provider_metadata: { bucket: 'b' }, url: `https://cdn.example/${file.hash}.jpg?sig=1` });
    expect(file.formats.thumbnail.url).toBe(`https://cdn.example/thumbnail_${file.hash}.jpg?sig=1`);
    expect(await t.rows('SELECT url FROM files WHERE id = ?', file.id)).toEqual([{ url: `https://cdn.example/${file.hash}.jpg` }]);
    expect(fs.readdirSync(remote(t.dir)).sort()).toEqual(['large', 'medium', 'small', 'thumbnail'].map((k) => `${k}_${file.hash}.jpg`).concat(`${file.hash}.jpg`).sort());
    expect(t.uploads()).not.toContain(`${file.hash}.jpg`);
    expect((await call(t, 'DELETE', `/api/upload/files/${file.id}`)).status).toBe(200);
    expect(fs.readdirSync(remote(t.dir))).toEqual([]);
  });

  it('removes what the provider already stored when a later file of the request fails there', async () => {
    // the re-encoded original (about 25 KB) fits, its formats do not
    t = await startUploadApp(withDisk('quota: 30000'));
    const res = await post(t, form([{ name: 'big.jpg', data: await gen.bigJpeg() }]));
    expect(res.status).toBe(500); // the provider's own failure: not the client's fault
    expect(fs.readdirSync(remote(t.dir))).toEqual([]);
    expect(await t.rows("SELECT id FROM files WHERE name = 'big.jpg'")).toEqual([]);
  });
});
