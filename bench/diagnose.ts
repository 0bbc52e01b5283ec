// Diagnostics for one case: `--profile` (Tessera alone under --cpu-prof: where the time goes) and
// `--explain` (every statement of one request with SQLite's query plan).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CASES, type CaseContext } from './cases';
import { ensureDataset } from './generate';
import { DEFAULT_SHAPE } from './lib/content';
import { profileMarkdown, summarizeProfile } from './lib/cpuprofile';
import { makeProjectCopy } from './lib/fixture';
import { runLoad } from './lib/load';
import type { RunOptions } from './lib/options';
import { startTessera } from './lib/servers';
import { captureSql, explain, injectOne, openTesseraInProcess, type CapturedSql } from './lib/statements';
import { makeWorkspace } from './lib/workspace';

/** --profile <case>: Tessera alone under load with --cpu-prof, then the profile's top self times and files. */
export async function profileCase(o: RunOptions, caseId: string): Promise<string> {
  const c = CASES.find((k) => k.id === caseId);
  if (!c) throw new Error(`unknown case ${caseId}`);
  const runId = Date.now().toString(36);
  const ctx: CaseContext = { shape: { ...DEFAULT_SHAPE, articles: o.articles }, runId };
  const { file: dataset } = await ensureDataset(o.articles, o.log, o.cacheDir);
  const ws = makeWorkspace(o, dataset, runId);
  const profDir = path.join(ws.dir, 'prof');
  try {
    // the response cache on unless --response-cache off
    const s = await startTessera({ repo: o.tessera, projectDir: ws.tesseraProject, logFile: path.join(ws.logs, 'tessera.log'), cpuProfDir: profDir, responseCache: o.responseCache !== 'off' });
    try {
      if (o.warmup > 0) await runLoad({ url: s.url, request: c.load(ctx), connections: o.connections, duration: o.warmup, timeout: o.timeout });
      const r = await runLoad({ url: s.url, request: c.load(ctx), connections: o.connections, duration: o.duration, timeout: o.timeout });
      o.log(`${c.id}: ${Math.round(r.rps)} req/s under the profiler (p50 ${r.p50} ms, p99 ${r.p99} ms)`);
    } finally {
      await s.stop();
    }
    const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('no .cpuprofile written (did Tessera exit cleanly on SIGTERM?)');
    const keepDir = path.join(o.cacheDir, 'profiles');
    fs.mkdirSync(keepDir, { recursive: true });
    const kept = path.join(keepDir, `${c.id}-${new Date().toISOString().slice(0, 10)}.cpuprofile`);
    fs.copyFileSync(path.join(profDir, file), kept);
    const md = profileMarkdown(`${c.title} (\`${c.example}\`), ${o.articles.toLocaleString('en-US')} articles`, summarizeProfile(kept, o.tessera));
    fs.writeFileSync(kept.replace(/\.cpuprofile$/, '.md'), md);
    o.log(md);
    o.log(`profile: ${path.relative(process.cwd(), kept)} and its summary ${path.relative(process.cwd(), kept.replace(/\.cpuprofile$/, '.md'))} (open the .cpuprofile in Chrome DevTools > Performance, or speedscope, for a flame graph)`);
    return md;
  } finally {
    if (!o.keep) fs.rmSync(ws.dir, { recursive: true, force: true });
  }
}

/** --explain <case>: every statement Tessera runs for one request of the case, with SQLite's plan. */
export async function explainCase(o: RunOptions, caseId: string): Promise<string> {
  const c = CASES.find((k) => k.id === caseId);
  if (!c) throw new Error(`unknown case ${caseId}`);
  const ctx: CaseContext = { shape: { ...DEFAULT_SHAPE, articles: o.articles }, runId: Date.now().toString(36) };
  const { file: dataset } = await ensureDataset(o.articles, o.log, o.cacheDir);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-explain-'));
  try {
    const project = makeProjectCopy(path.join(dir, 'p'), dataset);
    // the response cache off unless --response-cache on: the request after the warm-up would be a hit, no SQL
    const tessera = await openTesseraInProcess(o.tessera, project, o.responseCache === 'on');
    let sql: CapturedSql[];
    try {
      const [first] = c.inject(ctx, 1);
      await injectOne(tessera, first); // warm caches
      const [req] = c.inject(ctx, 1);
      ({ sql } = await captureSql(o.tessera, () => injectOne(tessera, req)));
    } finally {
      await tessera.close();
    }
    const L = [`### Statements of one request: ${c.title}`, '', `\`${c.example}\` on ${o.articles.toLocaleString('en-US')} articles: ${sql.length} statement executions.`, ''];
    for (const e of explain(path.join(project, '.tmp/data.db'), sql)) {
      L.push(`- ${e.runs > 1 ? `${e.runs}× ` : ''}\`${e.sql.length > 300 ? `${e.sql.slice(0, 300)}…` : e.sql}\``);
      for (const p of e.plan) L.push(`  - ${e.warnings.includes(p) ? '**' : ''}${p}${e.warnings.includes(p) ? '**' : ''}`);
    }
    const md = L.join('\n') + '\n';
    o.log(md);
    return md;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
