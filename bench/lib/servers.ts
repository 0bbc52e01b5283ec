// The servers under test as child processes on loopback: Tessera (its CLI; with the response cache on, and
// off), the floor (both variants), the bare node:http limit and real Strapi 4.26.2 (its own start/stop scripts). Each start is timed from spawn to the first
// successful answer (cold start); memory is read from /proc/<pid>/status.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { BENCH_DIR, copyUploads, FIXTURE_DATA } from './fixture';

/**
 * `tessera`: Tessera as --response-cache says (the cache on, unless `off`); `tessera-nocache`: the same with
 * TESSERA_RESPONSE_CACHE=off, beside it with `both`; `bare`: node:http sending Tessera's stored answers.
 */
export type ServerName = 'tessera' | 'tessera-nocache' | 'floor-js' | 'floor-sql' | 'floor-pg' | 'bare' | 'strapi';

export interface RunningServer {
  name: ServerName;
  url: string;
  pid: number;
  /** spawn -> first 200 on the probe URL, ms */
  coldStartMs: number;
  /** resident memory now, MB */
  rssMb(): number;
  /** CPU time used so far, seconds (its children's too) */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export const PROBE_PATH = '/api/articles';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export function rssMbOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** the process's children (Linux /proc; none where it cannot tell) */
function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** resident memory of a process and its children together (`tessera start --workers N`: the primary and its workers) */
export function rssMbOfTree(pid: number): number {
  return [pid, ...childrenOf(pid)].reduce((sum, p) => sum + (rssMbOf(p) || 0), 0) || NaN;
}

/** CPU seconds (user + system) a process has used; NaN once it is gone (Linux /proc) */
function cpuSecondsOf(pid: number): number {
  try {
    // the fields after the command name, which may hold spaces: state is field 3, utime 14 and stime 15
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** USER_HZ, the unit of /proc/<pid>/stat times: 100 on every Linux this runs on */
const CLOCK_TICKS = 100;

export const cpuSecondsOfTree = (pid: number): number => [pid, ...childrenOf(pid)].reduce((sum, p) => sum + (cpuSecondsOf(p) || 0), 0);

/**
 * Waits until the server works no more (under 20 % of a core over 250 ms), at most `maxMs`; true if it did.
 * A slow server is still answering the requests autocannon gave up on when a run ended (10 connections ×
 * seconds each for real Strapi on a large table): the next measurement must not pay for them.
 */
export async function waitIdle(s: RunningServer, maxMs: number): Promise<boolean> {
  const t0 = performance.now();
  for (;;) {
    const before = s.cpuSeconds();
    await sleep(250);
    const busy = s.cpuSeconds() - before;
    if (!(busy >= 0.05)) return true; // NaN: the process is gone, nothing to wait for
    if (performance.now() - t0 > maxMs) return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `url` until it answers 200; returns the time since `t0`. */
async function waitForAnswer(url: string, t0: number, timeoutMs: number, alive: () => boolean, what: string, logFile: string): Promise<number> {
  // a request sent while the server starts may never be answered: sent again after 5 s; the limit doubles each
  // time, since the first answer on a large, cold database may take longer than that (real Strapi at 1M articles)
  let perTry = 5000;
  for (;;) {
    const sent = performance.now();
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(perTry) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - t0;
    } catch (err) {
      // not listening yet, or no answer in time (noted in the server's log: it inflates the cold start)
      if ((err as Error).name === 'TimeoutError') {
        fs.appendFileSync(logFile, `[bench] GET ${url} sent ${Math.round(sent - t0)} ms after spawn: no answer within ${perTry} ms, sent again\n`);
        perTry = Math.min(2 * perTry, 60_000);
      }
    }
    if (!alive()) throw new Error(`${what} exited before answering; see ${logFile}:\n${tail(logFile)}`);
    if (performance.now() - t0 > timeoutMs) throw new Error(`${what} did not answer ${url} within ${timeoutMs} ms; see ${logFile}`);
    await sleep(10);
  }
}

/** waits until the log file has a line matching `re` (the first answer may come before every process serves) */
async function waitForLine(logFile: string, re: RegExp, t0: number, timeoutMs: number, alive: () => boolean, what: string): Promise<void> {
  while (!re.test(fs.readFileSync(logFile, 'utf8'))) {
    if (!alive()) throw new Error(`${what} exited; see ${logFile}:\n${tail(logFile)}`);
    if (performance.now() - t0 > timeoutMs) throw new Error(`${what} did not log ${re} within ${timeoutMs} ms; see ${logFile}`);
    await sleep(50);
  }
}

function tail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

function stopChild(child: ChildProcess, name: string): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => {
      process.stderr.write(`${name} (pid ${child.pid}) did not stop within 15 s: SIGKILL\n`);
      child.kill('SIGKILL');
    }, 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function startChild(name: ServerName, cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; port: number; logFile: string; timeoutMs?: number; ready?: RegExp }): Promise<RunningServer> {
  const out = fs.openSync(opts.logFile, 'a');
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const url = `http://127.0.0.1:${opts.port}`;
  try {
    const alive = () => child.exitCode === null && child.signalCode === null;
    const coldStartMs = await waitForAnswer(url + PROBE_PATH, t0, opts.timeoutMs ?? 60_000, alive, name, opts.logFile);
    if (opts.ready) await waitForLine(opts.logFile, opts.ready, t0, opts.timeoutMs ?? 60_000, alive, name);
    return { name, url, pid: child.pid!, coldStartMs, rssMb: () => rssMbOfTree(child.pid!), cpuSeconds: () => cpuSecondsOfTree(child.pid!), stop: () => stopChild(child, name) };
  } catch (err) {
    await stopChild(child, name);
    throw err;
  }
}

export interface TesseraStart {
  /** the Tessera checkout under test (its bin/tessera.js) */
  repo: string;
  projectDir: string;
  logFile: string;
  /** write a V8 CPU profile into this folder when the process exits */
  cpuProfDir?: string;
  /** `tessera start --workers N` (default 1: one process) */
  workers?: number;
  /** `tessera-nocache` for the second Tessera of `--response-cache both` */
  name?: 'tessera' | 'tessera-nocache';
  /** the response cache on or off (TESSERA_RESPONSE_CACHE); the project's config when unset */
  responseCache?: boolean;
  /** how long it may take to answer, ms (default 60 s; a large dataset's first start builds Tessera's indexes) */
  timeoutMs?: number;
}

/**
 * A checkout whose bin/tessera.js runs a compiled build (bin/build.js) builds it on demand; doing that
 * here, untimed, keeps a build after a source change out of the cold start.
 */
function buildTessera(repo: string): void {
  const build = path.join(repo, 'bin/build.js');
  if (!fs.existsSync(build)) return;
  const r = spawnSync(process.execPath, [build], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${build} failed: ${r.stderr || r.error?.message}`);
}

export async function startTessera(o: TesseraStart): Promise<RunningServer> {
  buildTessera(o.repo);
  const port = await freePort();
  const node = [...(o.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfDir}`] : []), path.join(o.repo, 'bin/tessera.js')];
  const workers = o.workers && o.workers > 1 ? ['--workers', String(o.workers)] : [];
  // with workers, the first one answers before the others start: measured once every one serves
  const env = { ...process.env, NODE_ENV: 'production', ...(o.responseCache === undefined ? {} : { TESSERA_RESPONSE_CACHE: o.responseCache ? 'on' : 'off' }) };
  return startChild(o.name ?? 'tessera', process.execPath, [...node, 'start', o.projectDir, '--host', '127.0.0.1', '--port', String(port), ...workers], {
    cwd: o.projectDir, port, logFile: o.logFile, env, ready: workers.length ? /\d+ workers serving/ : undefined, timeoutMs: o.timeoutMs,
  });
}

/**
 * The bare node:http server (floor/bare-http.ts): it fetches `requestsFile`'s requests from `from` (Tessera)
 * once at start and answers each with the bytes it got. The file must hold GET PROBE_PATH.
 */
export async function startBare(o: { from: string; requestsFile: string; logFile: string }): Promise<RunningServer> {
  const port = await freePort();
  return startChild('bare', process.execPath, ['-r', 'tsx/cjs', path.join(BENCH_DIR, 'floor/bare-http.ts'), '--from', o.from, '--requests', o.requestsFile, '--port', String(port)], {
    cwd: BENCH_DIR, port, logFile: o.logFile, env: { ...process.env, NODE_ENV: 'production' },
  });
}

/** `db`: the SQLite file, or the pg variant's connection string */
export async function startFloor(o: { variant: 'js' | 'sql' | 'pg'; db: string; logFile: string }): Promise<RunningServer> {
  const port = await freePort();
  return startChild(`floor-${o.variant}`, process.execPath, ['-r', 'tsx/cjs', path.join(BENCH_DIR, 'floor/server.ts'), '--db', o.db, '--variant', o.variant, '--port', String(port)], {
    cwd: BENCH_DIR, port, logFile: o.logFile, env: { ...process.env, NODE_ENV: 'production' },
  });
}

export interface StrapiStart {
  /** the folder real Strapi 4.26.2 was installed into (../shared/strapi4/setup.sh DEST) */
  dir: string;
  port: number;
  /** database to serve (copied to DIR/.tmp/data.db) */
  db: string;
  /** on PostgreSQL: the database to serve instead, given as DATABASE_URL (DIR's config/database.js reads it, as ~/strapi4-pg's does) */
  databaseUrl?: string;
  logFile: string;
  /** how long it may take to answer, ms (default 180 s) */
  timeoutMs?: number;
}

function strapiPid(dir: string): number | null {
  const f = path.join(dir, '.tmp/strapi.pid');
  if (!fs.existsSync(f)) return null;
  const pid = Number(fs.readFileSync(f, 'utf8').trim());
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

export function stopStrapi(dir: string): void {
  if (strapiPid(dir) !== null) spawnSync('bash', [path.join(dir, 'stop.sh')], { stdio: 'ignore', timeout: 30_000 });
}

/** Real Strapi in production mode through its own start.sh, on a copy of `db` and the fixture uploads. */
export async function startStrapi(o: StrapiStart): Promise<RunningServer> {
  if (!fs.existsSync(path.join(o.dir, 'start.sh'))) throw new Error(`no Strapi installation in ${o.dir} (install one with ../shared/strapi4/setup.sh DIR, then pass --strapi-dir DIR)`);
  stopStrapi(o.dir); // our benchmark copy only: stop.sh stops the PID in its own pid file
  const tmp = path.join(o.dir, '.tmp');
  fs.mkdirSync(tmp, { recursive: true });
  for (const f of ['data.db', 'data.db-wal', 'data.db-shm']) fs.rmSync(path.join(tmp, f), { force: true });
  if (!o.databaseUrl) {
    fs.copyFileSync(o.db, path.join(tmp, 'data.db'));
    fs.chmodSync(path.join(tmp, 'data.db'), 0o644);
  }
  fs.copyFileSync(path.join(FIXTURE_DATA, 'token.txt'), path.join(tmp, 'token.txt'));
  copyUploads(path.join(o.dir, 'public/uploads'));
  const t0 = performance.now();
  const out = fs.openSync(o.logFile, 'a');
  const env = { ...process.env, PORT: String(o.port), ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}) };
  const script = spawn('bash', [path.join(o.dir, 'start.sh'), '--prod'], { cwd: o.dir, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const url = `http://127.0.0.1:${o.port}`;
  let scriptDone = false;
  script.once('exit', () => { scriptDone = true; });
  // start.sh returns once /_health answers; the cold start is measured to the first real answer
  const coldStartMs = await waitForAnswer(url + PROBE_PATH, t0, o.timeoutMs ?? 180_000, () => !scriptDone || strapiPid(o.dir) !== null, 'strapi', o.logFile);
  const pid = strapiPid(o.dir);
  if (pid === null) throw new Error(`Strapi answered but ${o.dir}/.tmp/strapi.pid names no live process`);
  return {
    name: 'strapi', url, pid, coldStartMs,
    rssMb: () => rssMbOf(pid),
    cpuSeconds: () => cpuSecondsOf(pid),
    async stop() { stopStrapi(o.dir); },
  };
}

/** Peak RSS of a set of processes while `fn` runs, sampled every 200 ms. */
export async function withRssSampling<T>(servers: RunningServer[], fn: () => Promise<T>): Promise<{ result: T; peakMb: Map<ServerName, number> }> {
  const peak = new Map<ServerName, number>();
  const sample = () => {
    for (const s of servers) {
      const v = s.rssMb();
      if (Number.isFinite(v) && v > (peak.get(s.name) ?? 0)) peak.set(s.name, v);
    }
  };
  sample();
  const timer = setInterval(sample, 200);
  try {
    const result = await fn();
    sample();
    return { result, peakMb: peak };
  } finally {
    clearInterval(timer);
  }
}
