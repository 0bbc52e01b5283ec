// The scale-app test project (test/fixtures/scale-app) run as real `tessera` processes: a copy per test file,
// an API token made with `tessera token create`, requests on a new connection each (so a cluster's round robin
// hands them to its workers in turn) that tell which process answered (x-served-by).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runTessera, SERVING, type CliRun } from '../../helpers/cli-process';
import { rawRequest } from '../../helpers/raw-http';

export const SCALE_APP = path.resolve(__dirname, '../../fixtures/scale-app');

/** the processes a test file started and the folders it made: stopped and removed by cleanUp() */
export class Started {
  private readonly runs: CliRun[] = [];
  private readonly pids = new Set<number>();
  private readonly dirs: string[] = [];

  /** `tessera <args>` with `env` over the test's */
  run(args: string[], env: Record<string, string> = {}): CliRun {
    const r = runTessera(args, env);
    this.runs.push(r);
    return r;
  }
  /** a worker process the test saw: killed too, should its primary not have stopped it */
  worker(pid: number): void {
    this.pids.add(pid);
  }
  dir(dir: string): string {
    this.dirs.push(dir);
    return dir;
  }
  async cleanUp(): Promise<void> {
    for (const r of this.runs) {
      if (r.child.exitCode === null && r.child.signalCode === null) {
        r.child.kill('SIGTERM');
        const stopped = await Promise.race([r.exited.then(() => true), new Promise((res) => setTimeout(() => res(false), 10_000))]);
        if (!stopped) r.child.kill('SIGKILL');
      }
    }
    for (const pid of this.pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    for (const d of this.dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `tessera start <dir>` on a free port: the running process and its URL once it serves */
export async function startNode(started: Started, dir: string, env: Record<string, string> = {}): Promise<{ run: CliRun; url: string }> {
  const run = started.run(['start', dir, '--host', '127.0.0.1', '--port', '0'], env);
  const [, url] = await run.waitFor(SERVING, 40_000);
  return { run, url };
}

/** a full-access API token of the project, made by `tessera token create` */
export async function createToken(started: Started, dir: string): Promise<string> {
  const run = started.run(['token', 'create', '--name', 'scale-test', '--type', 'full-access', '--dir', dir]);
  expect(await run.exited, run.output()).toBe(0);
  const key = /this is the only time it is shown:\n([0-9a-f]+)/.exec(run.output())?.[1];
  if (!key) throw new Error(`no token in:\n${run.output()}`);
  return key;
}

export interface Answer {
  status: number;
  body: any;
  /** the process that answered (x-served-by, set by the project's middleware) */
  servedBy: number;
}

/** one request on a connection of its own; `token` as Bearer; a JSON body */
export async function request(url: string, method: string, urlPath: string, opts: { token?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { connection: 'close' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await rawRequest(url, { method, path: urlPath, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  return { status: res.status, body: res.body ? JSON.parse(res.body) : undefined, servedBy: Number(res.headers['x-served-by']) };
}

/** the log lines a process wrote at warn level or above */
export const problems = (output: string): string[] => output.split('\n').filter((l) => /^\[[^\]]+\] (warn|error|fatal):/.test(l));

/** the number of tables the schema sync of a start created, from its summary line */
export function tablesCreated(output: string): number {
  const m = /schema: (\d+) tables created/.exec(output);
  if (!m) throw new Error(`no start summary in:\n${output}`);
  return Number(m[1]);
}
