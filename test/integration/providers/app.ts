// test/plugin-projects/providers-app started on Tessera for the provider tests, pointed at the S3 and SMTP servers
// a test started (the project's config/plugins.js reads their addresses from the environment), with what the tests
// read back: database rows, and the S3 keys a file row names (original and formats).
import path from 'node:path';
import Database from 'better-sqlite3';
import type { RunningApp } from '../../helpers/fixture-app';
import { startPluginProject, type LogLine } from '../plugins/plugin-project-app';

export interface ProvidersApp extends RunningApp {
  /** rows of the app's own database */
  rows<T = Record<string, unknown>>(sql: string, ...params: unknown[]): T[];
  /** the S3 keys of the aws-s3 files in the database (originals and formats), sorted */
  storedKeys(): string[];
  log: LogLine[];
}

export async function startProvidersApp(env: Record<string, string>): Promise<ProvidersApp> {
  const log: LogLine[] = [];
  const app = await startPluginProject('providers-app', { env, logLines: log });
  const rows = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = new Database(path.join(app.dir, '.tmp/data.db'), { readonly: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };
  const prefix = env.S3_ROOT_PATH ? `${env.S3_ROOT_PATH.replace(/\/+$/, '')}/` : '';
  return {
    ...app,
    log,
    rows,
    storedKeys() {
      const files = rows<{ hash: string; ext: string; formats: string | null }>("SELECT hash, ext, formats FROM files WHERE provider = 'aws-s3'");
      return files.flatMap((f) => [
        `${prefix}${f.hash}${f.ext}`,
        ...Object.values<{ hash: string; ext: string }>(f.formats ? JSON.parse(f.formats) : {}).map((fmt) => `${prefix}${fmt.hash}${fmt.ext}`),
      ]).sort();
    },
  };
}
