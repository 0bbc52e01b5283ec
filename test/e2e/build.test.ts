// bin/build.js, the compiled build `tessera` runs: built when missing, rebuilt whenever a source or a
// bundled package changes (never stale), left alone when fresh, safe when several processes start at
// once, and used as it is when there are no sources (a published package). Runs on a throwaway copy of
// the build script with a small src/, so the checkout's own dist/ is never touched.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const temps: string[] = [];
afterAll(() => {
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true });
});

function makeRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-build-'));
  temps.push(dir);
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.copyFileSync(path.join(ROOT, 'bin/build.js'), path.join(dir, 'bin/build.js'));
  fs.copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeSource(dir, 'cli/main.ts', "import { answer } from '../answer';\nexport async function main(): Promise<string> { return answer; }\n");
  writeSource(dir, 'answer.ts', "export const answer: string = 'one';\n");
  return dir;
}

function writeSource(repo: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(repo, 'src', file)), { recursive: true });
  fs.writeFileSync(path.join(repo, 'src', file), text);
}

/** what the compiled main() answers, in a fresh process, as bin/tessera.js would load it */
const RUN = "require(require('./bin/build').ensureBuilt()).main().then((a) => process.stdout.write(a))";
function answer(repo: string): string {
  const r = spawnSync(process.execPath, ['-e', RUN], { cwd: repo, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

const out = (repo: string) => path.join(repo, 'dist/tessera.js');

describe('bin/build.js', () => {
  it('builds when dist/ is missing, and only then', () => {
    const repo = makeRepo();
    expect(answer(repo)).toBe('one');
    const first = fs.statSync(out(repo)).mtimeMs;
    expect(fs.existsSync(`${out(repo)}.map`)).toBe(true);
    expect(answer(repo)).toBe('one');
    expect(fs.statSync(out(repo)).mtimeMs).toBe(first);
  });

  it('rebuilds after any source changes: an edit, a new file, a removed file', () => {
    const repo = makeRepo();
    expect(answer(repo)).toBe('one');
    writeSource(repo, 'answer.ts', "export const answer: string = 'two';\n");
    expect(answer(repo)).toBe('two');
    writeSource(repo, 'answer.ts', "export { answer } from './more/answer';\n");
    writeSource(repo, 'more/answer.ts', "export const answer: string = 'three';\n");
    expect(answer(repo)).toBe('three');
    fs.rmSync(path.join(repo, 'src/more'), { recursive: true });
    writeSource(repo, 'answer.ts', "export const answer: string = 'four';\n");
    expect(answer(repo)).toBe('four');
  });

  it('a stale output never runs, even with an older mtime than the sources', () => {
    const repo = makeRepo();
    expect(answer(repo)).toBe('one');
    writeSource(repo, 'answer.ts', "export const answer: string = 'new';\n");
    const past = new Date(Date.now() - 86_400_000);
    fs.utimesSync(path.join(repo, 'src/answer.ts'), past, past);
    expect(answer(repo)).toBe('new');
  });

  it('rebuilds when a bundled package changes, and keeps other packages external', () => {
    const repo = makeRepo();
    // node_modules of links to the real packages, except a private copy of one bundled package
    fs.unlinkSync(path.join(repo, 'node_modules'));
    fs.mkdirSync(path.join(repo, 'node_modules'));
    for (const name of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
      if (name !== 'bcryptjs') fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(repo, 'node_modules', name));
    }
    fs.cpSync(path.join(ROOT, 'node_modules/bcryptjs'), path.join(repo, 'node_modules/bcryptjs'), { recursive: true });
    writeSource(repo, 'cli/main.ts', [
      "import bcrypt from 'bcryptjs';",
      "import Database from 'better-sqlite3';",
      'export async function main(): Promise<string> {',
      '  return `${String((bcrypt as unknown as { marker?: string }).marker)} ${typeof Database}`;',
      '}',
    ].join('\n'));
    expect(answer(repo)).toBe('undefined function');
    const js = fs.readFileSync(out(repo), 'utf8');
    expect(js).toContain('require("better-sqlite3")'); // native: loaded from node_modules at run time
    expect(js).not.toContain('require("bcryptjs")'); // bundled, as `require` resolves it (umd, not the ESM build)
    expect(js.split('\n')[0]).toContain('node_modules/bcryptjs/umd/index.js');
    fs.appendFileSync(path.join(repo, 'node_modules/bcryptjs/umd/index.js'), "\nmodule.exports.marker = 'patched';\n");
    expect(answer(repo)).toBe('patched function');
  });

  it('several processes starting at once on stale sources all run the new code', async () => {
    const repo = makeRepo();
    writeSource(repo, 'answer.ts', "export const answer: string = 'together';\n");
    const runs = Array.from({ length: 4 }, () => new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', RUN], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(stderr))));
    }));
    expect(await Promise.all(runs)).toEqual(['together', 'together', 'together', 'together']);
    expect(fs.readdirSync(path.join(repo, 'dist')).sort()).toEqual(['tessera.js', 'tessera.js.map']);
  });

  it('without sources (a published package) runs dist/ as it is, and says so when it is missing', () => {
    const repo = makeRepo();
    expect(answer(repo)).toBe('one');
    fs.rmSync(path.join(repo, 'src'), { recursive: true });
    expect(answer(repo)).toBe('one');
    fs.rmSync(path.join(repo, 'dist'), { recursive: true });
    const r = spawnSync(process.execPath, ['-e', RUN], { cwd: repo, encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('dist/tessera.js is missing and there are no sources to build it from');
  });

  it('a source that does not compile stops the start with esbuild\'s message naming the file, and runs nothing stale', () => {
    const repo = makeRepo();
    expect(answer(repo)).toBe('one');
    writeSource(repo, 'answer.ts', "export const answer: string = 'unterminated;\n");
    const r = spawnSync(process.execPath, ['-e', RUN], { cwd: repo, encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/src\/answer\.ts:1:\d+: ERROR: Unterminated string literal/);
  });

  it('`node bin/build.js` reports whether it built', () => {
    const repo = makeRepo();
    const build = (...a: string[]) => spawnSync(process.execPath, ['bin/build.js', ...a], { cwd: repo, encoding: 'utf8' }).stdout;
    expect(build()).toMatch(/^built dist\/tessera\.js in \d+ ms/);
    expect(build()).toMatch(/^dist\/tessera\.js is up to date/);
    expect(build('--force')).toMatch(/^built /);
  });
});
