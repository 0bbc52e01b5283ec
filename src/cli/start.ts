// `tessera start [dir]`: serve a project until SIGTERM/SIGINT, then stop cleanly.
import path from 'node:path';
import { createTessera } from '../core/tessera';
import { describeStartupError } from './startup-error';
import { optString, type Args } from './args';
import { startupComplete } from './startup-complete';

export async function start(args: Args): Promise<number> {
  const dir = path.resolve(args.positional[0] ?? '.');
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
  const url = await app.listen({ host: optString(args, 'host'), port: portOpt ? Number(portOpt) : undefined });
  startupComplete();
  app.log.info(`Tessera serving ${dir} at ${url} (${Date.now() - t0} ms): ${app.summary()}`);
  process.send?.({ ready: url });
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
