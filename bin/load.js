'use strict';
// Loads the compiled bundle (dist/tessera.js) the way a start is fastest and leanest (bench/README.md,
// finding 6):
//
// - V8 code cache. The bundle is compiled with the cache an earlier start left in dist/tessera.js.cache
//   (bytecode of every function start-up and the first requests ran) instead of parsing ~2 MB of
//   JavaScript and compiling each function when it is first called: ~50 ms less to the first answer.
//   The cache belongs to one bundle file (size, mtime, inode) and one node version; anything else, or a
//   cache V8 rejects, is ignored and a new one written once the server has answered its first requests.
//   Skipped with --enable-source-maps (stack traces then come through node's own loader and the map).
// - The young generation held during `tessera start`. Start-up allocates ~25 MB of mostly long-lived
//   objects (modules, the model, routes). With V8's default growth, surviving them doubles the young
//   generation to 16 MB, whose pages then stay resident while the server idles, until V8's memory
//   reducer runs if it ever does: ~5 MB of idle RSS. So the young generation keeps its initial size until
//   the server listens (start-up objects go straight to the old space they end up in anyway; ~10 ms of
//   extra scavenges); then V8's default growth applies, and under load it grows as it always did.
//   Skipped when node flags tune the young generation.
//
// V8 checks a code cache against its flags too, so the bundle is compiled before the young generation is
// held and the cache written after it is released: both with the flags a later start compiles with.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

/** set while the young generation is held; `startupComplete()` releases it */
const GROWTH_HELD = '--semi-space-growth-factor=1';
/** V8's default `--semi-space-growth-factor` (node 20 / V8 11.3) */
const GROWTH_DEFAULT = '--semi-space-growth-factor=2';

const userTunesYoungGeneration = () => /semi[-_]space/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`);

/** `size:mtime:inode node-version arch`: what a code cache must have been made for */
const cacheKey = (st) => `${st.size}:${st.mtimeMs}:${st.ino} ${process.version} ${process.arch}`;

function readCache(file, key) {
  try {
    const buf = fs.readFileSync(file);
    const nl = buf.indexOf(10);
    return nl > 0 && buf.toString('utf8', 0, nl) === key ? buf.subarray(nl + 1) : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(file, key, data) {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${key}\n`), data]));
    fs.renameSync(tmp, file);
  } catch {
    // a read-only install: start without a cache next time too
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Evaluates `file` as a CommonJS module (as `require(file)` would) and returns its exports with
 * `startupComplete()`, which the server calls once it listens (src/cli/startup-complete.ts).
 */
function loadCompiled(file, { holdYoungGeneration = false } = {}) {
  const hold = holdYoungGeneration && !userTunesYoungGeneration();
  if (process.sourceMapsEnabled) {
    if (hold) v8.setFlagsFromString(GROWTH_HELD);
    return { exports: require(file), startupComplete: () => hold && v8.setFlagsFromString(GROWTH_DEFAULT) };
  }
  // source and key from one descriptor: a rebuild in between cannot pair one bundle with another's cache
  const fd = fs.openSync(file, 'r');
  let source;
  let key;
  try {
    key = cacheKey(fs.fstatSync(fd));
    source = fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
  const cacheFile = `${file}.cache`;
  const cachedData = readCache(cacheFile, key);
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const writeNewCache = cachedData === undefined || script.cachedDataRejected === true;

  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  Module._cache[file] = mod;
  if (hold) v8.setFlagsFromString(GROWTH_HELD);
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;

  let complete = false;
  let written = !writeNewCache;
  const write = () => {
    if (written) return;
    written = true;
    writeCache(cacheFile, key, script.createCachedData());
  };
  return {
    exports: mod.exports,
    startupComplete() {
      if (complete) return;
      complete = true;
      if (hold) v8.setFlagsFromString(GROWTH_DEFAULT);
      // written a little later, so that it holds what the first requests compiled too; at the latest on
      // exit (a server stopped right after its first answer, as the benchmark's cold starts do)
      if (!written) {
        setTimeout(write, 2000).unref();
        process.once('exit', write);
      }
    },
  };
}

module.exports = { loadCompiled };
