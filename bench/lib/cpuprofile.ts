// Reading a V8 .cpuprofile (node --cpu-prof): self time per function, and inclusive time per source
// file or package (each sample counted once per file on its stack), to see where a request's time goes.
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Coarse layers for self time: where a request's CPU goes. */
export function layerOf(name: string, source: string): string {
  if (['all', 'get', 'run', 'iterate', 'exec', 'prepare'].includes(name) && (source.endsWith('sqlite-database.ts') || source === 'npm:better-sqlite3')) return 'SQLite (statements executing, rows to JS values)';
  if (source.startsWith('src/storage/')) return 'Tessera storage JS (SQL text, rows to entities)';
  if (source.startsWith('src/server/')) return 'Tessera HTTP assembly (hooks, headers, query string)';
  if (source.startsWith('src/')) return 'Tessera REST, query, auth, core';
  if (name === '(garbage collector)') return 'garbage collector';
  if (/^npm:(fastify|find-my-way|light-my-request|qs|pino|sonic-boom|@fastify\/.*|avvio|fast-json-stringify)$/.test(source) || source.startsWith('node:') || ['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String'].includes(name)) return 'HTTP server, logging, node internals';
  return 'other';
}

export interface ProfileSummary {
  totalMs: number;
  /** self time grouped by layerOf() */
  byLayer: { layer: string; ms: number; pct: number }[];
  /** samples of the idle loop, and of start-up (module loading), left out of the figures */
  idleMs: number;
  startupMs: number;
  selfTop: { name: string; where: string; ms: number; pct: number }[];
  inclusiveByFile: { file: string; ms: number; pct: number }[];
}

/** `/abs/repo/src/storage/read-entities.ts` -> `src/storage/read-entities.ts`; packages by name. */
export function sourceOf(url: string, repo: string): string {
  if (!url) return '(native)';
  let u = url.replace(/^file:\/\//, '');
  if (u.startsWith('node:')) return u;
  const nm = u.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = u.slice(nm + 14).split('/');
    return `npm:${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (u.startsWith(repo)) u = u.slice(repo.length + 1);
  return u;
}

export function summarizeProfile(file: string, repo: string, top = 25): ProfileSummary {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let total = 0, idle = 0, startup = 0;
  const inclusive = new Map<string, number>();
  for (let i = 0; i < prof.samples.length; i++) {
    const id = prof.samples[i];
    const dt = (prof.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') { idle += dt; continue; }
    const files = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame;
      if (cf.functionName === '(root)') continue;
      files.add(cf.url ? sourceOf(cf.url, repo) : cf.functionName.startsWith('(') ? cf.functionName : '(native)');
    }
    // start-up (module loading under the main module) is not request work
    if (files.has('node:internal/modules/run_main')) { startup += dt; continue; }
    total += dt;
    self.set(id, (self.get(id) ?? 0) + dt);
    for (const f of files) inclusive.set(f, (inclusive.get(f) ?? 0) + dt);
  }
  const selfByFn = new Map<string, { name: string; where: string; ms: number }>();
  for (const [id, ms] of self) {
    const cf = byId.get(id)!.callFrame;
    // lines of TypeScript sources point into tsx's transpiled output: the file alone is meaningful there
    const src = cf.url ? sourceOf(cf.url, repo) : '';
    const where = !src || src.endsWith('.ts') ? src : `${src}:${cf.lineNumber + 1}`;
    const name = cf.functionName || '(anonymous)';
    const key = `${name}@${where}`;
    const e = selfByFn.get(key) ?? { name, where, ms: 0 };
    e.ms += ms;
    selfByFn.set(key, e);
  }
  const pct = (ms: number) => (100 * ms) / Math.max(total, 1e-9);
  const layers = new Map<string, number>();
  for (const e of selfByFn.values()) {
    const layer = layerOf(e.name, e.where.replace(/:\d+$/, ''));
    layers.set(layer, (layers.get(layer) ?? 0) + e.ms);
  }
  return {
    totalMs: total,
    byLayer: [...layers.entries()].sort((a, b) => b[1] - a[1]).map(([layer, ms]) => ({ layer, ms, pct: pct(ms) })),
    idleMs: idle,
    startupMs: startup,
    selfTop: [...selfByFn.values()].sort((a, b) => b.ms - a.ms).slice(0, top).map((e) => ({ ...e, pct: pct(e.ms) })),
    inclusiveByFile: [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, top * 2).map(([file, ms]) => ({ file, ms, pct: pct(ms) })),
  };
}

export function profileMarkdown(title: string, s: ProfileSummary): string {
  const L = [`### ${title}`, '', `${(s.totalMs / 1000).toFixed(1)} s of CPU samples while serving (left out: idle ${(s.idleMs / 1000).toFixed(1)} s, start-up ${(s.startupMs / 1000).toFixed(1)} s).`, ''];
  L.push('Self time by layer:', '', '| % | ms | layer |', '|---|---|---|');
  for (const e of s.byLayer) L.push(`| ${e.pct.toFixed(1)} | ${Math.round(e.ms)} | ${e.layer} |`);
  L.push('', 'Self time, top functions:', '', '| % | ms | function | where |', '|---|---|---|---|');
  for (const e of s.selfTop) L.push(`| ${e.pct.toFixed(1)} | ${Math.round(e.ms)} | \`${e.name}\` | ${e.where} |`);
  L.push('', 'Inclusive time by source file or package (a sample counts once for each file on its stack):', '', '| % | ms | file |', '|---|---|---|');
  for (const e of s.inclusiveByFile) L.push(`| ${e.pct.toFixed(1)} | ${Math.round(e.ms)} | ${e.file} |`);
  return L.join('\n') + '\n';
}
