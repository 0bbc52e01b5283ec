// The project commands (`tessera token`, `tessera locales`) work on a project without serving it: open it
// (config, model, database; no register/bootstrap, no server), run the command, close the database.
import path from 'node:path';
import { createTessera, type Tessera } from '../core/tessera';
import { optString, type Args } from './args';
import { describeStartupError } from './startup-error';

/** `--dir` (default: the current folder) opened for `run`; exit code 1 with the reason when it cannot be opened */
export async function withProject(args: Args, run: (app: Tessera) => Promise<number>): Promise<number> {
  const dir = path.resolve(optString(args, 'dir') ?? '.');
  let app: Tessera;
  try {
    app = await createTessera({ dir, silent: true, lifecycle: false });
  } catch (err) {
    process.stderr.write(`${describeStartupError(err)}\n`);
    return 1;
  }
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}
