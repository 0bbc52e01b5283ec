// The soak (issue 18 part 5): Tessera as a separate process (the `tessera` CLI, NODE_ENV=production, the
// response cache as shipped) on a copy of the benchmark dataset, held at saturation by the mix (mix.ts) for
// `duration` seconds, measured in windows (a minute in the documented run). Per window: req/s, p50/p99,
// errors, the server's RSS and CPU, the database's size; V8 heap snapshots after the warm-up window and at the
// end. The verdict (criteria()) is what `npm run soak` and test/soak/ check.
import fs from 'node:fs';
import path from 'node:path';
import { ensureDataset } from '../generate';
import { DEFAULT_SHAPE } from '../lib/content';
import { fixtureToken } from '../lib/fixture';
import { runLoad, type LoadResult } from '../lib/load';
import { clonesOf, ensurePostgresDataset, pointProjectAt, type Clones } from '../lib/postgres';
import { startTessera, waitIdle, type RunningServer } from '../lib/servers';
import { makeWorkspace, scratch } from '../lib/workspace';
import { compareHeapSummaries, heapSnapshotNodeOptions, summarizeHeapSnapshot, takeHeapSnapshot, type HeapSummary } from './heap-snapshot';
import { soakMix, type Mix } from './mix';

export interface SoakOptions {
  /** generated articles in the dataset (bench/generate.ts) */
  articles: number;
  /** seconds under load, warm-up window included */
  duration: number;
  /** seconds per measured window */
  window: number;
  connections: number;
  /** p99 of every window within this factor of the first window's */
  p99Factor: number;
  /** RSS of the last third of the windows within (1 + this) × the baseline (the first window after the warm-up one) */
  rssTolerance: number;
  /** live heap at the end within (1 + ratio) × the warm-up snapshot's + bytes */
  heapTolerance: { ratio: number; bytes: number };
  heapSnapshots: boolean;
  /** PostgreSQL admin URL: run on a copy of the dataset there (bench/lib/postgres.ts) */
  postgres?: string;
  pgPrefix: string;
  /** datasets (bench/.cache by default) */
  cacheDir?: string;
  keep: boolean;
  log: (m: string) => void;
}

/** a window's load figures; its errors: non2xx, failed (2xx GraphQL answers with `errors`), socketErrors, timeouts (no answer within 10 s) */
export interface SoakWindow extends Pick<LoadResult, 'rps' | 'p50' | 'p99' | 'max' | 'requests' | 'non2xx' | 'failed' | 'timeouts'> {
  index: number;
  /** seconds since the load started, at the window's end */
  atS: number;
  socketErrors: number;
  rssEndMb: number;
  rssMaxMb: number;
  /** the server's CPU over the window, % of one core */
  cpuPercent: number;
  /** SQLite: data.db + its WAL, MB */
  dbMb?: number;
  /** created entries not yet sent to be deleted at the window's end */
  pendingDeletes: number;
  /** good answers per request family */
  families: Record<string, number>;
}

export interface Criterion {
  name: string;
  bound: string;
  got: string;
  pass: boolean;
}

export interface SoakResult {
  options: Omit<SoakOptions, 'log'>;
  startedAt: string;
  database: 'sqlite' | 'postgres';
  coldStartMs: number;
  windows: SoakWindow[];
  articlesAtStart: number;
  articlesAtEnd: number;
  /** entries the mix created (answers seen) and delete requests it set up */
  created: number;
  deleteSent: number;
  /** entries of the run still there when the load stopped, deleted then (queued, or cut off by a window's end) */
  leftovers: number;
  /** rssJumpMb: the server's RSS right after the warm-up snapshot minus right before */
  heap?: { warm: HeapSummary; end: HeapSummary; warmFile: string; endFile: string; rssJumpMb?: number };
  criteria: Criterion[];
  pass: boolean;
}

const errorsOf = (w: SoakWindow) => w.non2xx + w.failed + w.socketErrors + w.timeouts;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** articles in the database, drafts included (the API token sees them) */
async function countArticles(url: string): Promise<number> {
  const res = await fetch(`${url}/api/articles?publicationState=preview&pagination[pageSize]=1&fields[0]=id`, { headers: { authorization: `Bearer ${fixtureToken()}` } });
  const body = (await res.json()) as { meta?: { pagination?: { total?: number } } };
  const total = body.meta?.pagination?.total;
  if (res.status !== 200 || typeof total !== 'number') throw new Error(`counting articles: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return total;
}

function fileMb(...files: string[]): number {
  return files.reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0) / 1024 / 1024;
}

/** starts Tessera with node options added for this one child (startTessera passes the environment on) */
async function startWithNodeOptions(extra: string | undefined, start: () => Promise<RunningServer>): Promise<RunningServer> {
  if (!extra) return start();
  const saved = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = [saved, extra].filter(Boolean).join(' ');
  try {
    return await start();
  } finally {
    if (saved === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = saved;
  }
}

/** one measured window: the load, with the server's RSS sampled every second */
async function measureWindow(server: RunningServer, mix: Mix, o: SoakOptions, index: number, t0: number, dbFiles: string[]): Promise<SoakWindow> {
  let rssMax = 0;
  const sample = () => { rssMax = Math.max(rssMax, server.rssMb() || 0); };
  const timer = setInterval(sample, 1000);
  const cpu0 = server.cpuSeconds(), w0 = performance.now();
  try {
    const r = await runLoad({ url: server.url, request: mix.request, connections: o.connections, duration: o.window, timeout: 10, failed: mix.failed });
    const seconds = (performance.now() - w0) / 1000;
    const rssEnd = server.rssMb();
    return {
      index, atS: (performance.now() - t0) / 1000,
      rps: r.rps, p50: r.p50, p99: r.p99, max: r.max, requests: r.requests,
      non2xx: r.non2xx, failed: r.failed, socketErrors: r.errors - r.timeouts, timeouts: r.timeouts,
      rssEndMb: rssEnd, rssMaxMb: Math.max(rssMax, rssEnd),
      cpuPercent: ((server.cpuSeconds() - cpu0) / seconds) * 100,
      ...(dbFiles.length ? { dbMb: fileMb(...dbFiles) } : {}),
      pendingDeletes: mix.pendingDeletes(),
      families: r.tagged ?? {},
    };
  } finally {
    clearInterval(timer);
  }
}

/** The pass/fail criteria of a soak, on its windows and heap snapshots. */
export function criteria(r: Pick<SoakResult, 'windows' | 'heap' | 'articlesAtStart' | 'articlesAtEnd'>, o: Pick<SoakOptions, 'p99Factor' | 'rssTolerance' | 'heapTolerance'>): Criterion[] {
  const w = r.windows;
  const errors = w.reduce((s, x) => s + errorsOf(x), 0);
  const first = w[0];
  const worst = [...w].sort((a, b) => b.p99 - a.p99)[0];
  const out: Criterion[] = [
    { name: 'errors (unexpected non-2xx, GraphQL errors, socket errors, timeouts)', bound: '0', got: String(errors), pass: errors === 0 },
    {
      name: 'p99 of every window vs the first window\'s', bound: `≤ ${o.p99Factor}× ${first.p99} ms = ${o.p99Factor * first.p99} ms`,
      got: `worst ${worst.p99} ms (window ${worst.index}, ${(worst.p99 / Math.max(1, first.p99)).toFixed(2)}×)`,
      pass: w.every((x) => x.p99 <= o.p99Factor * first.p99),
    },
  ];
  // window 1 warms up (JIT, caches filled, the warm-up heap snapshot after it); window 2 is the baseline
  if (w.length >= 3) {
    const base = w[1].rssMaxMb;
    const last = w.slice(-Math.max(1, Math.ceil((w.length - 1) / 3)));
    const top = Math.max(...last.map((x) => x.rssMaxMb));
    out.push({
      name: `RSS flat after warm-up: peak of windows ${last[0].index}-${last[last.length - 1].index} vs window 2's peak`,
      bound: `≤ +${Math.round(o.rssTolerance * 100)} % of ${base.toFixed(1)} MB = ${(base * (1 + o.rssTolerance)).toFixed(1)} MB`,
      got: `${top.toFixed(1)} MB (${(((top - base) / base) * 100).toFixed(1)} %)`,
      pass: top <= base * (1 + o.rssTolerance),
    });
  }
  if (r.heap) {
    const a = r.heap.warm.totalBytes, b = r.heap.end.totalBytes;
    const bound = a * (1 + o.heapTolerance.ratio) + o.heapTolerance.bytes;
    out.push({
      name: 'live heap (snapshot) at the end vs after warm-up', bound: `≤ ${mb(a)} MB × ${1 + o.heapTolerance.ratio} + ${mb(o.heapTolerance.bytes)} MB = ${mb(bound)} MB`,
      got: `${mb(b)} MB (${(((b - a) / a) * 100).toFixed(1)} %)`, pass: b <= bound,
    });
  }
  out.push({
    name: 'database back to its size (every entry created was deleted)', bound: `${r.articlesAtStart} articles`,
    got: `${r.articlesAtEnd} articles`, pass: r.articlesAtEnd === r.articlesAtStart,
  });
  return out;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const startedAt = new Date().toISOString();
  const runId = `soak${Date.now().toString(36)}`;
  const { file: dataset } = await ensureDataset(o.articles, o.log, o.cacheDir);
  const ws = makeWorkspace({ keep: o.keep }, dataset, runId);
  const snapshots = path.join(ws.dir, 'heap');
  fs.mkdirSync(snapshots);
  let clones: Clones | undefined;
  let server: RunningServer | undefined;
  try {
    if (o.postgres) {
      const template = await ensurePostgresDataset(o.postgres, o.pgPrefix, dataset, o.log);
      clones = clonesOf(o.postgres, o.pgPrefix, template, runId);
      pointProjectAt(ws.tesseraProject, await clones.clone('soak'));
    }
    const dbFiles = o.postgres ? [] : ['data.db', 'data.db-wal'].map((f) => path.join(ws.tesseraProject, '.tmp', f));
    server = await startWithNodeOptions(o.heapSnapshots ? heapSnapshotNodeOptions(snapshots) : undefined, () =>
      startTessera({ repo: path.resolve(__dirname, '../..'), projectDir: ws.tesseraProject, logFile: path.join(ws.logs, 'tessera.log'), timeoutMs: 120_000 }));
    o.log(`Tessera pid ${server.pid} on ${server.url} (${o.postgres ? 'PostgreSQL' : 'SQLite'}, ${o.articles} articles), started in ${Math.round(server.coldStartMs)} ms`);
    const articlesAtStart = await countArticles(server.url);
    const mix = soakMix({ shape: { ...DEFAULT_SHAPE, articles: o.articles }, runId });
    const windows: SoakWindow[] = [];
    const count = Math.max(1, Math.round(o.duration / o.window));
    let heap: SoakResult['heap'];
    let warmFile: string | undefined, rssJumpMb: number | undefined;
    const t0 = performance.now();
    for (let i = 1; i <= count; i++) {
      const w = await measureWindow(server, mix, o, i, t0, dbFiles);
      windows.push(w);
      o.log(`  window ${i}/${count}: ${Math.round(w.rps)} req/s, p50 ${w.p50} ms, p99 ${w.p99} ms, errors ${errorsOf(w)}, RSS ${w.rssEndMb.toFixed(1)} MB (peak ${w.rssMaxMb.toFixed(1)}), CPU ${Math.round(w.cpuPercent)} %${w.dbMb === undefined ? '' : `, db ${w.dbMb.toFixed(1)} MB`}, to delete ${w.pendingDeletes}`);
      if (i === 1 && o.heapSnapshots && count > 1) {
        const rssBefore = server.rssMb();
        warmFile = await takeHeapSnapshot(server.pid, snapshots, `${server.url}/_health`);
        rssJumpMb = server.rssMb() - rssBefore;
        o.log(`  warm-up heap snapshot: ${path.basename(warmFile)} (${mb(fs.statSync(warmFile).size)} MB file; RSS +${rssJumpMb.toFixed(1)} MB)`);
      }
    }
    // answers cut off by the last window's end may still be in the works
    await waitIdle(server, 10_000);
    const leftovers = await deleteLeftovers(server.url, runId);
    o.log(`  deleted the ${leftovers} entries of the run left when the load stopped`);
    const articlesAtEnd = await countArticles(server.url);
    if (warmFile) {
      const endFile = await takeHeapSnapshot(server.pid, snapshots, `${server.url}/_health`);
      heap = { warm: summarizeHeapSnapshot(warmFile), end: summarizeHeapSnapshot(endFile), warmFile, endFile, rssJumpMb };
      // the files are large (tens of MB each): kept only with --keep
      if (!o.keep) for (const f of [warmFile, endFile]) fs.rmSync(f, { force: true });
    }
    const { created, deleteSent } = mix.counts();
    const partial = { windows, heap, articlesAtStart, articlesAtEnd };
    const crit = criteria(partial, o);
    const { log: _log, ...options } = o;
    void _log;
    return {
      options, startedAt, database: o.postgres ? 'postgres' : 'sqlite', coldStartMs: server.coldStartMs,
      ...partial, created, deleteSent, leftovers, criteria: crit, pass: crit.every((c) => c.pass),
    };
  } finally {
    await server?.stop();
    await clones?.dropAll().catch((err) => o.log(`dropping the soak's PostgreSQL database: ${(err as Error).message}`));
    if (!o.keep) {
      fs.rmSync(ws.dir, { recursive: true, force: true });
      scratch.delete(ws.dir);
    } else o.log(`kept ${ws.dir}`);
  }
}

/**
 * Deletes every entry of the run still there once the load stopped: those still queued, and those whose
 * create answer or delete request a window's end cut off (autocannon drops what is in flight when a window
 * ends, and sets up a connection's next request before it knows it will not be sent). Found by their slug.
 */
async function deleteLeftovers(url: string, runId: string): Promise<number> {
  const auth = { authorization: `Bearer ${fixtureToken()}` };
  const list = `${url}/api/articles?publicationState=preview&filters[slug][$startsWith]=bench-${runId}-&fields[0]=id&pagination[pageSize]=100`;
  let n = 0;
  for (;;) {
    const res = await fetch(list, { headers: auth });
    const body = (await res.json()) as { data?: { id: number }[] };
    if (res.status !== 200 || !Array.isArray(body.data)) throw new Error(`listing the soak's entries: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    if (!body.data.length) return n;
    for (const { id } of body.data) {
      const del = await fetch(`${url}/api/articles/${id}`, { method: 'DELETE', headers: auth });
      await del.arrayBuffer();
      if (del.status !== 200) throw new Error(`deleting soak entry ${id} after the run: ${del.status}`);
      n++;
    }
  }
}

// ---- the markdown page (bench/results/soak/<date>.md) ----

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

export function soakMarkdown(r: SoakResult, command: string, machine: string): string {
  const o = r.options;
  const lines: string[] = [];
  lines.push(`# Soak ${r.startedAt.slice(0, 10)}${r.database === 'postgres' ? ' (PostgreSQL)' : ''}: ${r.pass ? 'PASS' : 'FAIL'}`, '');
  lines.push(`\`${command}\` — started ${r.startedAt}. Tessera (\`bin/tessera.js start\`, NODE_ENV=production, response cache as shipped) on a copy of the ${fmt(o.articles)}-article benchmark dataset (${r.database === 'postgres' ? 'PostgreSQL' : 'SQLite'}), ${fmt(o.duration)} s under load from ${o.connections} connections, measured in ${o.window}-s windows (window 1 is the warm-up). Cold start ${Math.round(r.coldStartMs)} ms. ${machine}`, '');
  lines.push('Mix (bench/soak/mix.ts), one cycle of 21 requests: REST lists with filters/sort/pagination, `populate=*` pages, a relation filter with nested populate, `$or`/`$containsi` search with `fields`, findOne with nested populate; GraphQL lists (filters, sort, pagination, author and categories, `meta.pagination`) and findOne (relations, component, media); REST and GraphQL creates (relations, components, dynamic zone, media), updates (title + categories `set`), deletes (each created entry deleted once; REST and GraphQL alternately). Every request must answer 2xx (GraphQL: without `errors`).', '');
  lines.push('## Verdict', '', '| criterion | bound | got | |', '|---|---|---|---|');
  for (const c of r.criteria) lines.push(`| ${c.name} | ${c.bound} | ${c.got} | ${c.pass ? 'pass' : '**FAIL**'} |`);
  lines.push('', '## Per window', '', `| window | end (s) | req/s | p50 ms | p99 ms | max ms | requests | errors | RSS end MB | RSS peak MB | server CPU % | ${r.database === 'sqlite' ? 'db + WAL MB | ' : ''}to delete |`, `|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${r.database === 'sqlite' ? '---:|' : ''}---:|`);
  for (const w of r.windows) {
    const errs = errorsOf(w);
    const detail = errs ? ` (${[['non-2xx', w.non2xx], ['GraphQL errors', w.failed], ['socket', w.socketErrors], ['timeouts', w.timeouts]].filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(', ')})` : '';
    lines.push(`| ${w.index} | ${fmt(w.atS)} | ${fmt(w.rps)} | ${w.p50} | ${w.p99} | ${w.max} | ${fmt(w.requests)} | ${errs}${detail} | ${w.rssEndMb.toFixed(1)} | ${w.rssMaxMb.toFixed(1)} | ${Math.round(w.cpuPercent)} | ${w.dbMb === undefined ? '' : `${w.dbMb.toFixed(1)} | `}${w.pendingDeletes} |`);
  }
  const families = new Map<string, number>();
  for (const w of r.windows) for (const [k, v] of Object.entries(w.families)) families.set(k, (families.get(k) ?? 0) + v);
  lines.push('', `Good answers per request family over the run: ${[...families].map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}.`);
  lines.push(`Entries created ${fmt(r.created)} (answers seen), delete requests ${fmt(r.deleteSent)}; entries of the run left when the load stopped (still queued, or cut off at a window's end), deleted after it: ${fmt(r.leftovers)}; articles at start ${fmt(r.articlesAtStart)}, at the end ${fmt(r.articlesAtEnd)}.`);
  if (r.heap) {
    const { warm, end } = r.heap;
    const cmp = compareHeapSummaries(warm, end);
    lines.push('', '## Heap snapshots (after window 1, and at the end)', '', '| | after warm-up | end | change |', '|---|---:|---:|---:|');
    lines.push(`| live heap MB | ${mb(warm.totalBytes)} | ${mb(end.totalBytes)} | ${(((end.totalBytes - warm.totalBytes) / warm.totalBytes) * 100).toFixed(1)} % |`);
    lines.push(`| objects | ${fmt(warm.nodes)} | ${fmt(end.nodes)} | ${fmt(end.nodes - warm.nodes)} |`);
    const row = (c: (typeof cmp.largest)[number]) => `| \`${c.name.replace(/\|/g, '\\|').slice(0, 60)}\` | ${fmt(c.before)} | ${fmt(c.after)} | ${c.after - c.before >= 0 ? '+' : ''}${fmt(c.after - c.before)} | ${mb(c.bytesBefore)} → ${mb(c.bytesAfter)} |`;
    lines.push('', 'Most objects at the end:', '', '| constructor | count after warm-up | count at end | change | MB |', '|---|---:|---:|---:|---:|', ...cmp.largest.map(row));
    lines.push('', 'Grown most in count:', '', '| constructor | count after warm-up | count at end | change | MB |', '|---|---:|---:|---:|---:|', ...(cmp.grown.length ? cmp.grown.map(row) : ['| (none) | | | | |']));
    lines.push('', 'Grown most in bytes:', '', '| constructor | count after warm-up | count at end | change | MB |', '|---|---:|---:|---:|---:|', ...(cmp.grownBytes.length ? cmp.grownBytes.map(row) : ['| (none) | | | | |']));
    if (r.heap.rssJumpMb !== undefined) lines.push('', `Writing the warm-up snapshot raised the server's RSS by ${r.heap.rssJumpMb.toFixed(1)} MB (the snapshot's own memory, which the allocator keeps): RSS is judged from window 2 on, after it.`);
  }
  lines.push('', '## Criteria, defined', '',
    `- errors: every answer that is not 2xx (none is expected: deletes take only entries the run created, once each; updates only base articles), a 2xx GraphQL answer with \`errors\`, a socket error, or no answer within 10 s.`,
    `- p99: autocannon's p99 of each window ≤ ${o.p99Factor}× the first window's.`,
    `- RSS flat: the peak RSS (sampled every second) of the last third of the windows ≤ (1 + ${o.rssTolerance}) × the peak of window 2, the first window after the warm-up (and after the warm-up heap snapshot, whose writing raises RSS once).`,
    `- live heap: the end snapshot's total ≤ the warm-up snapshot's × ${1 + o.heapTolerance.ratio} + ${mb(o.heapTolerance.bytes)} MB. A snapshot counts only objects alive after a full GC; the mix's read variants are finite and all sent in window 1, so every bounded cache is at its steady state after it, and what may still differ is which answers the response cache holds at the moment of each snapshot (writes invalidate them).`,
    `- the database: the mix deletes the entries it creates as it goes (the "to delete" column is the queue), and the few left when the load stops right after it, so the table ends at its starting size and "flat" measures leaks, not data.`);
  return lines.join('\n') + '\n';
}
