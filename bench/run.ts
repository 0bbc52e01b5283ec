// `npm run bench`: Tessera against the hand-written floor (and, with --vs-strapi, real Strapi 4.26.2) on
// the same generated database. See bench/README.md for the options and how to read the results.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CASES, gqlListRequest, type BenchCase, type CaseContext, type InjectRequest } from './cases';
import { explainCase, profileCase } from './diagnose';
import { ensureDataset } from './generate';
import { ratioChart } from './lib/chart';
import { compareServers, fetchJson } from './lib/compare';
import { DEFAULT_SHAPE } from './lib/content';
import { graphqlCompared, graphqlFailedUnderLoad, graphqlFailure } from './lib/graphql';
import { BENCH_DIR, FIXTURE_DATA, makeProjectCopy, REPO } from './lib/fixture';
import { runLoad, withHeaders, type LoadRequest } from './lib/load';
import { DEFAULT_ARTICLES, parseOptions, type RunOptions } from './lib/options';
import { clonesOf, ensurePostgresDataset, pointProjectAt, type Clones } from './lib/postgres';
import { aggregate, consoleReport, fmt, markdownReport, tesseraLabel, withRatios, type CaseResult, type Measurement, type RunSummary } from './lib/report';
import { PROBE_PATH, startBare, startFloor, startStrapi, startTessera, waitIdle, withRssSampling, type RunningServer, type ServerName } from './lib/servers';
import { conditionalOn, countStatements, openFloorInProcess, openTesseraInProcess, timeInProcess } from './lib/statements';
import { evaluateCacheTargets, evaluateTargets } from './lib/targets';
import { sizeLabel } from './lib/size';
import { makeWorkspace, scratch, type Workspace } from './lib/workspace';

export { parseOptions, type RunOptions };

const loadavg = () => os.loadavg()[0];

/**
 * How long a server may take to start on `articles` articles: a first start on a large v4 database builds
 * Tessera's own indexes, and real Strapi reads a cold file (1M articles: ~2 GB).
 */
const startLimitMs = (articles: number) => 60_000 + Math.ceil(articles / 100_000) * 30_000;

/** how long a server may take to finish the requests a load run left (see waitIdle) */
const IDLE_WAIT_MS = 60_000;

/** servers to stop if the run is interrupted (Ctrl-C): real Strapi runs detached through its start.sh */
const interrupted = new Set<RunningServer>();
/** the run's PostgreSQL databases, dropped if it is interrupted */
let runClones: Clones | undefined;

/**
 * Where each server's data lives: on SQLite a copy of the dataset file (the workspace's), on PostgreSQL a copy
 * of the dataset's template database per server (bench/lib/postgres.ts).
 */
interface Databases {
  /** points a project copy at its own database (SQLite: the file already in it) */
  project(dir: string, label: string): Promise<void>;
  /** the floor's database: the SQLite file, or a connection string */
  floor(file: string): Promise<string>;
  /** real Strapi's DATABASE_URL on PostgreSQL */
  strapi(): Promise<string | undefined>;
}

async function databasesFor(o: RunOptions, dataset: string, runId: string): Promise<Databases> {
  const adminUrl = o.postgres;
  if (!adminUrl) return { project: async () => undefined, floor: async (file) => file, strapi: async () => undefined };
  const template = await ensurePostgresDataset(adminUrl, o.pgPrefix, dataset, o.log);
  const clones = clonesOf(adminUrl, o.pgPrefix, template, runId);
  runClones = clones;
  return {
    project: async (dir, label) => pointProjectAt(dir, await clones.clone(label)),
    floor: () => clones.clone('floor'),
    strapi: () => clones.clone('strapi'),
  };
}

function describeTessera(repo: string): string {
  try {
    const commit = execFileSync('git', ['-C', repo, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['-C', repo, 'status', '--porcelain', '--', 'src', 'bin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return `${repo === REPO ? 'this checkout' : repo} at ${commit}${dirty ? ` with uncommitted changes in src/ (${dirty.split('\n').length} files)` : ''}`;
  } catch {
    return `${repo} (not a git checkout)`;
  }
}

interface InProcessResults {
  statements: Map<string, CaseResult['statements']>;
  micros: Map<string, CaseResult['inProcessUs']>;
  vsRows: RunSummary['statementsVsRows'];
}

/** the floor variants to run: none when no case has a floor (GraphQL and writes only) */
const floorsFor = (o: RunOptions, cases: BenchCase[]) => (cases.some((c) => c.floor) ? o.floors : []);

/** what of a case's answers must agree between servers, and what makes one a failure (beyond the status) */
const answerRules = (c: BenchCase) => (c.graphql ? { compared: graphqlCompared, failure: graphqlFailure, failedUnderLoad: graphqlFailedUnderLoad } : {});

/** statements per request must not grow with the rows returned: these requests at pageSize 1, 10, 25, 100 */
const VS_ROWS: { label: string; request(size: number): InjectRequest; failure(status: number, text: string): string | null }[] = [
  ...['/api/articles?populate=*', '/api/articles?populate[author]=true&populate[categories]=true', '/api/articles'].map((base) => ({
    label: base,
    request: (size: number): InjectRequest => ({ method: 'GET', url: `${base}${base.includes('?') ? '&' : '?'}pagination[pageSize]=${size}` }),
    failure: (status: number) => (status === 200 ? null : `status ${status}`),
  })),
  { label: 'POST /graphql (gql-list)', request: gqlListRequest, failure: graphqlFailure },
];

/** the Tessera servers of a run: `tessera` (the cache on unless --response-cache off), and with `both` `tessera-nocache` */
function tesseraRuns(o: RunOptions): { name: 'tessera' | 'tessera-nocache'; cache: boolean }[] {
  if (o.responseCache === 'both') return [{ name: 'tessera', cache: true }, { name: 'tessera-nocache', cache: false }];
  return [{ name: 'tessera', cache: o.responseCache === 'on' }];
}

/** Statements per request and in-process time per request, Tessera and the floors side by side in this process. */
async function measureInProcess(o: RunOptions, cases: BenchCase[], ctx: CaseContext, ws: TesseraWorkspace, dbs: Databases, notes: string[]): Promise<InProcessResults> {
  const statements = new Map<string, CaseResult['statements']>();
  const micros = new Map<string, CaseResult['inProcessUs']>();
  const tesseras: (ReturnType<typeof tesseraRuns>[number] & { target: Awaited<ReturnType<typeof openTesseraInProcess>> })[] = [];
  const floors = floorsFor(o, cases).map((v) => ({ name: `floor-${v}` as const, target: openFloorInProcess(ws.floorDb, v) }));
  const vsRows: RunSummary['statementsVsRows'] = [];
  try {
    // each on its own copy: the write cases write to it
    for (const t of tesseraRuns(o)) {
      const project = makeProjectCopy(path.join(ws.dir, `statements-${t.name}`), ws.tesseraDb);
      await dbs.project(project, `statements-${t.name}`);
      tesseras.push({ ...t, target: await openTesseraInProcess(o.tessera, project, t.cache) });
    }
    for (const c of cases) {
      const st: CaseResult['statements'] = {};
      for (const t of tesseras) {
        const requests = c.conditional ? await conditionalOn(t.target, c.inject(ctx, 6)) : c.inject(ctx, 6);
        // with the cache, a read's requests are counted once kept: the hits, which are what the load measures
        const count = (st[t.name] = await countStatements(t.target, requests, answerRules(c).failure, t.cache && c.kind === 'read'));
        if (count.failures) {
          notes.push(`${c.title}: ${tesseraLabel(t.name, o.responseCache)}'s answers in-process failed: ${count.failures.join('; ')}`);
          o.log(`  ${c.id}: ${t.name}'s answers in-process failed: ${count.failures.join('; ')}`);
        }
      }
      if (c.floor) for (const f of floors) st[f.name] = await countStatements(f.target, c.inject(ctx, 6));
      statements.set(c.id, st);
      if (c.kind === 'read') {
        const requests = c.inject(ctx, 20);
        const targets = [];
        for (const t of tesseras) targets.push({ name: t.name, target: t.target, requests: c.conditional ? await conditionalOn(t.target, requests) : requests });
        if (c.floor) targets.push(...floors.map((f) => ({ ...f, requests })));
        const us = await timeInProcess(targets, o.duration < 1 ? 1 : 5, o.duration < 1 ? 5 : 40, o.duration < 1 ? 200 : 2000);
        micros.set(c.id, Object.fromEntries(us) as CaseResult['inProcessUs']);
      }
    }
    // the read path's statements: without the cache when it runs (a hit runs none)
    const readPath = (tesseras.find((t) => !t.cache) ?? tesseras[0]).target;
    for (const row of VS_ROWS) {
      const perPageSize: Record<string, number> = {};
      const failures: string[] = [];
      for (const size of [1, 10, 25, 100]) {
        const r = row.request(size);
        const count = await countStatements(readPath, [r, r], row.failure);
        perPageSize[size] = count.perRequest;
        if (count.failures) failures.push(`pageSize ${size}: ${count.failures[0]}`);
      }
      // a failed answer's count says nothing about rows
      if (failures.length) notes.push(`Statements vs rows, ${row.label}: left out, the request failed (${failures[0]}).`);
      else vsRows.push({ url: row.label, perPageSize });
    }
  } finally {
    for (const t of tesseras) await t.target.close();
    for (const f of floors) await f.target.close();
  }
  return { statements, micros, vsRows };
}

/** the workspace, and the dataset as Tessera leaves it after its first start: where every Tessera of the run starts from */
type TesseraWorkspace = Workspace & { tesseraDb: string };

/**
 * Tessera's first start on a v4 database builds its own indexes (src/storage/schema/tessera-indexes.ts): about
 * a minute at 1M articles. Done once here on the workspace's copy and timed; on SQLite every Tessera of the run
 * then starts from a copy of that file, so its start is a cold start (on PostgreSQL each server's database
 * is a copy of the template: each first start builds them).
 */
async function firstStart(o: RunOptions, ws: Workspace): Promise<{ ms: number; tesseraDb: string }> {
  const s = await startTessera({ repo: o.tessera, projectDir: ws.tesseraProject, logFile: path.join(ws.logs, 'tessera-first.log'), timeoutMs: startLimitMs(o.articles) });
  interrupted.add(s);
  await s.stop();
  interrupted.delete(s);
  const db = path.join(ws.tesseraProject, '.tmp/data.db');
  // a clean stop leaves the file complete (the WAL checkpointed and removed)
  if (fs.existsSync(`${db}-wal`) && fs.statSync(`${db}-wal`).size > 0) throw new Error(`Tessera left ${db}-wal after its first start; see ${ws.logs}/tessera-first.log`);
  const tesseraDb = path.join(ws.dir, 'tessera-ready.db');
  if (!o.postgres) fs.copyFileSync(db, tesseraDb);
  return { ms: s.coldStartMs, tesseraDb: o.postgres ? db : tesseraDb };
}

async function postgresVersion(adminUrl: string): Promise<string> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return `PostgreSQL ${(await c.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0].v}`;
  } finally {
    await c.end();
  }
}

async function coldStarts(o: RunOptions, ws: Workspace): Promise<RunSummary['coldStart']> {
  const out: RunSummary['coldStart'] = [];
  const sets: { label: string; db: string; articles: number }[] = [{ label: 'fixture app', db: path.join(FIXTURE_DATA, 'data.db'), articles: 0 }];
  for (const n of o.coldSizes) sets.push({ label: `${n.toLocaleString('en-US')} articles`, db: (await ensureDataset(n, o.log, o.cacheDir)).file, articles: n });
  for (const set of sets) {
    const project = makeProjectCopy(path.join(ws.dir, 'cold'), set.db);
    const ms: number[] = [];
    for (let i = 0; i < o.coldTries; i++) {
      const s = await startTessera({ repo: o.tessera, projectDir: project, logFile: path.join(ws.logs, 'tessera-cold.log'), timeoutMs: startLimitMs(set.articles) });
      interrupted.add(s);
      ms.push(s.coldStartMs);
      await s.stop();
      interrupted.delete(s);
    }
    out.push({ server: 'tessera', dataset: set.label, ms });
    o.log(`cold start tessera, ${set.label}: ${ms.map((m) => Math.round(m)).join(' / ')} ms`);
    if (o.vsStrapi) {
      const sms: number[] = [];
      for (let i = 0; i < o.coldTries; i++) {
        const s = await startStrapi({ dir: o.strapiDir, port: o.strapiPort, db: set.db, logFile: path.join(ws.logs, 'strapi-cold.log'), timeoutMs: startLimitMs(set.articles) });
        interrupted.add(s);
        sms.push(s.coldStartMs);
        await s.stop();
        interrupted.delete(s);
      }
      out.push({ server: 'strapi', dataset: set.label, ms: sms });
      o.log(`cold start strapi, ${set.label}: ${sms.map((m) => Math.round(m)).join(' / ')} ms`);
    }
  }
  fs.rmSync(path.join(ws.dir, 'cold'), { recursive: true, force: true });
  return out;
}

/** the ETag a server gives for the load's first request, or undefined (it sends none) */
async function etagOf(s: RunningServer, r: LoadRequest): Promise<string | undefined> {
  const res = await fetch(s.url + r.path, { method: r.method, body: r.body, headers: { 'content-type': 'application/json', ...r.headers }, signal: AbortSignal.timeout(30_000) });
  await res.arrayBuffer();
  return res.headers.get('etag') ?? undefined;
}

/** per conditional case, the servers that gave an ETag (so were sent If-None-Match) and those that gave none */
const conditionalSeen = new Map<string, Map<ServerName, boolean>>();

async function measureOnce(o: RunOptions, c: BenchCase, ctx: CaseContext, s: RunningServer, all: RunningServer[], pass: number): Promise<Measurement> {
  let request = c.load(ctx);
  if (c.conditional) {
    // the ETag this server gives now; none: the plain request
    const etag = await etagOf(s, request);
    if (!conditionalSeen.has(c.id)) conditionalSeen.set(c.id, new Map());
    conditionalSeen.get(c.id)!.set(s.name, etag !== undefined);
    if (etag) request = withHeaders(request, { 'if-none-match': etag });
  }
  // each load run starts on a server done with the previous run's abandoned requests
  const settle = async (after: string) => {
    if (!(await waitIdle(s, IDLE_WAIT_MS))) o.log(`  ${s.name} still busy ${IDLE_WAIT_MS / 1000} s after ${after}`);
  };
  await settle('the previous run');
  if (o.warmup > 0) {
    await runLoad({ url: s.url, request, connections: o.connections, duration: o.warmup, timeout: o.timeout, notModifiedOk: c.conditional });
    await settle('the warm-up');
  }
  const la = loadavg();
  const failed = answerRules(c).failedUnderLoad;
  const { result, peakMb } = await withRssSampling(all, () => runLoad({ url: s.url, request, connections: o.connections, duration: o.duration, timeout: o.timeout, failed, notModifiedOk: c.conditional }));
  const m: Measurement = { caseId: c.id, server: s.name, pass, load: result, rssPeakMb: peakMb.get(s.name) ?? NaN, loadavg: la };
  const tags = result.tagged ? `  (${Object.entries(result.tagged).map(([t, n]) => `${t}s ${Math.round(n / result.seconds)}/s`).join(', ')})` : '';
  const notModified = result.notModified ? `  (${result.notModified} × 304)` : '';
  o.log(`  pass ${pass}  ${c.id.padEnd(15)} ${s.name.padEnd(15)} ${Math.round(result.rps).toString().padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  RSS ${Math.round(m.rssPeakMb)} MB${result.non2xx || result.errors || result.timeouts || result.failed ? `  (${result.non2xx} non-2xx, ${result.errors} errors, of which ${result.timeouts} timeouts${failed ? `, ${result.failed} 2xx with errors` : ''})` : ''}${tags}${notModified}  load ${la.toFixed(2)}`);
  return m;
}

/** One request of a write case on a server: 200 (and no GraphQL `errors`), or why not (so a broken write is not measured as fast). */
async function probeWrite(c: BenchCase, ctx: CaseContext, s: RunningServer): Promise<string | null> {
  const r = c.load({ ...ctx, runId: `${ctx.runId}p` });
  const req = r.setup ? r.setup({ method: r.method, path: r.path, body: r.body, headers: r.headers }) : r;
  const res = await fetch(s.url + req.path, { method: req.method, body: req.body, headers: { 'content-type': 'application/json', ...req.headers }, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  const failure = answerRules(c).failure;
  if (failure) return failure(res.status, text);
  return res.status === 200 ? null : `${res.status} ${text.slice(0, 200)}`;
}

function writeResults(o: RunOptions, summary: RunSummary): { json: string; md: string; svg: string } {
  fs.mkdirSync(o.out, { recursive: true });
  // a run on PostgreSQL or with workers beside the day's SQLite one; latest.* is the default run's
  const variant = `${o.articles === DEFAULT_ARTICLES ? '' : `-${sizeLabel(o.articles)}`}${o.postgres ? '-postgres' : ''}${o.workers > 1 ? `-workers${o.workers}` : ''}`;
  const stem = path.join(o.out, summary.date + variant);
  const svg = ratioChart(summary);
  fs.writeFileSync(`${stem}.svg`, svg);
  fs.writeFileSync(`${stem}.json`, JSON.stringify(summary, null, 2) + '\n');
  fs.writeFileSync(`${stem}.md`, markdownReport(summary, `${path.basename(stem)}.svg`));
  if (o.latest && !variant) {
    fs.writeFileSync(path.join(o.out, 'latest.svg'), svg);
    fs.writeFileSync(path.join(o.out, 'latest.md'), markdownReport(summary, 'latest.svg'));
  }
  return { json: `${stem}.json`, md: `${stem}.md`, svg: `${stem}.svg` };
}

/** the notes on the response cache's side of a run: which Tessera is which, the ratios to bare node:http, the mixed and revalidate cases */
function cacheNotes(o: RunOptions, results: CaseResult[]): string[] {
  const notes: string[] = [];
  const label = (name: ServerName) => (name === 'tessera' || name === 'tessera-nocache' ? tesseraLabel(name, o.responseCache) : name === 'bare' ? 'bare node:http' : name);
  notes.push(o.responseCache === 'both'
    ? 'Response cache: `tessera` is Tessera (cache) (TESSERA_RESPONSE_CACHE=on), `tessera-nocache` is Tessera (no cache) (TESSERA_RESPONSE_CACHE=off), two processes, each on its own copy of the dataset; the issue 8 targets read Tessera (no cache). With the cache on, the repeated requests of a read case are hits once kept (the warm-up keeps them); SQL/req of Tessera (cache) counts the hits.'
    : `Response cache: ${o.responseCache} (TESSERA_RESPONSE_CACHE=${o.responseCache}).`);
  const bare = results.filter((c) => c.servers.bare);
  if (bare.length) {
    notes.push(`bare node:http (floor/bare-http.ts): a plain node:http server sending the bytes Tessera answered (fetched once at its start, kept by method + url + body, with the same content type and ETag; 304 to a matching If-None-Match): the limit for sending those answers on this machine. ${label('tessera')} ÷ bare node:http: ${bare.map((c) => `${c.id} ${fmt.ratio(c.vsBare)}`).join(', ')}.${bare.some((c) => c.noCache?.vsBare !== undefined) ? ` Tessera (no cache) ÷ bare: ${bare.map((c) => `${c.id} ${fmt.ratio(c.noCache?.vsBare)}`).join(', ')}.` : ''}`);
  }
  const mixed = results.find((c) => c.id === 'mixed');
  if (mixed) {
    const rates = Object.entries(mixed.servers).map(([name, r]) => `${label(name as ServerName)} ${fmt.int(r.perTag?.read)} / ${fmt.int(r.perTag?.write)}`);
    notes.push(`mixed: its req/s is reads and writes together (every 20th request a PUT of a random article's title with the API token; the reads rotate over list, populate=* and findOne); reads/s / writes/s: ${rates.join(', ')}.`);
  }
  for (const [id, seen] of conditionalSeen) {
    const withEtag = [...seen].filter(([, e]) => e).map(([n]) => label(n));
    const without = [...seen].filter(([, e]) => !e).map(([n]) => label(n));
    notes.push(`${id}: sent If-None-Match with the ETag the server gave (304s): ${withEtag.join(', ') || 'none'}; no ETag, so the plain request (full answers): ${without.join(', ') || 'none'}.`);
  }
  return notes;
}

export async function runBenchmark(o: RunOptions): Promise<{ summary: RunSummary; files: { json: string; md: string; svg: string } }> {
  const runId = Date.now().toString(36);
  conditionalSeen.clear();
  const loadStart = os.loadavg();
  // in the order asked for (a group's order)
  const cases = o.cases.map((id) => CASES.find((c) => c.id === id)!);
  const ctx: CaseContext = { shape: { ...DEFAULT_SHAPE, articles: o.articles }, runId };
  const { file: dataset } = await ensureDataset(o.articles, o.log, o.cacheDir);
  const dbs = await databasesFor(o, dataset, runId);
  const sqliteWs = makeWorkspace(o, dataset, runId);
  await dbs.project(sqliteWs.tesseraProject, 'tessera');
  const ws = { ...sqliteWs, floorDb: await dbs.floor(sqliteWs.floorDb) };
  const running: RunningServer[] = [];
  const notes: string[] = [
    'Servers run as separate processes on 127.0.0.1; the load generator (autocannon, in the runner process) shares the same cores, as in ../shared/spec/stack-notes.md.',
  ];
  const graphqlCases = cases.filter((c) => c.graphql).map((c) => c.id);
  if (graphqlCases.length) {
    const note = `GraphQL cases (${graphqlCases.join(', ')}): no floor, the floor server has no GraphQL; Tessera is compared with real Strapi only, answers by their \`data\` (and error messages).`;
    notes.push(note);
    o.log(note);
  }
  try {
    o.log(`Tessera's first start on the dataset ...`);
    const first = await firstStart(o, sqliteWs);
    const tws = { ...ws, tesseraDb: first.tesseraDb };
    o.log(`statements and time per request, in-process ...`);
    const stmts = await measureInProcess(o, cases, ctx, tws, dbs, notes);
    // on PostgreSQL the cold start is the main dataset's only (the others are SQLite files)
    const coldStart = o.postgres ? [] : await coldStarts(o, ws);
    coldStart.push({ server: 'tessera', dataset: `${o.articles.toLocaleString('en-US')} articles, first start (builds Tessera's indexes)`, ms: [first.ms] });
    if (o.postgres) notes.push(`On PostgreSQL (${await postgresVersion(o.postgres)}): every server on its own copy of one database holding the dataset; the floor is the pg variant (one statement per request, JSON written by PostgreSQL); cold starts of the extra datasets are not measured.`);
    if (o.workers > 1) notes.push(`Tessera ran with \`--workers ${o.workers}\` (its RSS is the primary's and the workers' together).`);

    o.log('starting servers on the dataset ...');
    const idleMb: RunSummary['memory']['idleMb'] = {};
    const [main, ...more] = tesseraRuns(o);
    const tessera = await startTessera({ repo: o.tessera, projectDir: ws.tesseraProject, logFile: path.join(ws.logs, 'tessera.log'), workers: o.workers, name: main.name, responseCache: main.cache, timeoutMs: startLimitMs(o.articles) });
    running.push(tessera);
    interrupted.add(tessera);
    coldStart.push({ server: 'tessera', dataset: `${o.articles.toLocaleString('en-US')} articles`, ms: [tessera.coldStartMs] });
    // the others start side by side (their cold starts are not recorded)
    const starts: Promise<RunningServer>[] = more.map(async (t) => {
      // the second Tessera on its own copy of the dataset: writes of one never reach the other's answers
      const projectDir = makeProjectCopy(path.join(ws.dir, t.name), o.postgres ? dataset : tws.tesseraDb);
      await dbs.project(projectDir, t.name);
      return startTessera({ repo: o.tessera, projectDir, logFile: path.join(ws.logs, `${t.name}.log`), workers: o.workers, name: t.name, responseCache: t.cache, timeoutMs: startLimitMs(o.articles) });
    });
    starts.push(...floorsFor(o, cases).map((v) => startFloor({ variant: v, db: ws.floorDb, logFile: path.join(ws.logs, `floor-${v}.log`) })));
    const started = await Promise.allSettled(starts);
    for (const r of started) {
      if (r.status === 'fulfilled') {
        running.push(r.value);
        interrupted.add(r.value);
      }
    }
    const failedStart = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failedStart) throw failedStart.reason;
    if (o.vsStrapi) {
      const strapi = await startStrapi({ dir: o.strapiDir, port: o.strapiPort, db: dataset, databaseUrl: await dbs.strapi(), logFile: path.join(ws.logs, 'strapi.log'), timeoutMs: startLimitMs(o.articles) });
      running.push(strapi);
      interrupted.add(strapi);
      coldStart.push({ server: 'strapi', dataset: `${o.articles.toLocaleString('en-US')} articles`, ms: [strapi.coldStartMs] });
    } else {
      notes.push('Real Strapi not measured in this run (add --vs-strapi).');
    }
    await new Promise((r) => setTimeout(r, 1000));
    for (const s of running) idleMb[s.name] = s.rssMb();
    const reads = cases.filter((c) => c.kind === 'read');
    if (o.bare && reads.length) {
      // after Tessera's idle RSS is read: the bare server's start asks it every read case's requests (the probe's too)
      const requestsFile = path.join(ws.dir, 'bare-requests.json');
      const requests = [{ method: 'GET', url: PROBE_PATH }, ...reads.flatMap((c) => c.distinct?.(ctx) ?? [])]
        .map((r) => ({ method: r.method, url: r.url, ...('payload' in r && r.payload !== undefined ? { body: JSON.stringify(r.payload) } : {}) }));
      fs.writeFileSync(requestsFile, JSON.stringify(requests));
      const bare = await startBare({ from: tessera.url, requestsFile, logFile: path.join(ws.logs, 'bare.log') });
      running.push(bare);
      interrupted.add(bare);
      await new Promise((r) => setTimeout(r, 1000));
      idleMb.bare = bare.rssMb();
    }

    // answers must be equal before anything is compared; a write case's samples (gql-create) write the
    // same new entry once on each server, after the reads are compared on the dataset as generated
    const answers = new Map<string, CaseResult['answers']>();
    for (const c of [...cases.filter((k) => k.kind === 'read'), ...cases.filter((k) => k.kind === 'write')]) {
      const samples = c.samples(ctx);
      if (!samples.length) continue;
      const a: CaseResult['answers'] = {};
      const others = running.filter((x) => x.name !== 'tessera' && (x.name === 'strapi' || x.name === 'tessera-nocache' || (c.kind === 'read' && (c.floor || x.name === 'bare'))));
      // Tessera without its cache must answer the same bytes as with it
      const diffs = await compareServers(tessera.url, others.map((x) => ({ name: x.name, url: x.url, exactBytes: x.name === 'tessera-nocache' && c.kind === 'read' })), samples, answerRules(c).compared);
      for (const [name, d] of diffs) {
        a[name as ServerName] = d.diffs.length ? `${d.request}: ${d.diffs.join('; ')}` : 'same';
        if (d.diffs.length) o.log(`  ${c.id}: ${name} answers differ from Tessera's at ${d.request}: ${d.diffs.join('; ')}`);
      }
      answers.set(c.id, a);
      // a read whose answer has no entries (a page past the end, a word no title has) would measure nothing
      if (c.kind === 'read' && !c.graphql) {
        const { body } = await fetchJson(tessera.url, samples[0]);
        const data = (body as { data?: unknown } | null)?.data;
        if (data === null || (Array.isArray(data) && data.length === 0)) {
          notes.push(`${c.title}: Tessera's answer to ${samples[0].url} has no entries: the case measures an empty answer.`);
          o.log(`  ${c.id}: the answer to ${samples[0].url} has no entries`);
        }
      }
    }

    const measurements: Measurement[] = [];
    const serversFor = (c: BenchCase, pass: number) => {
      const always = (s: RunningServer) => s.name === 'tessera' || s.name === 'tessera-nocache' || s.name === 'strapi';
      // a floor or the bare server only where it answers as Tessera does
      const list = running.filter((s) => always(s) || (c.kind === 'read' && (c.floor || s.name === 'bare') && answers.get(c.id)?.[s.name] === 'same'));
      return pass % 2 === 0 ? list.reverse() : list; // alternate the order so drift cancels out
    };
    const skipped = new Set<string>();
    const writes = cases.filter((c) => c.kind === 'write');
    for (const c of writes) {
      for (const s of serversFor(c, 1)) {
        const problem = await probeWrite(c, ctx, s);
        if (problem) {
          skipped.add(`${c.id}/${s.name}`);
          notes.push(`${c.title} on ${s.name}: not measured, a request failed: ${problem}`);
          o.log(`  ${c.id} on ${s.name} fails: ${problem}`);
        }
      }
    }
    // reads first, all passes; writes last (they grow the databases)
    for (const group of [cases.filter((c) => c.kind === 'read'), writes]) {
      for (let pass = 1; pass <= o.passes; pass++) {
        for (const c of group) {
          const servers = serversFor(c, pass).filter((s) => !skipped.has(`${c.id}/${s.name}`));
          // --smoke: a case's servers at the same time (autocannon takes a second at least; its figures mean nothing)
          if (o.together) measurements.push(...(await Promise.all(servers.map((s) => measureOnce(o, c, ctx, s, running, pass)))));
          else for (const s of servers) measurements.push(await measureOnce(o, c, ctx, s, running, pass));
        }
      }
    }

    const results: CaseResult[] = cases.map((c) => {
      const servers: CaseResult['servers'] = {};
      for (const s of running) {
        const ms = measurements.filter((m) => m.caseId === c.id && m.server === s.name);
        if (ms.length) servers[s.name] = aggregate(ms);
      }
      return withRatios({ id: c.id, title: c.title, kind: c.kind, example: c.example, ...(c.graphql ? { graphql: true } : {}), servers, statements: stmts.statements.get(c.id) ?? {}, inProcessUs: stmts.micros.get(c.id) ?? {}, answers: answers.get(c.id) ?? {} });
    });
    notes.push(...cacheNotes(o, results));
    const peakMb: RunSummary['memory']['peakMb'] = {};
    for (const m of measurements) peakMb[m.server] = Math.max(peakMb[m.server] ?? 0, m.rssPeakMb);
    const las = measurements.map((m) => m.loadavg);
    const date = new Date().toISOString().slice(0, 10);
    const base: Omit<RunSummary, 'targets'> = {
      date,
      command: o.command,
      settings: { articles: o.articles, duration: o.duration, warmup: o.warmup, passes: o.passes, connections: o.connections, timeout: o.timeout, vsStrapi: o.vsStrapi, database: o.postgres ? 'postgres' : 'sqlite', workers: o.workers, responseCache: o.responseCache },
      environment: {
        node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? '?', loadavgStart: loadStart, loadavgEnd: os.loadavg(),
        tessera: describeTessera(o.tessera),
        note: las.length ? `The 1-minute load average at the start of each measurement ranged ${Math.min(...las).toFixed(2)}–${Math.max(...las).toFixed(2)} (the server and the load generator alone keep it near 1.5–2 on 2 cores; more means other work was running, so compare ratios, not absolute figures).` : '',
      },
      cases: results,
      coldStart,
      memory: { idleMb, peakMb },
      statementsVsRows: stmts.vsRows,
      measurements,
      notes,
    };
    const cacheTargets = evaluateCacheTargets(base);
    const summary: RunSummary = { ...base, targets: evaluateTargets(base), ...(cacheTargets.length ? { cacheTargets } : {}) };
    const files = writeResults(o, summary);
    o.log(consoleReport(summary));
    o.log(`\nwritten: ${path.relative(process.cwd(), files.md)}, ${path.relative(process.cwd(), files.json)}, ${path.relative(process.cwd(), files.svg)}`);
    return { summary, files };
  } finally {
    for (const s of running.reverse()) {
      await s.stop().catch((e) => o.log(`stopping ${s.name}: ${String(e)}`));
      interrupted.delete(s);
    }
    if (!o.keep) fs.rmSync(ws.dir, { recursive: true, force: true });
    else o.log(`workspace kept: ${ws.dir}`);
    await runClones?.dropAll().catch((e) => o.log(`dropping the run's PostgreSQL databases: ${String(e)}`));
  }
}

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help')) {
    console.log(fs.readFileSync(path.join(BENCH_DIR, 'README.md'), 'utf8').split('\n## ')[1] ?? 'see bench/README.md');
    return;
  }
  const o = parseOptions(argv);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the servers`);
      void Promise.all([...[...interrupted].map((s) => s.stop().catch(() => undefined)), runClones?.dropAll().catch(() => undefined)]).then(() => {
        for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
        process.exit(130);
      });
    });
  }
  if (o.profile) await profileCase(o, o.profile);
  else if (o.explain) await explainCase(o, o.explain);
  else await runBenchmark(o);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  });
}
