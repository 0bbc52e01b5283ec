// The results of one run: aggregation per case and server, ratios, targets, and their text forms
// (console tables, the markdown page, the JSON file).
import type { LoadResult } from './load';
import type { ResponseCacheMode } from './options';
import type { ServerName } from './servers';
import type { StatementCount } from './statements';

export interface Measurement {
  caseId: string;
  server: ServerName;
  pass: number;
  load: LoadResult;
  rssPeakMb: number;
  /** 1-minute load average when the measurement started */
  loadavg: number;
}

export interface ServerCaseResult {
  runs: number[];
  rps: number;
  p50: number;
  p99: number;
  rssPeakMb: number;
  non2xx: number;
  /** 2xx answers that failed all the same (GraphQL `errors`) */
  failed: number;
  /** connection errors, timeouts included */
  errors: number;
  /** answers that took longer than autocannon's timeout */
  timeouts?: number;
  bytesPerResponse: number;
  /** requests answered over every run */
  requests: number;
  /** 304 answers (the revalidate case) */
  notModified: number;
  /** req/s per request tag (the mixed case: `read`, `write`), mean over the runs */
  perTag?: Record<string, number>;
}

/** Tessera's req/s (and p99) divided by another server's in the same case */
export interface Ratios {
  vsFloor?: number;
  p99VsFloor?: number;
  vsStrapi?: number;
  /** ÷ the bare node:http server sending the same bytes */
  vsBare?: number;
}

export interface CaseResult {
  id: string;
  title: string;
  kind: 'read' | 'write';
  example: string;
  /** a GraphQL case: no floor (the floor has no GraphQL) */
  graphql?: boolean;
  servers: Partial<Record<ServerName, ServerCaseResult>>;
  /** the faster floor variant for this case */
  floor?: 'floor-js' | 'floor-sql' | 'floor-pg';
  /** the ratios of `tessera` (the cache on, unless --response-cache off) */
  vsFloor?: number;
  p99VsFloor?: number;
  vsStrapi?: number;
  vsBare?: number;
  /** the ratios of `tessera-nocache` (--response-cache both) */
  noCache?: Ratios;
  statements: Partial<Record<ServerName, StatementCount>>;
  /** median µs per request in-process (fastify inject, sequential): the server's own work */
  inProcessUs: Partial<Record<ServerName, number>>;
  /** answers compared with Tessera's before measuring: 'same' or the first differences */
  answers: Partial<Record<ServerName, string>>;
}

export interface Target {
  name: string;
  want: string;
  got: string;
  met: boolean | null;
}

export interface RunSummary {
  date: string;
  command: string;
  settings: { articles: number; duration: number; warmup: number; passes: number; connections: number; timeout?: number; vsStrapi: boolean; database?: 'sqlite' | 'postgres'; workers?: number; responseCache?: ResponseCacheMode };
  environment: { node: string; cpus: number; cpuModel: string; loadavgStart: number[]; loadavgEnd: number[]; tessera: string; note: string };
  cases: CaseResult[];
  coldStart: { server: ServerName; dataset: string; ms: number[] }[];
  memory: { idleMb: Partial<Record<ServerName, number>>; peakMb: Partial<Record<ServerName, number>> };
  statementsVsRows: { url: string; perPageSize: Record<string, number> }[];
  targets: Target[];
  /** issue 17's targets for the response cache's hits (reported, never tuned for) */
  cacheTargets?: Target[];
  measurements: Measurement[];
  notes: string[];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

export function aggregate(ms: Measurement[]): ServerCaseResult {
  return {
    runs: ms.map((m) => Math.round(m.load.rps)),
    rps: mean(ms.map((m) => m.load.rps)),
    // a run in which no answer came has no latencies (autocannon says 0): NaN, shown as –
    p50: mean(ms.filter((m) => m.load.requests > 0).map((m) => m.load.p50)),
    p99: mean(ms.filter((m) => m.load.requests > 0).map((m) => m.load.p99)),
    rssPeakMb: Math.max(...ms.map((m) => m.rssPeakMb)),
    non2xx: ms.reduce((a, m) => a + m.load.non2xx, 0),
    failed: ms.reduce((a, m) => a + (m.load.failed ?? 0), 0),
    // autocannon's errors count its timeouts too
    errors: ms.reduce((a, m) => a + m.load.errors, 0),
    timeouts: ms.reduce((a, m) => a + m.load.timeouts, 0),
    bytesPerResponse: Math.round(mean(ms.map((m) => m.load.bytes / Math.max(1, m.load.requests)))),
    requests: ms.reduce((a, m) => a + m.load.requests, 0),
    notModified: ms.reduce((a, m) => a + (m.load.notModified ?? 0), 0),
    ...perTag(ms),
  };
}

function perTag(ms: Measurement[]): Pick<ServerCaseResult, 'perTag'> {
  const tags = [...new Set(ms.flatMap((m) => Object.keys(m.load.tagged ?? {})))];
  if (!tags.length) return {};
  return { perTag: Object.fromEntries(tags.map((t) => [t, mean(ms.map((m) => (m.load.tagged?.[t] ?? 0) / m.load.seconds))])) };
}

/** Ratios of one case from its servers' results. */
export function withRatios(c: CaseResult): CaseResult {
  const floors = (['floor-js', 'floor-sql', 'floor-pg'] as const).filter((f) => c.servers[f] && c.answers[f] === 'same');
  const best = floors.sort((a, b) => c.servers[b]!.rps - c.servers[a]!.rps)[0];
  const ratiosOf = (t: ServerCaseResult | undefined): Ratios => {
    const r: Ratios = {};
    if (!t) return r;
    if (best) {
      r.vsFloor = t.rps / c.servers[best]!.rps;
      r.p99VsFloor = t.p99 / Math.max(c.servers[best]!.p99, 1);
    }
    if (c.servers.strapi) r.vsStrapi = t.rps / c.servers.strapi.rps;
    if (c.servers.bare && c.answers.bare === 'same') r.vsBare = t.rps / c.servers.bare.rps;
    return r;
  };
  const noCache = c.servers['tessera-nocache'];
  return { ...c, floor: best, ...ratiosOf(c.servers.tessera), ...(noCache ? { noCache: ratiosOf(noCache) } : {}) };
}

/** how the tables name a Tessera server: with the cache, or without (runs before --response-cache: plain Tessera) */
export function tesseraLabel(name: 'tessera' | 'tessera-nocache', mode: ResponseCacheMode | undefined): string {
  if (name === 'tessera-nocache') return 'Tessera (no cache)';
  return mode === undefined ? 'Tessera' : mode === 'off' ? 'Tessera (no cache)' : 'Tessera (cache)';
}

/** the Tessera servers of a run with their ratios, `tessera` first */
export function tesseraVariants(s: Pick<RunSummary, 'cases' | 'settings'>): { name: 'tessera' | 'tessera-nocache'; label: string; ratios(c: CaseResult): Ratios }[] {
  const out: ReturnType<typeof tesseraVariants> = [{ name: 'tessera', label: tesseraLabel('tessera', s.settings.responseCache), ratios: (c) => c }];
  if (s.cases.some((c) => c.servers['tessera-nocache'])) out.push({ name: 'tessera-nocache', label: tesseraLabel('tessera-nocache', s.settings.responseCache), ratios: (c) => c.noCache ?? {} });
  return out;
}

// ---- formatting ----

export const fmt = {
  int: (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : Math.round(n).toLocaleString('en-US')),
  ms: (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : n < 10 ? n.toFixed(1) : Math.round(n).toString()),
  ratio: (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : n >= 10 ? `${n.toFixed(0)}×` : `${n.toFixed(2)}×`),
  mb: (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : Math.round(n).toString()),
};

const SERVER_ORDER: ServerName[] = ['tessera', 'tessera-nocache', 'floor-sql', 'floor-js', 'floor-pg', 'bare', 'strapi'];

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

function statementsOf(c: CaseResult, s: ServerName): string {
  const st = c.statements[s];
  if (!st) return '–';
  return st.distinct.length > 1 ? `${st.distinct[0]}–${st.distinct[st.distinct.length - 1]}` : String(st.distinct[0] ?? '–');
}

function ratioText(r: Ratios | undefined): string {
  if (!r) return '';
  return [r.vsFloor !== undefined ? `${fmt.ratio(r.vsFloor)} floor` : '', r.vsStrapi !== undefined ? `${fmt.ratio(r.vsStrapi)} Strapi` : '', r.vsBare !== undefined ? `${fmt.ratio(r.vsBare)} bare` : ''].filter(Boolean).join(', ');
}

/** what the req/s cell adds: reads and writes apart (mixed), how many answers were 304 (revalidate) */
function rpsDetails(r: ServerCaseResult): string {
  const parts: string[] = [];
  if (r.perTag) parts.push(Object.entries(r.perTag).map(([t, v]) => `${t}s ${fmt.int(v)}/s`).join(', '));
  if (r.notModified) parts.push(r.notModified === r.requests ? 'all 304' : `${fmt.int(r.notModified)} × 304`);
  return parts.length ? ` [${parts.join('; ')}]` : '';
}

function caseRows(c: CaseResult, timeout?: number): string[][] {
  const rows: string[][] = [];
  for (const s of SERVER_ORDER) {
    const r = c.servers[s];
    if (!r) continue;
    const ratio = s === 'tessera' ? ratioText(c) : s === 'tessera-nocache' ? ratioText(c.noCache) : s === c.floor ? 'the floor' : s === 'bare' ? 'the limit' : '';
    const answers = s === 'tessera' ? '' : c.answers[s] === 'same' ? 'same' : c.answers[s] ? `DIFFERENT: ${c.answers[s]}` : '';
    const errs = r.non2xx || r.errors ? ` (${r.non2xx} non-2xx, ${r.errors} errors${r.timeouts ? `, of which ${r.timeouts} timeouts` : ''}${r.failed ? `, ${r.failed} 2xx with errors` : ''})` : r.failed ? ` (${r.failed} 2xx with errors)` : '';
    // a server slower than the run (or than autocannon's timeout) answers nothing: said so, not shown as fast or 0
    const none = r.requests === 0 ? ` (no answer within the ${timeout ? `${timeout} s timeout` : 'run'})` : '';
    rows.push([s, `${fmt.int(r.rps)} (${r.runs.map(fmt.int).join(' / ')})${none}${errs}${rpsDetails(r)}`, fmt.ms(r.p50), fmt.ms(r.p99), fmt.mb(r.rssPeakMb), statementsOf(c, s), fmt.int(c.inProcessUs?.[s]), ratio, answers]);
  }
  return rows;
}

const CASE_HEAD = ['server', 'req/s (runs)', 'p50 ms', 'p99 ms', 'RSS MB', 'SQL/req', 'µs in-process', 'ratio', 'answers vs Tessera'];

/** what the server names of the per-case tables are */
function legend(s: RunSummary): string {
  const names = new Set(s.cases.flatMap((c) => Object.keys(c.servers)));
  const mode = s.settings.responseCache;
  const parts = [`\`tessera\`: ${mode === undefined ? 'Tessera' : `${tesseraLabel('tessera', mode)}, TESSERA_RESPONSE_CACHE=${mode === 'off' ? 'off' : 'on'}`}`];
  if (names.has('tessera-nocache')) parts.push('`tessera-nocache`: Tessera (no cache), TESSERA_RESPONSE_CACHE=off');
  if (names.has('floor-sql') || names.has('floor-js') || names.has('floor-pg')) parts.push('`floor-*`: the hand-written floor');
  if (names.has('bare')) parts.push("`bare`: bare node:http sending Tessera's stored answers (floor/bare-http.ts), the limit");
  if (names.has('strapi')) parts.push('`strapi`: real Strapi 4.26.2');
  return `Servers: ${parts.join('; ')}. Ratios are the row's req/s ÷ the floor's, Strapi's, bare's.`;
}

/** Plain-text tables for the console. */
export function consoleReport(s: RunSummary): string {
  const lines: string[] = [];
  const pad = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  lines.push('', legend(s));
  for (const c of s.cases) {
    lines.push('', `${c.title}  —  ${c.example}${c.graphql ? '  (no floor: it has no GraphQL)' : ''}`);
    const rows = caseRows(c, s.settings.timeout).map((r) => r.slice(0, 8).concat(r[8] && r[8] !== 'same' ? [r[8]] : []));
    const head = CASE_HEAD.slice(0, 8);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    lines.push(pad(head, widths), ...rows.map((r) => pad(r, widths)));
  }
  lines.push('', 'cold start (spawn -> first answer of GET /api/articles), ms');
  for (const c of s.coldStart) lines.push(`  ${c.server.padEnd(10)} ${c.dataset.padEnd(14)} ${c.ms.map((m) => Math.round(m)).join(' / ')}`);
  lines.push('', `memory, MB: idle ${fmtMap(s.memory.idleMb)}; peak under load ${fmtMap(s.memory.peakMb)}`);
  const targetLines = (ts: Target[]) => ts.map((t) => `  ${t.met === null ? '  ?' : t.met ? ' ok' : 'NOT'}  ${t.name}: want ${t.want}, got ${t.got}`);
  lines.push('', 'targets', ...targetLines(s.targets));
  if (s.cacheTargets?.length) lines.push('', 'response cache targets (issue 17; reported, not tuned for)', ...targetLines(s.cacheTargets));
  return lines.join('\n');
}

function fmtMap(m: Partial<Record<ServerName, number>>): string {
  return SERVER_ORDER.filter((k) => m[k] !== undefined).map((k) => `${k} ${fmt.mb(m[k])}`).join(', ');
}

/** the summary table: a column per Tessera variant, its ratios to the floor, bare node:http and Strapi */
function summaryTable(s: RunSummary): string[] {
  const variants = tesseraVariants(s);
  const both = variants.length > 1;
  const tag = (v: (typeof variants)[number]) => (both ? ` ${v.label.replace(/^Tessera /, '')}` : '');
  const hasBare = s.cases.some((c) => c.servers.bare);
  const p99Of = (r: ServerCaseResult | undefined) => (r ? fmt.ms(r.p99) : '–');
  const head = [
    'case', ...variants.map((v) => `${v.label} req/s`), 'floor req/s', ...variants.map((v) => `× floor${tag(v)}`),
    ...(hasBare ? ['bare node:http req/s', ...variants.map((v) => `÷ bare${tag(v)}`)] : []),
    `p99 ms ${[...variants.map((v) => (both ? v.label.replace(/^Tessera /, 'T') : 'Tessera')), 'floor', ...(hasBare ? ['bare'] : []), 'Strapi'].join(' / ')}`,
    'Strapi req/s', ...variants.map((v) => `× Strapi${tag(v)}`),
    `SQL/req ${[...variants.map((v) => (both ? v.label.replace(/^Tessera /, 'T') : 'Tessera')), 'floor'].join(' / ')}`,
    `µs in-process ${[...variants.map((v) => (both ? v.label.replace(/^Tessera /, 'T') : 'Tessera')), 'floor'].join(' / ')}`,
  ];
  return table(head, s.cases.map((c) => {
    const f = c.floor ? c.servers[c.floor] : undefined;
    return [
      c.title, ...variants.map((v) => fmt.int(c.servers[v.name]?.rps)),
      f ? `${fmt.int(f.rps)} (${c.floor!.slice(6)})` : c.graphql ? 'none (GraphQL)' : '–', ...variants.map((v) => fmt.ratio(v.ratios(c).vsFloor)),
      ...(hasBare ? [fmt.int(c.servers.bare?.rps), ...variants.map((v) => fmt.ratio(v.ratios(c).vsBare))] : []),
      [...variants.map((v) => p99Of(c.servers[v.name])), p99Of(f), ...(hasBare ? [p99Of(c.servers.bare)] : []), p99Of(c.servers.strapi)].join(' / '),
      fmt.int(c.servers.strapi?.rps), ...variants.map((v) => fmt.ratio(v.ratios(c).vsStrapi)),
      [...variants.map((v) => statementsOf(c, v.name)), c.floor ? statementsOf(c, c.floor) : '–'].join(' / '),
      [...variants.map((v) => fmt.int(c.inProcessUs?.[v.name])), c.floor ? fmt.int(c.inProcessUs?.[c.floor]) : '–'].join(' / '),
    ];
  }));
}

export function markdownReport(s: RunSummary, chartFile?: string): string {
  const L: string[] = [];
  L.push(`# Benchmark ${s.date}`, '');
  L.push(`Command: \`${s.command}\``, '');
  L.push(`Machine: ${s.environment.cpus} × ${s.environment.cpuModel}, Node ${s.environment.node}; load average (1/5/15 min) ${s.environment.loadavgStart.map((x) => x.toFixed(2)).join(' / ')} at the start, ${s.environment.loadavgEnd.map((x) => x.toFixed(2)).join(' / ')} at the end. ${s.environment.note}`, '');
  const cache = s.settings.responseCache;
  L.push(`Settings: ${s.settings.articles.toLocaleString('en-US')} articles on ${s.settings.database === 'postgres' ? 'PostgreSQL' : 'SQLite'}${(s.settings.workers ?? 1) > 1 ? `, Tessera with --workers ${s.settings.workers}` : ''}${cache ? `, response cache ${cache === 'both' ? 'on and off (two Tessera processes)' : cache}` : ''}; autocannon ${s.settings.connections} connections${s.settings.timeout ? ` (${s.settings.timeout} s timeout per answer)` : ''}, ${s.settings.duration} s per run after ${s.settings.warmup} s warm-up; ${s.settings.passes} passes, servers alternated within each pass. Tessera: ${s.environment.tessera}.`, '');
  if (chartFile) L.push(`![ratios](${chartFile})`, '');
  L.push('## Summary', '');
  L.push(...summaryTable(s));
  L.push('', '## Targets', '');
  L.push(...table(['target', 'want', 'got', 'met'], s.targets.map((t) => [t.name, t.want, t.got, t.met === null ? 'not measured' : t.met ? 'yes' : '**no**'])));
  if (s.cacheTargets?.length) {
    L.push('', '## Response cache targets (issue 17)', '', 'Reported, not tuned for: cache hits against real Strapi and against bare node:http sending the same bytes, in the same run.', '');
    L.push(...table(['target', 'want', 'got', 'met'], s.cacheTargets.map((t) => [t.name, t.want, t.got, t.met === null ? 'not measured' : t.met ? 'yes' : '**no**'])));
  }
  L.push('', '## Cases', '', legend(s), '');
  for (const c of s.cases) {
    L.push(`### ${c.title}`, '', `\`${c.example}\`${c.graphql ? ' (POST /graphql; no floor: it has no GraphQL)' : ''}`, '');
    L.push(...table(CASE_HEAD, caseRows(c, s.settings.timeout)), '');
  }
  L.push('## Cold start', '', 'Process spawn to the first answer of `GET /api/articles` (ms; each try on a fresh copy).', '');
  L.push(...table(['server', 'dataset', 'ms'], s.coldStart.map((c) => [c.server, c.dataset, c.ms.map((m) => Math.round(m)).join(' / ')])));
  L.push('', '## Memory', '');
  L.push(...table(['server', 'idle RSS MB (after start and one answer)', 'peak RSS MB under load'], SERVER_ORDER.filter((k) => s.memory.idleMb[k] !== undefined || s.memory.peakMb[k] !== undefined).map((k) => [k, fmt.mb(s.memory.idleMb[k]), fmt.mb(s.memory.peakMb[k])])));
  L.push('', '## SQL statements per request vs rows returned (Tessera, in-process)', '');
  L.push(...table(['request', 'statements by pageSize'], s.statementsVsRows.map((r) => [`\`${r.url}\``, Object.entries(r.perPageSize).map(([k, v]) => `${k}: ${v}`).join(', ')])));
  if (s.notes.length) L.push('', '## Notes', '', ...s.notes.map((n) => `- ${n}`));
  return L.join('\n') + '\n';
}
