#!/usr/bin/env node
// `npm run crash-test`: the crash-safety test (crash.test.ts) at full size, 20 rounds of 1,000 writes, on SQLite
// and on PostgreSQL (the test suite's server: TESSERA_TEST_PG_URL, else a throwaway one), then its figures.
//   node test/crash/run-crash-test.mjs [--rounds N] [--writes N] [--seed N] [--dialect sqlite|postgres|both]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    writes: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1818' },
    dialect: { type: 'string', default: 'both' },
  },
});
const dialects = values.dialect === 'both' ? ['sqlite', 'postgres'] : [values.dialect];

const figuresDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-crash-figures-'));
const figures = path.join(figuresDir, 'rounds.jsonl');
let status;
try {
  const started = Date.now();
  // one dialect after the other: the rounds' timings are not each other's load
  const vitest = spawnSync(process.execPath, [
    path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--no-file-parallelism',
    ...dialects.flatMap((d) => ['--project', d]), 'test/crash/crash.test.ts',
  ], {
    cwd: REPO, stdio: 'inherit',
    env: { ...process.env, CRASH_ROUNDS: values.rounds, CRASH_WRITES: values.writes, CRASH_SEED: values.seed, CRASH_FIGURES: figures },
  });
  status = vitest.status ?? 1;
  const rounds = fs.existsSync(figures) ? fs.readFileSync(figures, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  console.log(`\ncrash-test: seed ${values.seed}, ${values.rounds} rounds x ${values.writes} writes per dialect, ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
  for (const dialect of dialects) {
    const mine = rounds.filter((r) => r.dialect === dialect);
    const sum = (k) => mine.reduce((n, r) => n + r[k], 0);
    console.log([
      `${dialect}: ${mine.length} rounds, ${mine.length} kills (SIGKILL)`,
      `${sum('sent')} writes sent, ${sum('acknowledged')} acknowledged, ${sum('verified')} of them verified after the restart`,
      `${sum('inFlight')} in flight at the kill (${sum('inFlightApplied')} found applied)`,
      `${sum('refused')} writes refused before the kill`,
      `${sum('unreferencedFiles')} upload files on disk without a row`,
      dialect === 'postgres' ? `amcheck ${mine.every((r) => r.amcheck) ? 'ran' : 'not available on the server'}` : 'integrity_check and foreign_key_check ran',
      `${(sum('ms') / 1000).toFixed(0)} s`,
      `${sum('failures')} failures`,
    ].join('; '));
    for (const r of mine) for (const f of r.failureList) console.log(`  round ${r.round} (seed ${r.seed}): ${f}`);
  }
} finally {
  fs.rmSync(figuresDir, { recursive: true, force: true });
}
process.exit(status);
