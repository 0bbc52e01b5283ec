// bin/load.js, how bin/tessera.js evaluates the compiled bundle: as the CommonJS module `require` would
// make of it, with V8's code cache of an earlier start (written once the server listens, tied to one
// bundle file, ignored when it does not fit), and for `tessera start` the young generation held until
// the server listens. Each case runs in its own node process on a throwaway module.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const LOAD = path.resolve(__dirname, '../../bin/load.js');
const temps: string[] = [];
afterAll(() => {
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true });
});

/** a folder with `bundle.js` (the given source) and a node_modules link so it can require packages */
function makeBundle(source: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-load-'));
  temps.push(dir);
  fs.writeFileSync(path.join(dir, 'bundle.js'), source);
  fs.symlinkSync(path.resolve(__dirname, '../../node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** runs `script` in a node process where `load(opts)` loads dir/bundle.js; returns what it printed */
function run(dir: string, script: string, args: string[] = []): string {
  const prelude = `const { loadCompiled } = require(${JSON.stringify(LOAD)}); const load = (o) => loadCompiled(${JSON.stringify(path.join(dir, 'bundle.js'))}, o);`;
  const r = spawnSync(process.execPath, [...args, '-e', `${prelude}\n${script}`], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

describe('bin/load.js', () => {
  it('evaluates the bundle as a CommonJS module: exports, require from its folder, __filename, __dirname, require.cache', () => {
    const dir = makeBundle([
      "const qs = require('qs');",
      "exports.answer = () => JSON.stringify({ q: qs.parse('a=1'), file: __filename, dir: __dirname, self: module.filename, cached: require.cache[__filename] === module, resolved: require.resolve('qs').includes('node_modules') });",
    ].join('\n'));
    const out = JSON.parse(run(dir, 'console.log(load().exports.answer());'));
    expect(out).toEqual({ q: { a: '1' }, file: path.join(dir, 'bundle.js'), dir, self: path.join(dir, 'bundle.js'), cached: true, resolved: true });
  });

  it('writes a code cache once start-up completes, uses it next time, and never pairs it with another bundle', async () => {
    const dir = makeBundle('exports.f = () => 1 + 1;\nexports.g = () => exports.f() * 2;\n');
    const cache = path.join(dir, 'bundle.js.cache');
    const complete = 'const b = load(); b.exports.g(); b.startupComplete();';
    run(dir, complete);
    expect(fs.existsSync(cache)).toBe(true);
    const written = fs.statSync(cache).mtimeMs;
    run(dir, complete);
    expect(fs.statSync(cache).mtimeMs).toBe(written); // accepted: not written again
    // a rebuilt bundle of the same length: the old cache must not be used for it
    await new Promise((r) => setTimeout(r, 20));
    fs.writeFileSync(path.join(dir, 'bundle.js'), 'exports.f = () => 2 + 2;\nexports.g = () => exports.f() * 3;\n');
    expect(run(dir, `${complete} console.log(b.exports.g());`)).toBe('12');
    expect(fs.statSync(cache).mtimeMs).toBeGreaterThan(written);
  });

  it('a damaged cache is ignored and replaced', () => {
    const dir = makeBundle('exports.v = 42;\n');
    const complete = 'const b = load(); console.log(b.exports.v); b.startupComplete();';
    run(dir, complete);
    const cache = path.join(dir, 'bundle.js.cache');
    const text = fs.readFileSync(cache);
    const nl = text.indexOf(10);
    const damaged = Buffer.concat([text.subarray(0, nl + 1), Buffer.alloc(text.length - nl - 1, 7)]);
    fs.writeFileSync(cache, damaged);
    expect(run(dir, complete)).toBe('42');
    expect(fs.readFileSync(cache).equals(damaged)).toBe(false);
    const replaced = fs.statSync(cache).mtimeMs;
    expect(run(dir, complete)).toBe('42');
    expect(fs.statSync(cache).mtimeMs).toBe(replaced); // the replacement is accepted
  });

  it('with --enable-source-maps, requires the bundle as node does (stack traces through its source map), without a cache', () => {
    const dir = makeBundle('exports.where = () => new Error("here").stack.split("\\n")[1].trim();\n');
    const out = run(dir, 'const b = load(); console.log(b.exports.where()); b.startupComplete();', ['--enable-source-maps']);
    expect(out).toContain(path.join(dir, 'bundle.js'));
    expect(fs.existsSync(path.join(dir, 'bundle.js.cache'))).toBe(false);
  });

  it('holds the young generation at its initial size until start-up completes, then lets it grow', () => {
    // the bundle keeps ~40 MB of small objects alive, as start-up does with modules and the model
    const dir = makeBundle('globalThis.kept = []; for (let i = 0; i < 400000; i++) globalThis.kept.push({ i, s: "x" + i });\n');
    const newSpace = "const v8 = require('node:v8'); const ns = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;";
    const grow = 'for (let i = 0; i < 400000; i++) globalThis.kept.push({ i, s: "y" + i });';
    const held = run(dir, `${newSpace} const b = load({ holdYoungGeneration: true }); const before = ns(); b.startupComplete(); ${grow} console.log(before, ns());`);
    const [duringStart, afterwards] = held.split(' ').map(Number);
    expect(duringStart).toBeLessThanOrEqual(2);
    expect(afterwards).toBeGreaterThan(duringStart);
    const free = Number(run(dir, `${newSpace} load(); console.log(ns());`));
    expect(free).toBeGreaterThan(2);
    // tuned by the user's own node flags: left alone
    const tuned = Number(run(dir, `${newSpace} load({ holdYoungGeneration: true }); console.log(ns());`, ['--max-semi-space-size=32']));
    expect(tuned).toBeGreaterThan(2);
  });
});
