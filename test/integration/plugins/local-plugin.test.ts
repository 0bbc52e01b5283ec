// The local plugin fixture (test/fixtures/plugin-app) where recorded answers cannot show it: start-up refusals,
// destroy on close, response headers (strapi-diff compares status and body only) and the admin part. What each
// test expects is what Strapi 4.26.2 did on the same project (test/fixtures/plugin-app/README.md); the answers
// themselves are test/compat/plugins-local.golden.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, startFixtureAppWith, type RunningApp } from '../../helpers/fixture-app';

const PLUGIN_APP = path.resolve(__dirname, '../../fixtures/plugin-app');

/** startFixtureAppWith on a copy of plugin-app with some of its files rewritten (file -> text -> new text). */
async function startEdited(edits: Record<string, (text: string) => string>): Promise<RunningApp> {
  const changed: Record<string, string> = {};
  for (const [file, edit] of Object.entries(edits)) {
    const text = fs.readFileSync(path.join(PLUGIN_APP, file), 'utf8');
    changed[file] = edit(text);
    expect(changed[file], `${file} was not changed`).not.toBe(text);
  }
  const overlay = copyProject(PLUGIN_APP, changed);
  try {
    return await startFixtureAppWith(overlay);
  } finally {
    fs.rmSync(overlay, { recursive: true, force: true });
  }
}

describe('start-up refusals as v4', () => {
  it("stops when the plugin's config validator throws, naming the plugin", async () => {
    // v4: "Error regarding todo config: greeting must be a non-empty string", and no server
    const start = startEdited({ 'config/plugins.js': (t) => t.replace("env('TODO_GREETING', 'bonjour')", "''") });
    await expect(start).rejects.toThrow('Error regarding todo config: greeting must be a non-empty string');
  });

  it('stops when a plugin route names a middleware by its bare name (v4 resolves only uids there)', async () => {
    // v4: "Error creating endpoint GET /tasks: Middleware stamp not found."
    const start = startEdited({
      'src/plugins/todo/server/routes/content-api.js': (t) => t.replace("middlewares: ['plugin::todo.stamp']", "middlewares: ['stamp']"),
    });
    await expect(start).rejects.toThrow(/Middleware stamp not found/);
  });
});

describe('the running plugin', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startFixtureAppWith(PLUGIN_APP);
  });
  afterAll(async () => {
    await running?.stop();
  });

  const get = (url: string, auth = false) =>
    fetch(`${running.url}${url}`, { headers: auth ? { authorization: `Bearer ${running.token}` } : {} });

  it("sets the plugin middleware's header, with its route config, only where the route lists it", async () => {
    const tasks = await get('/api/todo/tasks');
    expect(tasks.status).toBe(200);
    expect(tasks.headers.get('x-todo-stamp')).toBe('todo');
    const stats = await get('/api/todo/stats');
    expect(stats.headers.get('x-todo-stamp')).toBe('stats');
    expect((await get('/api/todo/tasks/1')).headers.get('x-todo-stamp')).toBeNull();
    // the policy runs before the route's middlewares: a blocked request never reaches them
    const blocked = await get('/api/todo/tasks?deny=1');
    expect(blocked.status).toBe(403);
    expect(blocked.headers.get('x-todo-stamp')).toBeNull();
  });

  it("runs the app register's middleware on every users-permissions route, the extension's too, after authorization", async () => {
    for (const [url, auth] of [['/api/users', true], ['/api/users/count', true], ['/api/users-permissions/hello', false], ['/api/users-card', true]] as const) {
      const res = await get(url, auth);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('x-up-extended'), url).toBe('yes');
    }
    const login = await fetch(`${running.url}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'reader', password: 'Reader-pass-1' }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('x-up-extended')).toBe('yes');
    // Public may not list users: 403 before the route's middlewares, as v4
    const denied = await get('/api/users');
    expect(denied.status).toBe(403);
    expect(denied.headers.get('x-up-extended')).toBeNull();
    // the closed route is not a users-permissions route any more
    const closed = await get('/api/users/1', true);
    expect(closed.status).toBe(404);
    expect(closed.headers.get('x-up-extended')).toBeNull();
  });

  it("does not serve the plugin's admin routes (v4 serves /todo/settings to admin users only)", async () => {
    const res = await get('/todo/settings', true);
    expect(res.status).not.toBe(200);
    expect(await res.text()).not.toContain('perPage');
  });
});

it("runs register, then bootstrap, then the plugin's destroy when the server closes", async () => {
  const running = await startFixtureAppWith(PLUGIN_APP);
  const destroyed = path.join(running.dir, '.tmp/todo-destroyed.txt');
  let closed = false;
  try {
    const res = await fetch(`${running.url}/api/todo/describe`);
    expect(((await res.json()) as { lifecycle: string[] }).lifecycle).toEqual(['todo.register', 'app.register', 'todo.bootstrap', 'app.bootstrap']);
    expect(fs.existsSync(destroyed)).toBe(false);
    closed = true;
    await running.app.close();
    // v4 (SIGTERM on strapi start) wrote the same file from the plugin's destroy
    expect(fs.readFileSync(destroyed, 'utf8')).toBe('destroyed\n');
  } finally {
    if (closed) fs.rmSync(running.dir, { recursive: true, force: true });
    else await running.stop();
  }
});
