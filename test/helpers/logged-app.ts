// A private copy of a test project started on an empty database, as startProjectCopy does, but with its log
// lines (warn and up) kept for the test to read: for what start-up says about a project.
import type { Tessera } from '../../src/core/tessera';
import { collectingLogger, copyProject, startCopy, type LogLine } from './fixture-app';

export type { LogLine };

export interface LoggedApp {
  app: Tessera;
  url: string;
  dir: string;
  /** every line logged at warn and up, start-up included */
  lines: LogLine[];
  stop(): Promise<void>;
}

export async function startLoggedProjectCopy(source: string, edit: Record<string, string> = {}): Promise<LoggedApp> {
  const lines: LogLine[] = [];
  const running = await startCopy(copyProject(source, edit), { logger: collectingLogger(lines, 'warn') });
  return { app: running.app, url: running.url, dir: running.dir, lines, stop: running.stop };
}

/** A Content API call with an optional `{ data }` body: the status and the parsed answer. */
export async function apiCall(baseUrl: string, method: string, url: string, data?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: data === undefined ? {} : { 'content-type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify({ data }),
  });
  return { status: res.status, body: await res.json() };
}
