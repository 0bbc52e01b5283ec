#!/usr/bin/env node
'use strict';
// Runs the compiled sources: dist/tessera.js, built from src/ first when missing or stale (./build.js),
// loaded with V8's code cache and, for `tessera start`, the young generation held until the server
// listens (./load.js).
const STARTUP_COMPLETE = Symbol.for('tessera.startupComplete'); // src/cli/startup-complete.ts
let bundle;
try {
  bundle = require('./load').loadCompiled(require('./build').ensureBuilt(), { holdYoungGeneration: process.argv[2] === 'start' });
} catch (err) {
  process.stderr.write(`tessera: ${err && err.message ? err.message : String(err)}\n`);
  process.exit(1);
}
globalThis[STARTUP_COMPLETE] = bundle.startupComplete;
bundle.exports.main(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { process.stderr.write(`tessera: ${err && err.message ? err.message : String(err)}\n`); process.exitCode = 1; },
);
