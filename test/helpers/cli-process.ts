// `node bin/tessera.js ...` as a user runs it, in a child process whose output a test can wait on. The
// caller stops the child (and removes what it created) in its afterAll/finally.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

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
