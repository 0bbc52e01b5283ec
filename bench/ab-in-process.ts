// In-process A/B of two checkouts on the same dataset: each read case timed with fastify inject, the checkouts
// interleaved round by round so machine drift cancels out (median µs per request of each).
//   npx tsx bench/ab-in-process.ts --a <checkout> --b <checkout> [--cases list,populate] [--rounds 15] [--articles 10000] [--response-cache off|on]
// The response cache is off unless `--response-cache on`: with it, every timed request would be a hit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CASES, type CaseContext } from './cases';
import { datasetFile } from './generate';
import { DEFAULT_SHAPE } from './lib/content';
import { makeProjectCopy } from './lib/fixture';
import { openTesseraInProcess, timeInProcess } from './lib/statements';

const arg = (name: string, fallback?: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0 && process.argv[i + 1]) return process.argv[i + 1];
  if (fallback === undefined) throw new Error(`--${name} is required`);
  return fallback;
};

async function main(): Promise<void> {
  const a = path.resolve(arg('a'));
  const b = path.resolve(arg('b'));
  const articles = Number(arg('articles', '10000'));
  const rounds = Number(arg('rounds', '15'));
  const ids = arg('cases', 'list,populate,findone,deep-filter').split(',');
  const dataset = datasetFile(articles);
  if (!fs.existsSync(dataset)) throw new Error(`no dataset ${dataset}: run npm run bench -- --articles ${articles} once`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-ab-'));
  const ctx: CaseContext = { shape: { ...DEFAULT_SHAPE, articles }, runId: 'ab' };
  const cache = arg('response-cache', 'off') === 'on';
  const A = await openTesseraInProcess(a, makeProjectCopy(path.join(dir, 'a'), dataset), cache);
  const B = await openTesseraInProcess(b, makeProjectCopy(path.join(dir, 'b'), dataset), cache);
  try {
    for (const c of CASES.filter((x) => ids.includes(x.id) && x.kind === 'read')) {
      const requests = c.inject(ctx, 20);
      const us = await timeInProcess([{ name: 'a', target: A, requests }, { name: 'b', target: B, requests }], rounds, 40);
      const [ua, ub] = [us.get('a')!, us.get('b')!];
      console.log(`${c.id.padEnd(14)} a ${ua.toFixed(0).padStart(6)} µs   b ${ub.toFixed(0).padStart(6)} µs   b/a ${(ub / ua).toFixed(3)}`);
    }
  } finally {
    await A.close();
    await B.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
