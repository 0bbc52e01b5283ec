// A run's private scratch folder: a project copy for Tessera, a database copy for the floor, server logs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeProjectCopy } from './fixture';

/** scratch folders still to remove if the run is interrupted */
export const scratch = new Set<string>();

export interface Workspace {
  dir: string;
  tesseraProject: string;
  floorDb: string;
  logs: string;
}

export function makeWorkspace(o: { keep: boolean }, dataset: string, runId: string): Workspace {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tessera-bench-${runId}-`));
  if (!o.keep) scratch.add(dir);
  const logs = path.join(dir, 'logs');
  fs.mkdirSync(logs);
  const tesseraProject = makeProjectCopy(path.join(dir, 'tessera'), dataset);
  const floorDb = path.join(dir, 'floor.db');
  fs.copyFileSync(dataset, floorDb);
  fs.chmodSync(floorDb, 0o644);
  return { dir, tesseraProject, floorDb, logs };
}
