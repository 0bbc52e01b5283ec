// The results of one run: aggregation per case and server, ratios, targets, and their text forms
// (console tables, the markdown page, the JSON file).
import type { LoadResult } from './load';
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
  errors: number;
  bytesPerResponse: number;
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
  vsFloor?: number;
  p99VsFloor?: number;
  vsStrapi?: number;
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
  settings: { articles: number; duration: number; warmup: number; passes: number; connections: number; vsStrapi: boolean; database?: 'sqlite' | 'postgres'; workers?: number };
  environment: { node: string; cpus: number; cpuModel: string; loadavgStart: number[]; loadavgEnd: number[]; tessera: string; note: string };
  cases: CaseResult[];
  coldStart: { server: ServerName; dataset: string; ms: number[] }[];
  memory: { idleMb: Partial<Record<ServerName, number>>; peakMb: Partial<Record<ServerName, number>> };
  statementsVsRows: { url: string; perPageSize: Record<string, number> }[];
  targets: Target[];
  measurements: Measurement[];
  notes: string[];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

export function aggregate(ms: Measurement[]): ServerCaseResult {
  return {
    runs: ms.map((m) => Math.round(m.load.rps)),
    rps: mean(ms.map((m) => m.load.rps)),
    p50: mean(ms.map((m) => m.load.p50)),
    p99: mean(ms.map((m) => m.load.p99)),
    rssPeakMb: Math.max(...ms.map((m) => m.rssPeakMb)),
    non2xx: ms.reduce((a, m) => a + m.load.non2xx, 0),
    failed: ms.reduce((a, m) => a + (m.load.failed ?? 0), 0),
    errors: ms.reduce((a, m) => a + m.load.errors + m.load.timeouts, 0),
    bytesPerResponse: Math.round(mean(ms.map((m) => m.load.bytes / Math.max(1, m.load.requests)))),
  };
}

/** Ratios of one case from its servers' results. */
export function withRatios(c: CaseResult): CaseResult {
  const t = c.servers.tessera;
  const floors = (['floor-js', 'floor-sql', 'floor-pg'] as const).filter((f) => c.servers[f] && c.answers[f] === 'same');
  const best = floors.sort((a, b) => c.servers[b]!.rps - c.servers[a]!.rps)[0];
  const out = { ...c, floor: best };
  if (t && best) {
    out.vsFloor = t.rps / c.servers[best]!.rps;
    out.p99VsFloor = t.p99 / Math.max(c.servers[best]!.p99, 1);
  }
  if (t && c.servers.strapi) out.vsStrapi = t.rps / c.servers.strapi.rps;
  return out;
}

// ---- formatting ----

export const fmt = {
  int: (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : Math.round(n).toLocaleString('en-US')),
  ms: (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : n < 10 ? n.toFixed(1) : Math.round(n).toString()),
  ratio: (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : n >= 10 ? `${n.toFixed(0)}×` : `${n.toFixed(2)}×`),
  mb: (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : Math.round(n).toString()),
};

const SERVER_ORDER: ServerName[] = ['tessera', 'floor-sql', 'floor-js', 'floor-pg', 'strapi'];

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

function statementsOf(c: CaseResult, s: ServerName): string {
  const st = c.statements[s];
  if (!st) return '–';
  return st.distinct.length > 1 ? `${st.distinct[0]}–${st.distinct[st.distinct.length - 1]}` : String(st.distinct[0] ?? '–');
}

function caseRows(c: CaseResult): string[][] {
  const rows: string[][] = [];
  for (const s of SERVER_ORDER) {
    const r = c.servers[s];
    if (!r) continue;
    let ratio = '';
    if (s === 'tessera') ratio = [c.vsFloor !== undefined ? `${fmt.ratio(c.vsFloor)} floor` : '', c.vsStrapi !== undefined ? `${fmt.ratio(c.vsStrapi)} Strapi` : ''].filter(Boolean).join(', ');
    else if (s === c.floor) ratio = 'the floor';
    const answers = s === 'tessera' ? '' : c.answers[s] === 'same' ? 'same' : c.answers[s] ? `DIFFERENT: ${c.answers[s]}` : '';
    const errs = r.non2xx || r.errors ? ` (${r.non2xx} non-2xx, ${r.errors} errors${r.failed ? `, ${r.failed} 2xx with errors` : ''})` : r.failed ? ` (${r.failed} 2xx with errors)` : '';
    rows.push([s, `${fmt.int(r.rps)} (${r.runs.map(fmt.int).join(' / ')})${errs}`, fmt.ms(r.p50), fmt.ms(r.p99), fmt.mb(r.rssPeakMb), statementsOf(c, s), fmt.int(c.inProcessUs?.[s]), ratio, answers]);
  }
  return rows;
}

const CASE_HEAD = ['server', 'req/s (runs)', 'p50 ms', 'p99 ms', 'RSS MB', 'SQL/req', 'µs in-process', 'ratio', 'answers vs Tessera'];

/** Plain-text tables for the console. */
export function consoleReport(s: RunSummary): string {
  const lines: string[] = [];
  const pad = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  for (const c of s.cases) {
    lines.push('', `${c.title}  —  ${c.example}${c.graphql ? '  (no floor: it has no GraphQL)' : ''}`);
    const rows = caseRows(c).map((r) => r.slice(0, 8).concat(r[8] && r[8] !== 'same' ? [r[8]] : []));
    const head = CASE_HEAD.slice(0, 8);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    lines.push(pad(head, widths), ...rows.map((r) => pad(r, widths)));
  }
  lines.push('', 'cold start (spawn -> first answer of GET /api/articles), ms');
  for (const c of s.coldStart) lines.push(`  ${c.server.padEnd(10)} ${c.dataset.padEnd(14)} ${c.ms.map((m) => Math.round(m)).join(' / ')}`);
  lines.push('', `memory, MB: idle ${fmtMap(s.memory.idleMb)}; peak under load ${fmtMap(s.memory.peakMb)}`);
  lines.push('', 'targets');
  for (const t of s.targets) lines.push(`  ${t.met === null ? '  ?' : t.met ? ' ok' : 'NOT'}  ${t.name}: want ${t.want}, got ${t.got}`);
  return lines.join('\n');
}

function fmtMap(m: Partial<Record<ServerName, number>>): string {
  return SERVER_ORDER.filter((k) => m[k] !== undefined).map((k) => `${k} ${fmt.mb(m[k])}`).join(', ');
}

export function markdownReport(s: RunSummary, chartFile?: string): string {
  const L: string[] = [];
  L.push(`# Benchmark ${s.date}`, '');
  L.push(`Command: \`${s.command}\``, '');
  L.push(`Machine: ${s.environment.cpus} × ${s.environment.cpuModel}, Node ${s.environment.node}; load average (1/5/15 min) ${s.environment.loadavgStart.map((x) => x.toFixed(2)).join(' / ')} at the start, ${s.environment.loadavgEnd.map((x) => x.toFixed(2)).join(' / ')} at the end. ${s.environment.note}`, '');
  L.push(`Settings: ${s.settings.articles.toLocaleString('en-US')} articles on ${s.settings.database === 'postgres' ? 'PostgreSQL' : 'SQLite'}${(s.settings.workers ?? 1) > 1 ? `, Tessera with --workers ${s.settings.workers}` : ''}; autocannon ${s.settings.connections} connections, ${s.settings.duration} s per run after ${s.settings.warmup} s warm-up; ${s.settings.passes} passes, servers alternated within each pass. Tessera: ${s.environment.tessera}.`, '');
  if (chartFile) L.push(`![ratios](${chartFile})`, '');
  L.push('## Summary', '');
  const head = ['case', 'Tessera req/s', 'floor req/s', '× floor', 'p99 Tessera / floor ms', 'Strapi req/s', '× Strapi', 'SQL/req Tessera / floor', 'µs in-process Tessera / floor'];
  L.push(...table(head, s.cases.map((c) => {
    const t = c.servers.tessera, f = c.floor ? c.servers[c.floor] : undefined;
    return [
      `${c.title}`, fmt.int(t?.rps), f ? `${fmt.int(f.rps)} (${c.floor!.slice(6)})` : c.graphql ? 'none (GraphQL)' : '–', fmt.ratio(c.vsFloor),
      t ? `${fmt.ms(t.p99)} / ${f ? fmt.ms(f.p99) : '–'}` : '–', fmt.int(c.servers.strapi?.rps), fmt.ratio(c.vsStrapi),
      `${statementsOf(c, 'tessera')} / ${c.floor ? statementsOf(c, c.floor) : '–'}`,
      `${fmt.int(c.inProcessUs?.tessera)} / ${c.floor ? fmt.int(c.inProcessUs?.[c.floor]) : '–'}`,
    ];
  })));
  L.push('', '## Targets', '');
  L.push(...table(['target', 'want', 'got', 'met'], s.targets.map((t) => [t.name, t.want, t.got, t.met === null ? 'not measured' : t.met ? 'yes' : '**no**'])));
  L.push('', '## Cases', '');
  for (const c of s.cases) {
    L.push(`### ${c.title}`, '', `\`${c.example}\`${c.graphql ? ' (POST /graphql; no floor: it has no GraphQL)' : ''}`, '');
    L.push(...table(CASE_HEAD, caseRows(c)), '');
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
