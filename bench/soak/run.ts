// `npm run soak`: the soak (soak.ts) from the command line; the page goes to bench/results/soak/<date>.md.
// Options and criteria: bench/soak/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_DIR } from '../lib/fixture';
import { parseSize } from '../lib/size';
import { runSoak, soakMarkdown, type SoakOptions } from './soak';

export function parseSoakOptions(argv: string[], log: (m: string) => void = (m) => console.log(m)): SoakOptions & { out: string } {
  const has = (n: string) => argv.includes(`--${n}`);
  const opt = (n: string) => {
    const i = argv.indexOf(`--${n}`);
    return i >= 0 && i + 1 < argv.length && !argv[i + 1].startsWith('--') ? argv[i + 1] : undefined;
  };
  const num = (n: string, d: number) => {
    const v = opt(n) === undefined ? d : Number(opt(n));
    if (!(v >= 0)) throw new Error(`--${n} takes a number`);
    return v;
  };
  return {
    articles: parseSize(opt('size') ?? '10k'),
    duration: num('duration', 600),
    window: num('window', 60),
    connections: num('connections', 10),
    p99Factor: num('p99-factor', 3),
    rssTolerance: num('rss-tolerance', 0.1),
    heapTolerance: { ratio: num('heap-tolerance', 0.1), bytes: num('heap-slack-mb', 4) * 1024 * 1024 },
    heapSnapshots: !has('no-heap-snapshots'),
    postgres: opt('postgres'),
    pgPrefix: opt('pg-prefix') ?? 'soak',
    keep: has('keep'),
    out: path.resolve(opt('out') ?? path.join(BENCH_DIR, 'results/soak')),
    log,
  };
}

async function main(argv: string[]): Promise<void> {
  const o = parseSoakOptions(argv);
  const r = await runSoak(o);
  const machine = `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, node ${process.version}; load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}.`;
  const page = soakMarkdown(r, `npm run soak${argv.length ? ` -- ${argv.join(' ')}` : ''}`, machine);
  fs.mkdirSync(o.out, { recursive: true });
  const file = path.join(o.out, `${r.startedAt.slice(0, 10)}${r.database === 'postgres' ? '-postgres' : ''}.md`);
  fs.writeFileSync(file, page);
  console.log(`\n${page}\nwritten to ${path.relative(process.cwd(), file)}`);
  if (!r.pass) process.exitCode = 1;
}

if (require.main === module) main(process.argv.slice(2)).catch((err) => { console.error(err); process.exitCode = 1; });
