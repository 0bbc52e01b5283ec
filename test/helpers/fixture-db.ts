// A private copy of the database real Strapi 4.26.2 wrote for the fixture app.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURE_DB } from './fixture-model';

export function copyFixtureDb(): { file: string; dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-db-'));
  const file = path.join(dir, 'data.db');
  fs.copyFileSync(FIXTURE_DB, file);
  return { file, dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
