// The relations test project (test/fixtures/relations-app): relation kinds the fixture app lacks (one-to-one
// both ways, many-way, self many-to-many, a relation to users, nested components with relations, max on
// components). Started on a private copy with an empty database, as real Strapi was for its recordings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTessera, type Tessera } from '../../../src/core/tessera';

export const RELATIONS_APP = path.resolve(__dirname, '../../fixtures/relations-app');

export interface RunningRelationsApp {
  app: Tessera;
  url: string;
  dir: string;
  dbFile: string;
  token: string;
  stop(): Promise<void>;
}

export async function startRelationsApp(opts: { config?: Record<string, string> } = {}): Promise<RunningRelationsApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-relations-'));
  fs.cpSync(RELATIONS_APP, dir, { recursive: true });
  fs.mkdirSync(path.join(dir, '.tmp'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'public/uploads'), { recursive: true });
  for (const [file, text] of Object.entries(opts.config ?? {})) fs.writeFileSync(path.join(dir, 'config', file), text);
  const app = await createTessera({ dir, silent: true, env: { ...process.env, NODE_ENV: 'test' } });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app, url, dir,
    dbFile: path.join(dir, '.tmp/data.db'),
    token: fs.readFileSync(path.join(dir, '.tmp/token.txt'), 'utf8').trim(),
    async stop() {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
