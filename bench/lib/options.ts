// The runner's options (`npm run bench -- --help` prints bench/README.md's "Running" section).
import os from 'node:os';
import path from 'node:path';
import { CASE_GROUPS, CASES } from '../cases';
import type { Variant } from '../floor/queries';
import { BENCH_DIR, CACHE_DIR, REPO } from './fixture';
import { parseSize } from './size';

/** Tessera with the response cache on, off, or both side by side (two processes: `tessera` and `tessera-nocache`) */
export type ResponseCacheMode = 'on' | 'off' | 'both';

export interface RunOptions {
  /** the dataset's size (`--size 10k|100k|1m`, or `--articles N`) */
  articles: number;
  duration: number;
  warmup: number;
  passes: number;
  connections: number;
  /** autocannon's limit for one answer, seconds: a slower answer counts as a timeout, not as an answer */
  timeout: number;
  cases: string[];
  floors: Variant[];
  vsStrapi: boolean;
  strapiDir: string;
  strapiPort: number;
  /** extra datasets for cold start, besides the fixture app and the main dataset */
  coldSizes: number[];
  coldTries: number;
  tessera: string;
  out: string;
  /** generated datasets are kept here */
  cacheDir: string;
  /** write <out>/latest.* too */
  latest: boolean;
  keep: boolean;
  /** profile one case: run Tessera alone with --cpu-prof */
  profile?: string;
  /** show the statements and query plans of one request of a case */
  explain?: string;
  /** an admin URL of a PostgreSQL server (a role that may create databases): run on PostgreSQL (bench/lib/postgres.ts) */
  postgres?: string;
  /** what the names of the PostgreSQL databases of a run start with */
  pgPrefix: string;
  /** `tessera start --workers N` */
  workers: number;
  responseCache: ResponseCacheMode;
  /** run the bare node:http server (floor/bare-http.ts) on the read cases */
  bare: boolean;
  /** measure a case's servers at the same time (--smoke only: checks the machinery, and autocannon takes a second at least) */
  together: boolean;
  command: string;
  log: (m: string) => void;
}

/** the dataset's size unless --size says otherwise (results of other sizes are named by their size) */
export const DEFAULT_ARTICLES = 10_000;

/** --smoke: checks the machinery in seconds (CI); its figures mean nothing */
const SMOKE: Partial<RunOptions> = { articles: 200, duration: 0.3, warmup: 0, passes: 1, coldSizes: [], coldTries: 1, latest: false, together: true };

export function parseOptions(argv: string[], log: (m: string) => void = (m) => console.log(m)): RunOptions {
  const has = (n: string) => argv.includes(`--${n}`);
  const opt = (n: string) => {
    const i = argv.indexOf(`--${n}`);
    return i >= 0 && i + 1 < argv.length && !argv[i + 1].startsWith('--') ? argv[i + 1] : undefined;
  };
  const num = (n: string, d: number) => (opt(n) !== undefined ? Number(opt(n)) : d);
  const smoke = has('smoke') ? SMOKE : {};
  const size = opt('size') ?? opt('articles');
  const o: RunOptions = {
    articles: size !== undefined ? parseSize(size) : smoke.articles ?? DEFAULT_ARTICLES,
    duration: num('duration', smoke.duration ?? 10),
    warmup: num('warmup', smoke.warmup ?? 2),
    passes: num('passes', smoke.passes ?? 2),
    connections: num('connections', 10),
    // real Strapi takes ~2 s per populate=* list at 1M articles: with 10 connections, answers wait ~20 s
    timeout: num('timeout', size !== undefined && parseSize(size) >= 500_000 ? 60 : 10),
    // extra cases run when named, alone or through a group (`scale`, `all`: cases.ts CASE_GROUPS)
    cases: [...new Set((opt('cases') ?? 'default').split(',').flatMap((c) => CASE_GROUPS[c] ?? [c]))],
    // the pg floor on PostgreSQL, the SQLite ones on SQLite; `none`: no floor
    floors: (opt('floors') === 'none' ? [] : opt('floors')?.split(',') ?? (opt('postgres') ? ['pg'] : ['sql', 'js'])) as Variant[],
    vsStrapi: has('vs-strapi'),
    strapiDir: path.resolve(opt('strapi-dir') ?? process.env.STRAPI4_DIR ?? path.join(os.homedir(), 'strapi4-ref')),
    strapiPort: num('strapi-port', Number(process.env.STRAPI4_PORT ?? 1337)),
    coldSizes: opt('cold-sizes') === 'none' ? [] : opt('cold-sizes')?.split(',').map(Number) ?? smoke.coldSizes ?? [1000, 100_000],
    coldTries: num('cold-tries', smoke.coldTries ?? 2),
    tessera: path.resolve(opt('tessera') ?? REPO),
    // a smoke run never overwrites the day's results
    out: path.resolve(opt('out') ?? (has('smoke') ? path.join(os.tmpdir(), 'tessera-bench-smoke') : path.join(BENCH_DIR, 'results'))),
    cacheDir: path.resolve(opt('cache') ?? CACHE_DIR),
    latest: has('no-latest') ? false : smoke.latest ?? true,
    keep: has('keep'),
    profile: opt('profile'),
    explain: opt('explain'),
    postgres: opt('postgres'),
    pgPrefix: opt('pg-prefix') ?? 'bench',
    workers: num('workers', 1),
    responseCache: (opt('response-cache') ?? 'both') as ResponseCacheMode,
    bare: !has('no-bare'),
    together: smoke.together ?? false,
    command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
    log,
  };
  for (const c of o.cases) if (!CASES.some((k) => k.id === c)) throw new Error(`unknown case "${c}" (cases: ${CASES.map((k) => k.id).join(', ')}; groups: ${Object.keys(CASE_GROUPS).join(', ')})`);
  if (!(o.timeout > 0)) throw new Error('--timeout takes a number of seconds');
  const dialectFloors = o.postgres ? ['pg'] : ['sql', 'js'];
  for (const f of o.floors) if (!dialectFloors.includes(f)) throw new Error(`floor "${f}" does not run on ${o.postgres ? 'PostgreSQL' : 'SQLite'} (${dialectFloors.join(', ')})`);
  if (!Number.isInteger(o.workers) || o.workers < 1) throw new Error('--workers takes a positive number');
  if (!['on', 'off', 'both'].includes(o.responseCache)) throw new Error('--response-cache takes on, off or both');
  if (o.postgres && (o.profile || o.explain)) throw new Error('--profile and --explain run on SQLite only');
  return o;
}
