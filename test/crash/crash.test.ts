// Crash safety (issue 18, part 3): rounds of concurrent writes against `tessera start`, killed with SIGKILL at a
// seeded moment, then checked (crash-round.ts). CI runs CRASH_ROUNDS x CRASH_WRITES = 3 x 300 per dialect;
// `npm run crash-test` (run-crash-test.mjs) runs 20 x 1,000 on both. CRASH_SEED replays a run, CRASH_ROUND=n
// one round of it; CRASH_FIGURES names a file each round's figures are appended to (one JSON line each).
import fs from 'node:fs';
import { expect, it } from 'vitest';
import { onPostgres } from '../helpers/test-database';
import { crashRound } from './crash-round';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const WRITES = Number(process.env.CRASH_WRITES ?? 300);
const SEED = Number(process.env.CRASH_SEED ?? 1818);
/** CRASH_ROUND=n: that round alone (a failure's replay: the same seed and round give the same writes and kill point) */
const ONLY = process.env.CRASH_ROUND ? Number(process.env.CRASH_ROUND) : undefined;
/** a round of 1,000 writes takes ~20 s on two busy cores; twice that, plus the starts, is its budget */
const ROUND_BUDGET_MS = 30_000 + WRITES * 60;

it(`every acknowledged write survives SIGKILL, whole (${ONLY ? `round ${ONLY}` : `${ROUNDS} rounds`} x ${WRITES} writes)`, { timeout: ROUNDS * ROUND_BUDGET_MS }, async () => {
  const failures: string[] = [];
  for (let round = ONLY ?? 1; round <= (ONLY ?? ROUNDS); round++) {
    const figures = await crashRound({ seed: SEED * 1000 + round, round, writes: WRITES });
    const line = { dialect: onPostgres ? 'postgres' : 'sqlite', ...figures, failures: figures.failures.length };
    console.log(`crash round ${JSON.stringify(line)}`);
    if (process.env.CRASH_FIGURES) fs.appendFileSync(process.env.CRASH_FIGURES, `${JSON.stringify({ ...line, failureList: figures.failures })}\n`);
    failures.push(...figures.failures.map((f) => `round ${round} (seed ${figures.seed}): ${f}`));
  }
  expect(failures).toEqual([]);
});
