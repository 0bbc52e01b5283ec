// The fixture app (with the data real Strapi wrote) started with extra config for auth tests: the SMTP
// server to send through, server.proxy, plugin options. Requests are real HTTP against the listening app.
import fs from 'node:fs';
import path from 'node:path';
import { createTessera, type Tessera } from '../../../src/core/tessera';
import { copyFixtureApp } from '../../helpers/fixture-app';
import { dropProjectDatabase } from '../../helpers/test-database';

export const FIXTURE_JWT_SECRET = 'peer-users-permissions-jwt-secret-not-for-production';

export interface AuthAppOptions {
  smtpPort?: number;
  /** extra `users-permissions.config` keys */
  usersPermissions?: Record<string, unknown>;
  /** config/server.js `proxy` */
  proxy?: boolean;
  /** extra project files (path relative to the project -> content), e.g. a user model extension */
  files?: Record<string, string>;
}

export interface AuthApp {
  app: Tessera;
  url: string;
  dir: string;
  token: string;
  request(method: string, url: string, opts?: { body?: unknown; jwt?: string; token?: boolean; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  login(identifier: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startAuthApp(o: AuthAppOptions = {}): Promise<AuthApp> {
  const dir = copyFixtureApp(true);
  const up = { jwtSecret: FIXTURE_JWT_SECRET, ...(o.usersPermissions ?? {}) };
  const email = o.smtpPort
    ? { config: { provider: 'nodemailer', providerOptions: { host: '127.0.0.1', port: o.smtpPort, secure: false, ignoreTLS: true }, settings: { defaultFrom: 'app@example.com' } } }
    : undefined;
  fs.writeFileSync(path.join(dir, 'config/plugins.js'), `module.exports = ${JSON.stringify({ 'users-permissions': { config: up }, ...(email ? { email } : {}) })};\n`);
  if (o.proxy !== undefined) {
    fs.writeFileSync(path.join(dir, 'config/server.js'), `module.exports = { host: '127.0.0.1', port: 1337, proxy: ${o.proxy}, app: { keys: ['a', 'b'] } };\n`);
  }
  for (const [file, content] of Object.entries(o.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  let app: Tessera | undefined;
  let url: string;
  try {
    app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (err) {
    // the caller gets no handle to stop, so the copy goes now
    await app?.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
    await dropProjectDatabase(dir).catch(() => undefined); // the start's error is the one to see
    throw err;
  }
  const token = fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim();
  const request: AuthApp['request'] = async (method, u, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.jwt) headers.authorization = `Bearer ${opts.jwt}`;
    if (opts.token) headers.authorization = `Bearer ${token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url + u, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), redirect: 'manual' });
    const text = await res.text();
    let body: unknown = text;
    try { body = JSON.parse(text); } catch { /* text */ }
    return { status: res.status, body, headers: res.headers };
  };
  return {
    app, url, dir, token, request,
    async login(identifier, password) {
      const r = await request('POST', '/api/auth/local', { body: { identifier, password } });
      if (r.status !== 200) throw new Error(`login ${identifier}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.jwt as string;
    },
    async stop() {
      try {
        await app.close();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        await dropProjectDatabase(dir); // its PostgreSQL database, in the postgres project
      }
    },
  };
}
