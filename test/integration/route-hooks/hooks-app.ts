// The hooks test project (test/fixtures/hooks-app) as the route-hooks suite runs it: on a private copy with an
// empty database, config/middlewares.js replaced by ./app-middlewares.js (project middlewares in every form),
// as real Strapi served it for test/golden/hooks-routes.*. `edit` changes files of the copy before start.
import fs from 'node:fs';
import path from 'node:path';
import { copyProject, startProjectCopy, type RunningApp } from '../../helpers/fixture-app';

export const HOOKS_APP = path.resolve(__dirname, '../../fixtures/hooks-app');
export const APP_MIDDLEWARES = path.resolve(__dirname, 'app-middlewares.js');

export type RunningHooksApp = RunningApp;

const withAppMiddlewares = (edit: Record<string, string>) => ({ 'config/middlewares.js': fs.readFileSync(APP_MIDDLEWARES, 'utf8'), 'public/uploads/.keep': '', ...edit });

/** a private copy of the project, writable */
export function copyHooksApp(edit: Record<string, string> = {}): string {
  return copyProject(HOOKS_APP, withAppMiddlewares(edit));
}

export function startHooksApp(edit: Record<string, string> = {}): Promise<RunningHooksApp> {
  return startProjectCopy(HOOKS_APP, withAppMiddlewares(edit));
}
