'use strict';
// Compiles src/ into one CommonJS file, dist/tessera.js, so that `tessera` starts without a TypeScript loader
// (no tsx hook, no per-file compile) and reads one file instead of ~400 (bench/README.md, finding 6). The
// plain-JavaScript packages in BUNDLED go into the file too, with what they import; every other package
// (native ones, those loaded on first use, the project's own providers) is required from node_modules at
// run time, as before.
//
// The build is esbuild's (installed with tsx), takes ~0.5 s and runs on demand: bin/tessera.js calls
// ensureBuilt() at every start (~3 ms), which rebuilds, in a child process, whenever an input changed since
// the last build: a file under src/, a bundled package file, tsconfig.json, this file, or the installed
// packages (package-lock.json, node_modules/.package-lock.json). The output's first line lists every input
// with its size and mtime as built, so stale code never runs. `npm install` builds once (`prepare`).
//   node bin/build.js          build if stale, saying what it did
//   node bin/build.js --force  build even when fresh
// Writes are atomic (a temporary file, then rename): concurrent starts may each build, but never read a
// half-written file. Without src/ (a published package), dist/ is used as it is.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SRC = path.join(ROOT, 'src');
const ENTRY = path.join(SRC, 'cli/main.ts');
const OUT = path.join(ROOT, 'dist/tessera.js');
const TAG = '// tessera-build ';

/**
 * Imported by src/ and bundled (with their own imports): plain JavaScript. jose is required on first use
 * (src/auth/jwt.ts) and evaluated only then; bundled because it is ES modules only, which `require` loads
 * from node_modules on node >= 20.19 alone.
 */
const BUNDLED = new Set(['fastify', 'pino', 'qs', 'lodash', 'bcryptjs', '@fastify/multipart', 'jose']);
/** never bundled even when a bundled package imports them: fastify's schema compilers load on first use (src/server/schema-compilers.ts) */
const NEVER_BUNDLED = new Set(['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler']);
/** files whose change means a rebuild besides the inputs esbuild reports */
const ALWAYS = ['tsconfig.json', 'bin/build.js', 'package-lock.json', 'node_modules/.package-lock.json'];

const packageOf = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

/** `path<TAB>size<TAB>mtime` of a file relative to ROOT (`-` when missing) */
function stamp(rel) {
  const st = fs.statSync(`${ROOT}/${rel}`, { throwIfNoEntry: false });
  return st ? `${rel}\t${st.size}\t${st.mtimeMs}` : `${rel}\t-`;
}

/** stamps of every file under src/ (so new and removed sources count) and of ALWAYS */
function ownStamps(out = []) {
  const walk = (dir, rel) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(`${dir}/${e.name}`, `${rel}/${e.name}`);
      else out.push(stamp(`${rel}/${e.name}`));
    }
  };
  walk(SRC, 'src');
  for (const rel of ALWAYS) out.push(stamp(rel));
  return out;
}

const isOwn = (rel) => rel.startsWith('src/') || ALWAYS.includes(rel);

/** the stamps the current output was built from (its first line), or null */
function builtStamps() {
  let fd;
  try {
    fd = fs.openSync(OUT, 'r');
    const chunks = [];
    const buf = Buffer.alloc(64 * 1024);
    for (let pos = 0; ; ) {
      const n = fs.readSync(fd, buf, 0, buf.length, pos);
      const nl = buf.subarray(0, n).indexOf(10);
      chunks.push(Buffer.from(buf.subarray(0, nl >= 0 ? nl : n)));
      if (nl >= 0 || n === 0) break;
      pos += n;
    }
    const line = Buffer.concat(chunks).toString('utf8');
    return line.startsWith(TAG) ? JSON.parse(line.slice(TAG.length)) : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** true when every input of the current output is exactly as it was built from (~3 ms) */
function isFresh() {
  const built = builtStamps();
  if (!Array.isArray(built)) return false;
  const now = new Set(ownStamps());
  for (const s of built) {
    const rel = s.slice(0, s.indexOf('\t'));
    if (!isOwn(rel)) now.add(stamp(rel));
  }
  return now.size === built.length && built.every((s) => now.has(s));
}

function loadEsbuild() {
  // esbuild comes with tsx; resolve it from there too in case npm did not hoist it
  const paths = [ROOT];
  try {
    paths.push(path.dirname(require.resolve('tsx/package.json', { paths: [ROOT] })));
  } catch {
    // tsx missing: esbuild may still be installed on its own
  }
  try {
    return require(require.resolve('esbuild', { paths }));
  } catch (err) {
    throw new Error(`cannot build ${path.relative(ROOT, OUT)}: esbuild is not installed (run npm install): ${err.message}`);
  }
}

/**
 * Bare imports of src/ outside BUNDLED, and NEVER_BUNDLED from anywhere, stay `require`s. A bundled
 * package imported by src/ resolves as `require` resolves it (its package.json "require" condition): the
 * file node loaded before there was a build, not the ESM build of a dual package.
 */
const externals = {
  name: 'tessera-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      const pkg = packageOf(args.path);
      if (NEVER_BUNDLED.has(pkg)) return { path: args.path, external: true };
      if (args.importer.split(path.sep).includes('node_modules') || args.pluginData === 'as-require') return undefined;
      if (!BUNDLED.has(pkg)) return { path: args.path, external: true };
      const r = await b.resolve(args.path, { kind: 'require-call', resolveDir: args.resolveDir, importer: args.importer, pluginData: 'as-require' });
      return r.errors.length ? { errors: r.errors } : { path: r.path };
    });
  },
};

/**
 * Node built-ins fastify requires when it loads but uses only for servers Tessera never starts (https and
 * http2): in the bundle they are stand-ins that load the module on first use. ~6 ms less to the first answer.
 */
const lazyBuiltins = {
  name: 'tessera-lazy-builtins',
  setup(b) {
    const fastifyDir = `${path.sep}node_modules${path.sep}fastify${path.sep}`;
    b.onResolve({ filter: /^node:(https|http2)$/ }, (args) => (args.importer.includes(fastifyDir) ? { path: args.path, namespace: 'lazy-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let m;\nmodule.exports = new Proxy({}, { get: (_, key) => (m ??= require(${JSON.stringify(args.path)}))[key] });\n`,
      loader: 'js',
    }));
  },
};

let tmpSeq = 0;
function writeAtomically(file, contents) {
  const tmp = `${file}.${process.pid}.${Date.now()}.${tmpSeq++}.tmp`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
}

/** Builds dist/tessera.js (and its source map) from src/; resolves with the time it took in ms. */
async function build() {
  const t0 = Date.now();
  const esbuild = loadEsbuild();
  let result;
  let own;
  // a source saved while esbuild reads them: build again, so the stamps never vouch for older code
  for (let before = ''; before !== (own = ownStamps()).join('\n'); ) {
    before = own.join('\n');
    result = await compile(esbuild);
  }
  const packageInputs = Object.keys(result.metafile.inputs)
    .filter((f) => !f.startsWith('lazy-builtin:')) // stand-ins written by lazyBuiltins, not files
    .map((f) => path.relative(ROOT, path.resolve(ROOT, f)).split(path.sep).join('/'))
    .filter((rel) => !isOwn(rel));
  // one header line; the source map gets an empty line in front to match
  const header = `${TAG}${JSON.stringify([...own, ...packageInputs.map(stamp)])}\n`;
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  const map = result.outputFiles.find((f) => f.path.endsWith('.map'));
  const mapJson = JSON.parse(map.text);
  mapJson.mappings = `;${mapJson.mappings}`;
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  // the map first: a reader that sees the new code finds its map
  writeAtomically(map.path, JSON.stringify(mapJson));
  writeAtomically(js.path, header + js.text);
  return Date.now() - t0;
}

function compile(esbuild) {
  return esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outfile: OUT,
    bundle: true,
    plugins: [lazyBuiltins, externals],
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
}

/**
 * The compiled entry point, rebuilt first if missing or older than any input. The build runs in a child
 * process: esbuild's module would otherwise stay in the server's memory for its lifetime.
 */
function ensureBuilt() {
  if (!fs.existsSync(SRC)) {
    if (!fs.existsSync(OUT)) throw new Error(`${OUT} is missing and there are no sources to build it from`);
    return OUT;
  }
  if (!isFresh()) {
    const r = require('node:child_process').spawnSync(process.execPath, [__filename], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) throw new Error((r.stderr || r.error?.message || `${__filename} failed`).trim().replace(/^tessera build: /, ''));
  }
  return OUT;
}

module.exports = { ensureBuilt, build, isFresh, OUT };

if (require.main === module) {
  (async () => {
    if (!process.argv.includes('--force') && isFresh()) {
      process.stdout.write(`${path.relative(process.cwd(), OUT)} is up to date\n`);
    } else {
      const ms = await build();
      process.stdout.write(`built ${path.relative(process.cwd(), OUT)} in ${ms} ms\n`);
    }
  })().catch((err) => {
    process.stderr.write(`tessera build: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
