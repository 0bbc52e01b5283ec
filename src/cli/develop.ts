// `tessera develop [dir]`: runs `start` in a child process and restarts it when src/ or config/ change, or
// when project code calls `strapi.reload()` (the child sends 'reload').
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Args } from './args';

export async function develop(args: Args, argv: string[]): Promise<number> {
  const dir = path.resolve(args.positional[0] ?? '.');
  // the script node started (bin/tessera.js); from the sources (tests), the bin next to them
  const bin = require.main?.filename ?? path.resolve(__dirname, '../../bin/tessera.js');
  const childArgs = ['start', ...argv.slice(1)];
  let child: ChildProcess | undefined;
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    child = fork(bin, childArgs, { stdio: 'inherit', env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development', TESSERA_DEVELOP: '1' } });
    child.on('message', (m) => {
      if (m === 'reload') restart('strapi.reload()', 'called');
    });
  };
  const restart = (file: string, what = 'changed') => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      process.stdout.write(`tessera develop: ${file} ${what}, restarting\n`);
      if (child && child.exitCode === null) {
        child.once('exit', run);
        child.kill('SIGTERM');
      } else run();
    }, 150);
  };
  const watchers = ['src', 'config']
    .map((d) => path.join(dir, d))
    .filter((d) => fs.existsSync(d))
    .map((d) => fs.watch(d, { recursive: true }, (_e, f) => restart(path.join(path.basename(d), String(f ?? '')))));
  run();
  await new Promise<void>((resolve) => {
    const stop = () => {
      watchers.forEach((w) => w.close());
      clearTimeout(timer);
      if (child && child.exitCode === null) { child.once('exit', () => resolve()); child.kill('SIGTERM'); } else resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
