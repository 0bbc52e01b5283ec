#!/usr/bin/env node
'use strict';
// Runs the TypeScript sources through tsx's require hook (no build step needed).
require('tsx/cjs');
require('../src/cli/main.ts').main(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { process.stderr.write(`tessera: ${err && err.message ? err.message : String(err)}\n`); process.exitCode = 1; },
);
