// `tessera start [dir]`: serve a project until SIGTERM/SIGINT, then stop cleanly; with `--workers N` (N > 1)
// this process is the primary of N that serve (cli/workers.ts), each of them running this same command.
import path from 'node:path';
import { createTessera } from '../core/tessera';
import { describeStartupError } from './startup-error';
import { optString, type Args } from './args';
import { startupComplete } from './startup-complete';
import { isWorker, leaveCluster, runPrimary, workerCount } from './workers';

export async function start(args: Args): Promise<number> {
  const dir = path.resolve(args.positional[0] ?? '.');
  const workers = workerCount(args.options.workers);
  if (typeof workers === 'string') {
    process.stderr.write(`tessera: ${workers}\n`);
    return 2;
  }
  if (workers > 1 && !isWorker()) return runPrimary(dir, workers);
  try {
    return await serve(dir, args);
  } finally {
    leaveCluster();
  }
}

async function serve(dir: string, args: Args): Promise<number> {
  const t0 = Date.now();
  let app;
  try {
    // under `tessera develop` (cli/develop.ts), strapi.reload() asks it for a restart
    const restart = process.env.TESSERA_DEVELOP === '1' && process.send ? () => void process.send!('reload') : undefined;
    app = await createTessera({ dir, restart });
  } catch (err) {
    process.stderr.write(`${describeStartupError(err)}\n`);
    return 1;
  }
  // a promise project or plugin code drops (a cron task's write that fails, say) is logged: v4's process exits
  // on it, a server keeps serving
  process.on('unhandledRejection', (err) => app.log.error({ err }, `unhandled rejection in project or plugin code: ${(err as Error)?.message ?? String(err)}`));
  const portOpt = optString(args, 'port');
  let url: string;
  try {
    url = await app.listen({ host: optString(args, 'host'), port: portOpt ? Number(portOpt) : undefined });
  } catch (err) {
    // the port is taken, say: the database closes too, so the process ends
    process.stderr.write(`tessera: cannot listen: ${(err as Error).message}\n`);
    await app.close().catch(() => undefined);
    return 1;
  }
  startupComplete();
  app.log.info(`Tessera serving ${dir} at ${url} (${Date.now() - t0} ms): ${app.summary()}`);
  // once the line above is written (the logger writes once per event-loop turn): a cluster primary's own
  // line then comes after every worker's
  setImmediate(() => process.send?.({ ready: url }));
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      app.log.info(`${signal}: finishing requests in flight and closing the database`);
      app.close().then(resolve, (err) => { app.log.error({ err }, 'error while stopping'); resolve(); });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}
