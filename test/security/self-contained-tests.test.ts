// Issue #13 part 1: the repository tests itself with nothing beside it, compares with real Strapi's recorded
// answers strictly, and leaves nothing behind.
// - no test or source file reads the shared folder outside the clone; the fixture app is in the repository;
// - the comparison masks only the server's clock readings, reports every difference (no cap), and a deviation
//   names each differing path with the exact value Tessera answers there;
// - every temporary folder a test creates is removed, also when starting an app fails, and a test file that
//   leaves one fails.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureApp, startProjectCopy, type RunningApp } from '../helpers/fixture-app';
import { FIXTURE_APP, FIXTURE_DATA, FIXTURE_DB } from '../helpers/fixture-model';
import { ABSENT, Client, deviationProblems, normaliser, replay, type Answer, type DiffRequest } from '../helpers/strapi-diff';

const REPO = path.resolve(__dirname, '../..');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === '.tmp' ? [] : files(p);
    return [p];
  });
}

describe('a clone needs nothing beside it', () => {
  it('no code under src/, test/ or .ci/ names the shared folder beside the clone, or the variable that pointed there', () => {
    // built from parts so this file does not match itself
    const outside = new RegExp(['\\.\\./shared', '/work' + '/shared', 'TESSERA' + '_SHARED'].join('|'));
    const code = [...files(path.join(REPO, 'src')), ...files(path.join(REPO, 'test')), ...files(path.join(REPO, '.ci'))]
      .filter((f) => /\.(ts|mts|mjs|cjs|js|json)$/.test(f) || f.endsWith(`${path.sep}run`))
      .filter((f) => !f.endsWith('.golden.jsonl'));
    // a comment may say where something came from; code may not read there
    const offending = code.filter((f) => fs.readFileSync(f, 'utf8').split('\n').some((l) => outside.test(l.replace(/\/\*.*?\*\/|\/\/.*$|^\s*(\*|#).*$/g, ''))));
    expect(offending.map((f) => path.relative(REPO, f))).toEqual([]);
  });

  it('the fixture app, its database, token and uploads are in the repository', () => {
    for (const p of [FIXTURE_APP, FIXTURE_DATA, FIXTURE_DB]) expect(path.relative(REPO, p).startsWith('..')).toBe(false);
    expect(fs.statSync(FIXTURE_DB).size).toBeGreaterThan(100_000);
    expect(fs.readFileSync(path.join(FIXTURE_DATA, 'token.txt'), 'utf8').trim()).toMatch(/^[0-9a-f]{64,}$/);
    expect(fs.readdirSync(path.join(FIXTURE_DATA, 'uploads')).length).toBeGreaterThan(0);
    for (const part of ['package.json', 'config/database.js', 'src/index.js', 'favicon.png']) expect(fs.existsSync(path.join(FIXTURE_APP, part))).toBe(true);
  });
});

describe('the comparison with recorded answers', () => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startFixtureApp(true);
  });
  afterAll(async () => {
    await running?.stop();
  });

  const one = (url: string, name = url): DiffRequest[] => [{ name, method: 'GET', url }];
  /** Tessera's answer, normalised as a recording would be */
  async function answer(requests: DiffRequest[]): Promise<Answer> {
    const got = await new Client(running.url, running.token).send(requests[0]);
    return { name: requests[0].name!, status: got.status, body: normaliser(requests)(got.body) };
  }
  const compare = (requests: DiffRequest[], golden: Answer) => replay(requests, new Client(running.url, running.token), [golden]);

  it('masks only clock readings: a stored datetime read back is compared as data', async () => {
    const requests = one('/api/articles/1?fields[0]=scheduledAt&fields[1]=createdAt');
    const a = await answer(requests);
    const attrs = (a.body as { data: { attributes: Record<string, unknown> } }).data.attributes;
    expect(attrs.createdAt).toBe('<ts>');
    expect(attrs.scheduledAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // a recording that had masked it (the old rule) no longer matches, and a changed clock reading does not matter
    const [r] = await compare(requests, { ...a, body: { ...(a.body as object), data: { id: 1, attributes: { createdAt: '<ts>', scheduledAt: '<ts>' } } } });
    expect(r.differences).toEqual([{ path: '.data.attributes.scheduledAt', expected: '<ts>', actual: attrs.scheduledAt }]);
  });

  it('reports every difference, however many', async () => {
    const requests = one('/api/articles?pagination[pageSize]=100&fields[0]=title');
    const a = await answer(requests);
    const data = (a.body as { data: unknown[] }).data;
    expect(data.length).toBeGreaterThan(50);
    // the old tool stopped after 5,000 differences (and printed 40)
    const [r] = await compare(requests, { ...a, body: { ...(a.body as object), data: [...data.map(() => 0), ...Array.from({ length: 6000 }, (_v, i) => i)] } });
    expect(r.differences.length).toBe(data.length + 6000);
    expect(r.differences.at(-1)).toEqual({ path: `.data[${data.length + 5999}]`, expected: 5999, actual: ABSENT });
    const problems = deviationProblems([r], {});
    expect(problems[0].split('\n').length).toBe(1 + data.length + 6000);
  });

  it('a deviation holds each differing path with the exact value Tessera answers there', async () => {
    const requests = one('/api/articles/1?fields[0]=title&fields[1]=slug', 'article 1');
    const a = await answer(requests);
    const data = (a.body as { data: { id: number; attributes: { title: string; slug: string } } }).data;
    // the recording differs from Tessera in the status, one value, and a key Tessera does not answer
    const golden: Answer = { ...a, status: 400, body: { ...(a.body as object), data: { ...data, attributes: { ...data.attributes, title: 'other', extra: 1 } } } };
    const [r] = await compare(requests, golden);
    const exact = { status: 200, '.data.attributes.title': data.attributes.title, '.data.attributes.extra': { $absent: true } };
    expect(deviationProblems([r], { 'article 1': { why: 'test', expect: exact } })).toEqual([]);

    // a path above the differences does not cover them any more
    expect(deviationProblems([r], { 'article 1': { why: 'test', expect: { status: 200, '.data': data } } }).join('\n')).toMatch(/\.data\.attributes\.title: A="other"/);
    // another value at a listed path is a failure
    expect(deviationProblems([r], { 'article 1': { why: 'test', expect: { ...exact, '.data.attributes.title': 'not it' } } }).join('\n'))
      .toContain('.data.attributes.title: Tessera answers');
    // a listed path that no longer differs is a failure
    expect(deviationProblems([r], { 'article 1': { why: 'test', expect: { ...exact, '.data.attributes.slug': data.attributes.slug } } }).join('\n'))
      .toContain('.data.attributes.slug: listed in the deviations file but answered as recorded');
    // a listed request the list does not have is a failure
    expect(deviationProblems([r], { 'article 1': { why: 'test', expect: exact }, gone: { why: 'x', expect: {} } }).join('\n')).toContain('gone: listed');
    // the older form (paths covering everything below them) is refused
    expect(deviationProblems([r], { 'article 1': { why: 'test', paths: ['status', '.data'] } })).toHaveLength(1);
  });
});

describe('temporary folders', () => {
  const mine = () => fs.readdirSync(os.tmpdir()).filter((e) => e.startsWith('tessera-app-'));

  it('the test file has a temporary folder of its own', () => {
    expect(process.env.TESSERA_TEST_TMP).toBeTruthy();
    expect(path.dirname(os.tmpdir())).toBe(process.env.TESSERA_TEST_TMP);
  });

  it('stop() removes the app copy, and a start that fails removes its copy at once', async () => {
    const before = mine();
    const app = await startFixtureApp(false);
    expect(mine()).toEqual([...before, path.basename(app.dir)].sort());
    await app.stop();
    expect(mine()).toEqual(before);

    await expect(startProjectCopy(path.join(REPO, 'test/fixtures/broken-config'))).rejects.toThrow();
    expect(mine()).toEqual(before);
  });

  it('a test file that leaves a temporary folder behind fails, naming it, and the folder is removed', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-leak-probe-'));
    try {
      const probe = path.join(work, 'leaks.test.js');
      fs.writeFileSync(probe, `const fs = require('node:fs'), os = require('node:os'), path = require('node:path');
it('leaks', () => { fs.writeFileSync(path.join(os.tmpdir(), 'left-by-probe'), ''); fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-app-')); });
`);
      const config = path.join(work, 'vitest.config.mjs');
      fs.writeFileSync(config, `export default ${JSON.stringify({
        test: {
          root: work, include: ['*.test.js'], globals: true, pool: 'forks',
          globalSetup: [path.join(REPO, 'test/helpers/temp-dir-global.ts')],
          setupFiles: [path.join(REPO, 'test/helpers/temp-dir-setup.ts')],
        },
      })};\n`);
      const outer = fs.mkdtempSync(path.join(work, 'tmp-'));
      const run = await new Promise<{ code: number; output: string }>((resolve) => {
        execFile(process.execPath, [path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--config', config], {
          cwd: REPO, env: { ...process.env, TMPDIR: outer, TESSERA_TEST_TMP: '' }, timeout: 60_000,
        }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }));
      });
      expect(run.code).not.toBe(0);
      expect(run.output).toContain('the test file left temporary files behind');
      expect(run.output).toMatch(/left-by-probe/);
      expect(run.output).toMatch(/tessera-app-\w+/);
      // the run's folder went with it
      expect(fs.readdirSync(outer)).toEqual([]);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }, 90_000);
});
