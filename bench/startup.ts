// Cold start and idle RSS of `tessera start` on the fixture app, several tries, checkouts alternated:
//   npx tsx bench/startup.ts [--tries 7] [--tessera DIR[,DIR...]] [--db FILE] [--idle-ms 1000]
// Uses the runner's own process machinery (lib/servers.ts: spawn -> first 200 on GET /api/articles,
// NODE_ENV=production, RSS from /proc), so its figures are the runner's "cold start" and "idle RSS",
// with the medians of more tries. Pass two checkouts to compare a change (before/after) in one run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURE_DATA, makeProjectCopy, REPO } from './lib/fixture';
import { startTessera } from './lib/servers';

const argv = process.argv.slice(2);
const opt = (n: string) => {
  const i = argv.indexOf(`--${n}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const tries = Number(opt('tries') ?? 7);
const idleMs = Number(opt('idle-ms') ?? 1000);
const repos = (opt('tessera') ?? REPO).split(',').map((d) => path.resolve(d));
const db = path.resolve(opt('db') ?? path.join(FIXTURE_DATA, 'data.db'));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-startup-'));
  const results = repos.map((repo) => ({ repo, cold: [] as number[], rss: [] as number[] }));
  try {
    for (let i = 0; i < tries; i++) {
      const order = i % 2 ? [...results].reverse() : results;
      for (const r of order) {
        // a private copy per try: the first start of a database is not the one being measured
        const project = makeProjectCopy(path.join(dir, 'project'), db);
        const s = await startTessera({ repo: r.repo, projectDir: project, logFile: path.join(dir, 'tessera.log') });
        await new Promise((res) => setTimeout(res, idleMs));
        r.cold.push(s.coldStartMs);
        r.rss.push(s.rssMb());
        await s.stop();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${tries} tries each; database ${db}`);
  for (const r of results) {
    console.log(`${r.repo}\n  cold start median ${Math.round(median(r.cold))} ms  (${r.cold.map(Math.round).join(' ')})`);
    console.log(`  idle RSS   median ${median(r.rss).toFixed(1)} MB (${r.rss.map((x) => x.toFixed(1)).join(' ')})`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
