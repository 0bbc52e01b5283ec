// @strapi/plugin-documentation on test/plugin-projects/fields-app where recorded answers cannot show it: the files
// it writes into the project (as v4, under src/api/*/documentation and src/extensions), the whole Swagger UI page
// (strapi-diff keeps only the first 200 characters of a text answer), the error naming the file of a version that
// does not exist (an absolute path, different on every copy), and the session a login opens when access is
// restricted (strapi-diff carries no cookies). What each test expects is what Strapi 4.26.2 did on the same
// project (test/plugin-projects/fields-app/README.md); the answers themselves are
// test/compat/plugins-documentation.golden.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from '../../helpers/fixture-app';
import { PLUGIN_PROJECTS_DIR } from '../../helpers/plugin-projects-global';
import { startPluginProject } from './plugin-project-app';

const DOC_FILE = 'src/extensions/documentation/documentation/1.0.0/full_documentation.json';

describe('documentation open to all', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startPluginProject('fields-app');
  });
  afterAll(async () => {
    await running?.stop();
  });

  const get = (url: string) => fetch(`${running.url}${url}`);

  it('writes the document and one file per documented API where v4 writes them', async () => {
    const written = (dir: string) => (fs.existsSync(path.join(running.dir, dir)) ? fs.readdirSync(path.join(running.dir, dir)) : []);
    for (const api of ['article', 'author', 'category', 'homepage', 'page', 'product']) {
      expect(written(`src/api/${api}/documentation/1.0.0`)).toEqual([`${api}.json`]);
    }
    // slugify is generated; upload and users-permissions are excluded from generation by their own overrides
    expect(written('src/extensions/slugify/documentation/1.0.0')).toEqual(['slugify.json']);
    expect(written('src/extensions/upload')).toEqual([]);
    expect(written('src/extensions/users-permissions')).toEqual([]);

    const served = (await (await get('/documentation/openapi.json')).json()) as Record<string, unknown>;
    expect(JSON.parse(fs.readFileSync(path.join(running.dir, DOC_FILE), 'utf8'))).toEqual(served);
    const productPaths = JSON.parse(fs.readFileSync(path.join(running.dir, 'src/api/product/documentation/1.0.0/product.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(productPaths)).toEqual(['/products', '/products/{id}']);
  });

  it('serves the Swagger UI page with the document in it, written to src/extensions/documentation/public/index.html', async () => {
    const res = await get('/documentation');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await res.text();
    // server.url is empty: the assets are asked for from the site's root
    expect(page).toContain('href="/plugins/documentation/swagger-ui.css"');
    expect(page).toContain('<script src="/plugins/documentation/swagger-ui-bundle.js"></script>');
    const spec = /spec: (\{.*\}),\n\s*dom_id/.exec(page)?.[1];
    expect(JSON.parse(spec ?? 'null')).toEqual(await (await get('/documentation/openapi.json')).json());
    expect(fs.readFileSync(path.join(running.dir, 'src/extensions/documentation/public/index.html'), 'utf8')).toBe(page);
  });

  it("serves swagger-ui-dist's files with a day of caching", async () => {
    const res = await get('/plugins/documentation/swagger-ui-bundle.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('max-age=86400');
    const file = path.join(PLUGIN_PROJECTS_DIR, 'node_modules/swagger-ui-dist/swagger-ui-bundle.js');
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(file))).toBe(true);
  });

  it('answers a version without a document 400 with the error of reading its file, as v4', async () => {
    const res = await get('/documentation/v2.0.0/openapi.json');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { data: null; error: { status: number; name: string; message: string; details: string } };
    expect(body.error).toMatchObject({ status: 400, name: 'BadRequestError', message: 'Bad Request' });
    expect(body.error.details).toMatch(/^ENOENT: no such file or directory, open '.*\/src\/extensions\/documentation\/documentation\/2\.0\.0\/full_documentation\.json'$/);
  });
});

describe('documentation behind a password', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startPluginProject('fields-app', { env: { FIELDS_APP_DOCS_RESTRICTED: 'true' } });
  });
  afterAll(async () => {
    await running?.stop();
  });

  const login = (password: string) =>
    fetch(`${running.url}/documentation/login`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password }),
    });
  const getWith = (url: string, cookie?: string) => fetch(`${running.url}${url}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

  it('opens a session on the right password: the document and the page answer with its cookies (koa-session, signed)', async () => {
    const res = await login('docs-secret');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/documentation');
    const setCookies = res.headers.getSetCookie();
    expect(setCookies.map((c) => c.split('=')[0])).toEqual(['koa.sess', 'koa.sess.sig']);
    for (const c of setCookies) expect(c).toMatch(/; path=\/; expires=[^;]+; httponly$/);
    const cookie = setCookies.map((c) => c.split(';')[0]).join('; ');

    const doc = await getWith('/documentation/openapi.json', cookie);
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { info: { title: string } }).info.title).toBe('Fields app');
    expect((await getWith('/documentation', cookie)).status).toBe(200);
  });

  it('opens none on a wrong password, and a session cookie without its signature is not one', async () => {
    const wrong = await login('wrong');
    expect(wrong.status).toBe(302);
    expect(wrong.headers.get('location')).toBe('/documentation?error=password');
    expect(wrong.headers.getSetCookie()).toEqual([]);

    // the value v4 writes for { documentation: { logged: true } }, unsigned
    const forged = `koa.sess=${Buffer.from(JSON.stringify({ documentation: { logged: true } })).toString('base64')}`;
    const res = await getWith('/documentation/openapi.json', forged);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/documentation/login');
  });
});
