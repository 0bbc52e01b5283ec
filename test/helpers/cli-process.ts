// `node bin/tessera.js ...` as a user runs it, in a child process whose output a test can wait on. The
// caller stops the child (and removes what it created) in its afterAll/finally. In the postgres project the
// project folder is first pointed at a PostgreSQL database of its own (test-database.ts usePostgres).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, optString } from '../../src/cli/args';
import { adoptProjectDatabase, onPostgres } from './test-database';

export const BIN = path.resolve(__dirname, '../../bin/tessera.js');

/** the line `tessera start` prints once it listens; group 1 is the url */
export const SERVING = /Tessera serving .* at (http:\/\/127\.0\.0\.1:\d+)/;

export interface CliRun {
  child: ChildProcess;
  output(): string;
  /** resolves with the first match of `re` in the output */
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

export function runTessera(args: string[], env: Record<string, string> = {}): CliRun {
  if (onPostgres) usePostgresSync(args, env);
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NODE_ENV: 'development', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiters: Array<() => void> = [];
  const onData = (d: Buffer) => { out += d.toString(); waiters.splice(0).forEach((w) => w()); };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    waitFor(re, ms = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re} in:\n${out}`)), ms);
        const check = () => {
          const m = out.match(re);
          if (m) { clearTimeout(timer); resolve(m); } else if (child.exitCode !== null) { clearTimeout(timer); reject(new Error(`exited (${child.exitCode}) before ${re}:\n${out}`)); } else waiters.push(check);
        };
        check();
      });
    },
  };
}

const USE_POSTGRES = path.resolve(__dirname, 'use-postgres-cli.ts');

/**
 * The project a `tessera` command line names (`start <dir>`, `develop <dir>`, `--dir <dir>`, else the current
 * folder) on PostgreSQL, before the child starts: in a process of its own, since runTessera returns the child at once.
 */
function usePostgresSync(argv: string[], env: Record<string, string>): void {
  const args = parseArgs(argv);
  const named = optString(args, 'dir') ?? (['start', 'develop'].includes(args.positional[0]) ? args.positional[1] : undefined);
  const dir = path.resolve(named ?? '.');
  if (!fs.existsSync(path.join(dir, 'package.json'))) return; // not a project: the command says so itself
  const out = execFileSync(process.execPath, ['--import', 'tsx', USE_POSTGRES, dir], {
    env: { ...process.env, NODE_ENV: 'development', ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'],
  });
  const name = /^database: (\S+)$/m.exec(out)?.[1];
  if (name) adoptProjectDatabase(dir, name);
}
