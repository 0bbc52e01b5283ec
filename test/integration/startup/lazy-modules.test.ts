// Start-up and a public read load none of the packages that only image uploads (sharp), JWT verification
// (jose), the nodemailer email provider, or route JSON schemas (fastify's ajv and fast-json-stringify
// compilers) need: each costs start time and resident memory in every process (bench/README.md,
// finding 6). The first request that needs one loads it and works. A package that cannot be loaded
// fails naming itself and what needed it.
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyModule, ModuleLoadError } from '../../../src/lazy-module';
import { lazySchemaCompilers } from '../../../src/server/schema-compilers';
import { FIXTURE_APP } from '../../helpers/fixture-model';
import { startFixtureApp, type RunningApp } from '../../helpers/fixture-app';

const LAZY = ['sharp', 'jose', 'nodemailer', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'];
const loaded = (pkg: string) => Object.keys(require.cache).some((id) => id.includes(`${path.sep}node_modules${path.sep}${pkg}${path.sep}`));

describe('packages loaded on first use', () => {
  let app: RunningApp;
  beforeAll(async () => {
    // this test file's process has loaded none of them yet (vitest forks a process per file)
    expect(LAZY.filter(loaded)).toEqual([]);
    app = await startFixtureApp(true);
  });
  afterAll(() => app?.stop());

  it('a start, public and API-token reads, and a logged email load none of them', async () => {
    for (const headers of [{}, { authorization: `Bearer ${app.token}` }] as Array<Record<string, string>>) {
      const res = await fetch(`${app.url}/api/articles?populate=*`, { headers });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    }
    const email = app.app.strapi.plugin('email').service('email') as { send(o: object): Promise<unknown> };
    await email.send({ to: 'reader@example.com', subject: 'hello', text: 'hi' });
    expect(LAZY.filter(loaded)).toEqual([]);
  });

  it('the first JWT to verify loads jose, and is verified', async () => {
    const login = await fetch(`${app.url}/api/auth/local`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'reader', password: 'Reader-pass-1' }),
    });
    expect(login.status).toBe(200);
    const { jwt } = (await login.json()) as { jwt: string };
    expect(loaded('jose')).toBe(false); // signing does not need it
    const me = await fetch(`${app.url}/api/users/me`, { headers: { authorization: `Bearer ${jwt}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { username: string }).username).toBe('reader');
    expect(loaded('jose')).toBe(true);
    const forged = await fetch(`${app.url}/api/users/me`, { headers: { authorization: `Bearer ${jwt.slice(0, -2)}xx` } });
    expect(forged.status).toBe(401);
  });

  it('the first image upload loads sharp, and makes the formats', async () => {
    expect(loaded('sharp')).toBe(false);
    const image = fs.readFileSync(path.join(FIXTURE_APP, 'fixture-data/uploads/landscape_9e07983b1e.jpg'));
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'landscape.jpg');
    const res = await fetch(`${app.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${app.token}` }, body: form });
    expect(res.status).toBe(200);
    const [file] = (await res.json()) as Array<{ mime: string; width: number; formats: Record<string, { width: number }> }>;
    expect(file.mime).toBe('image/jpeg');
    expect(file.width).toBeGreaterThan(245);
    expect(file.formats.thumbnail.width).toBeLessThanOrEqual(245);
    expect(loaded('sharp')).toBe(true);
  });
});

describe('lazyModule', () => {
  it('loads once, on the first call', () => {
    let loads = 0;
    const get = lazyModule('qs', 'testing', () => {
      loads++;
      return require('qs') as { parse(s: string): unknown };
    });
    expect(loads).toBe(0);
    expect(get().parse('a=1')).toEqual({ a: '1' });
    expect(get()).toBe(get());
    expect(loads).toBe(1);
  });

  it('a package that is not installed fails naming it and what needed it, on every use', () => {
    const get = lazyModule('tessera-no-such-package', 'image upload processing', () => require('tessera-no-such-package'));
    for (let i = 0; i < 2; i++) {
      expect(get).toThrow(ModuleLoadError);
      expect(get).toThrow(/^image upload processing needs the package "tessera-no-such-package", which could not be loaded: Cannot find module 'tessera-no-such-package'/);
    }
  });
});

describe('fastify schema compilers on first use', () => {
  it('a route that declares schemas still has its body validated and its response serialized', async () => {
    const app = Fastify({ schemaController: lazySchemaCompilers });
    app.post('/echo', {
      schema: {
        body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
        response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    }, async (req) => ({ n: (req.body as { n: number }).n, hidden: 'not in the response schema' }));
    try {
      const bad = await app.inject({ method: 'POST', url: '/echo', payload: { n: 'x' } });
      expect(bad.statusCode).toBe(400);
      const ok = await app.inject({ method: 'POST', url: '/echo', payload: { n: 3 } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ n: 3 });
    } finally {
      await app.close();
    }
  });
});
