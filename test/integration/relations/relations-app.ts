// The relations test project (test/fixtures/relations-app): relation kinds the fixture app lacks (one-to-one
// both ways, many-way, self many-to-many, a relation to users, nested components with relations, max on
// components). Started on a private copy with an empty database, as real Strapi was for its recordings.
import path from 'node:path';
import { startProjectCopy, type RunningApp } from '../../helpers/fixture-app';

export const RELATIONS_APP = path.resolve(__dirname, '../../fixtures/relations-app');

export type RunningRelationsApp = RunningApp;

/** `config`: files of config/ replaced on the copy (name -> content) */
export async function startRelationsApp(opts: { config?: Record<string, string> } = {}): Promise<RunningRelationsApp> {
  const edit = Object.fromEntries(Object.entries(opts.config ?? {}).map(([file, text]) => [`config/${file}`, text]));
  return startProjectCopy(RELATIONS_APP, { 'public/uploads/.gitkeep': '', ...edit });
}
