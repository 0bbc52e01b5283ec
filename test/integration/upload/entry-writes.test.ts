// Multipart entry writes (`data` + `files.<path>` on the content types' own routes) are all or nothing:
// when the entry cannot be written, the files stored for it are removed again (rows and bytes), and a
// caller without the upload permission stores nothing. (What they answer is compared with Strapi 4.26.2 in
// test/compat/upload-entries.golden.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbCount } from '../../helpers/db-rows';
import { startUploadApp, type UploadApp } from './app';
import { midPng, tinyPng } from './fixtures';

let t: UploadApp;
beforeAll(async () => {
  t = await startUploadApp();
});
afterAll(async () => {
  await t?.stop();
});

function entryForm(data: unknown, files: Record<string, Buffer[]>): FormData {
  const fd = new FormData();
  for (const [field, list] of Object.entries(files)) for (const [i, b] of list.entries()) fd.append(field, new Blob([new Uint8Array(b)], { type: 'image/png' }), `${field}-${i}.png`);
  fd.append('data', JSON.stringify(data));
  return fd;
}

async function send(method: string, path: string, body: FormData, auth = true) {
  const res = await fetch(t.url + path, { method, headers: auth ? { authorization: `Bearer ${t.token}` } : {}, body });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const fileCount = () => dbCount(t.app.db, 'files');

describe('multipart entry writes', () => {
  it('a create that fails validation keeps none of its files', async () => {
    const [rows, bytes] = [await fileCount(), t.uploads()];
    const res = await send('POST', '/api/articles', entryForm({ slug: 'no-title' }, { 'files.cover': [await midPng()], 'files.gallery': [await tinyPng()] }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('title must be defined.');
    expect(await fileCount()).toBe(rows);
    expect(t.uploads()).toEqual(bytes);
  });

  it('an update of an entry that does not exist keeps none of its files', async () => {
    const [rows, bytes] = [await fileCount(), t.uploads()];
    const res = await send('PUT', '/api/articles/99999', entryForm({}, { 'files.cover': [await tinyPng()] }));
    expect(res.status).toBe(404);
    expect(await fileCount()).toBe(rows);
    expect(t.uploads()).toEqual(bytes);
  });

  it('a path into a component that data does not give is a 400 before anything is stored', async () => {
    const rows = await fileCount();
    const res = await send('POST', '/api/articles', entryForm({ title: 'x', slug: 'mp-no-seo' }, { 'files.seo.shareImage': [await tinyPng()] }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('files.seo.shareImage needs seo in data');
    expect(await fileCount()).toBe(rows);
  });

  it('needs the upload permission: the Public role without it stores nothing', async () => {
    await t.app.strapi.query('plugin::users-permissions.permission').deleteMany({ where: { action: 'plugin::upload.content-api.upload' } });
    const rows = await fileCount();
    const res = await send('POST', '/api/articles', entryForm({ title: 'public', slug: 'mp-public' }, { 'files.cover': [await tinyPng()] }), false);
    expect(res.status).toBe(403);
    expect(await fileCount()).toBe(rows);
    expect(await t.app.strapi.query('api::article.article').findOne({ where: { slug: 'mp-public' } })).toBeNull();
  });

  it('a repeatable component item by index, and data alongside the files', async () => {
    const res = await send('POST', '/api/articles?populate[cover][fields][0]=name&populate[links]=true', entryForm(
      { title: 'with links', slug: 'mp-links', links: [{ label: 'a', url: 'u' }], cover: null },
      { 'files.cover': [await tinyPng()] },
    ));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.cover.data.attributes.name).toBe('files.cover-0.png');
    expect(res.body.data.attributes.links).toEqual([{ id: expect.any(Number), label: 'a', url: 'u' }]);
  });
});
