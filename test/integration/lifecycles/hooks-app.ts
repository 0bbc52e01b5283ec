// The hooks test project (test/fixtures/hooks-app): a note type with lifecycles.js hooks, a label type with
// subscribers added in bootstrap, and a function subscriber that logs every event (GET /api/hook-log).
// Started on a private copy with an empty database, as real Strapi was for its recordings.
import path from 'node:path';
import { startProjectCopy, type RunningApp } from '../../helpers/fixture-app';

export const HOOKS_APP = path.resolve(__dirname, '../../fixtures/hooks-app');

export type RunningHooksApp = RunningApp;

export function startHooksApp(): Promise<RunningHooksApp> {
  return startProjectCopy(HOOKS_APP);
}
