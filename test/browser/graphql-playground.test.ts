// The GraphQL playground in a real browser: Debian's chromium, driven through playwright-core, loads GraphiQL
// from Tessera on the fixture app with every request to a non-loopback host aborted, types a query, runs it,
// and reads the answer in the result pane; a token typed into the headers editor reaches the server. Production
// serves no playground unless playgroundAlways is true. Without chromium this file fails (.ci/run installs it).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, type RunningApp } from '../helpers/fixture-app';
import { FIXTURE_APP } from '../helpers/fixture-model';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTICLES = '{ articles { data { id } } }';
/** users-permissions users: the fixture's Public role may not find them, its full-access API token may */
const USERS = '{ usersPermissionsUsers { data { id } } }';

/** the fixture app with its data under `nodeEnv`; `plugins`: config/plugins.js of the copy rewritten by it */
function startFixture(nodeEnv: string, plugins?: (text: string) => string): Promise<RunningApp> {
  const edit: Record<string, string> = plugins ? { 'config/plugins.js': plugins(fs.readFileSync(path.join(FIXTURE_APP, 'config/plugins.js'), 'utf8')) } : {};
  return startFixtureApp(true, { env: { NODE_ENV: nodeEnv }, edit });
}

/** the server's own answer to a query, asked directly: what the result pane must show */
async function answer(url: string, query: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return res.json();
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

describe('the GraphQL playground in development', () => {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  /** requests the page tried to send off this machine (all aborted) */
  const blocked: string[] = [];
  const requested: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    // a missing browser is a failure, never a skip
    if (!fs.existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM}: apt-get install chromium (.ci/run does), or set CHROMIUM_PATH`);
    app = await startFixture('development');
    browser = await chromium.launch({ executablePath: CHROMIUM });
    context = await browser.newContext();
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (LOOPBACK.has(url.hostname)) return route.continue();
      blocked.push(url.href);
      return route.abort('internetdisconnected');
    });
    page = await context.newPage();
    page.on('request', (r) => requested.push(r.url()));
    page.on('pageerror', (err) => problems.push(`page error: ${err.message.slice(0, 300)}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text().slice(0, 300)}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const editor = (selector: string) => page.locator(selector).locator('.CodeMirror').first();
  const queryEditor = () => editor('.graphiql-query-editor');
  const headersEditor = () => editor('.graphiql-editor-tool .graphiql-editor:not(.hidden)');
  const editorText = (selector: string) =>
    page.evaluate((s) => (document.querySelector(`${s} .CodeMirror`) as unknown as { CodeMirror: { getValue(): string } } | null)?.CodeMirror.getValue() ?? '', selector);
  /** the result pane's JSON, or undefined while it holds none */
  const resultPane = async (): Promise<unknown> => {
    try {
      return JSON.parse(await editorText('.result-window'));
    } catch {
      return undefined;
    }
  };

  /** replaces the text of a CodeMirror editor by typing, as a user does (its auto-closed brackets typed over) */
  async function typeInto(target: ReturnType<typeof editor>, text: string): Promise<void> {
    await target.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type(text);
  }

  /** runs the query in the editor with the run button; resolves with the request the browser sent */
  async function run(query: string) {
    const sent = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/graphql' && r.postData()?.includes(JSON.stringify(query).slice(1, -1)) === true);
    await page.getByRole('button', { name: /Execute query/ }).click();
    return sent;
  }

  /** loads the playground as a browser does (Accept: text/html, no query parameter) */
  async function open(): Promise<void> {
    const res = await page.goto(`${app!.url}/graphql`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toMatch(/^text\/html/);
    await queryEditor().waitFor();
  }

  it('loads GraphiQL from the server alone and shows the answer to a query it runs', async () => {
    await open();

    await typeInto(queryEditor(), ARTICLES);
    expect(await editorText('.graphiql-query-editor')).toBe(ARTICLES);
    await run(ARTICLES);
    const expected = await answer(app!.url, ARTICLES);
    expect((expected as { data: { articles: { data: unknown[] } } }).data.articles.data.length).toBeGreaterThan(0);
    await expect.poll(resultPane, { timeout: 15_000 }).toEqual(expected);

    // offline: nothing but the server was asked for, and nothing went wrong in the page
    expect(blocked).toEqual([]);
    const origin = new URL(app!.url).origin;
    expect(requested.filter((u) => new URL(u).origin !== origin)).toEqual([]);
    expect(requested.some((u) => u.endsWith('/graphql/playground/graphiql.min.js'))).toBe(true);
    expect(problems).toEqual([]);
  });

  it('sends the headers set in the headers editor: a token runs what Public may not', async () => {
    const publicAnswer = await answer(app!.url, USERS);
    const tokenAnswer = (await answer(app!.url, USERS, { authorization: `Bearer ${app!.token}` })) as { data?: { usersPermissionsUsers?: { data?: unknown[] } } };
    // the two differ, so the pane tells which one the server gave
    expect((publicAnswer as { errors?: unknown[] }).errors?.length).toBeGreaterThan(0);
    expect(Array.isArray(tokenAnswer.data?.usersPermissionsUsers?.data)).toBe(true);

    await open();
    await typeInto(queryEditor(), USERS);
    const anonymous = await run(USERS);
    expect(await anonymous.headerValue('authorization')).toBeNull();
    await expect.poll(resultPane, { timeout: 15_000 }).toEqual(publicAnswer);

    await page.getByRole('button', { name: 'Headers', exact: true }).click();
    const headers = `{"Authorization": "Bearer ${app!.token}"}`;
    await typeInto(headersEditor(), headers);
    expect(await editorText('.graphiql-editor-tool .graphiql-editor:not(.hidden)')).toBe(headers);
    const withToken = await run(USERS);
    expect(await withToken.headerValue('authorization')).toBe(`Bearer ${app!.token}`);
    await expect.poll(resultPane, { timeout: 15_000 }).toEqual(tokenAnswer);

    expect(blocked).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('really aborts requests to other hosts (the offline check above is not vacuous)', async () => {
    // a page of its own: the playground's Content-Security-Policy would stop the request before the route sees it
    const probe = await context.newPage();
    try {
      await expect(probe.goto('https://playground-check.example/')).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    } finally {
      await probe.close();
    }
    expect(blocked).toEqual(['https://playground-check.example/']);
  });

  it('serves only the listed playground files, and the endpoint still answers queries sent by GET', async () => {
    const url = app!.url;
    const js = await fetch(`${url}/graphql/playground/graphiql.min.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(Buffer.from(await js.arrayBuffer()).equals(fs.readFileSync(path.join(path.dirname(require.resolve('graphiql/package.json')), 'graphiql.min.js')))).toBe(true);
    for (const file of ['index.umd.js', '..%2Fpackage.json', '..%2F..%2Fpackage.json', 'graphiql.min.js.map']) {
      expect((await fetch(`${url}/graphql/playground/${file}`)).status, file).toBe(404);
    }
    // a query parameter means a query, not the page, whatever the Accept header says
    const get = await fetch(`${url}/graphql?query=${encodeURIComponent(ARTICLES)}`, { headers: { accept: 'text/html' } });
    expect(get.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await get.json()).toEqual(await answer(url, ARTICLES));
  });
});

describe('the GraphQL playground in production', () => {
  const isPage = async (res: Response) => /^text\/html/.test(res.headers.get('content-type') ?? '') && (await res.text()).includes('/playground/graphiql.min.js');

  it('is off unless playgroundAlways is true', async () => {
    const app = await startFixture('production');
    try {
      const res = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(await isPage(res)).toBe(false);
      expect((await fetch(`${app.url}/graphql/playground/graphiql.min.js`)).status).toBe(404);
    } finally {
      await app.stop();
    }
  });

  it('is on with playgroundAlways: true', async () => {
    const app = await startFixture('production', (text) => {
      expect(text).toContain('playgroundAlways: false');
      return text.replace('playgroundAlways: false', 'playgroundAlways: true');
    });
    try {
      const res = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(await isPage(res)).toBe(true);
      expect((await fetch(`${app.url}/graphql/playground/graphiql.min.js`)).status).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
