// test/plugin-projects/providers-app started on Tessera for the provider tests, pointed at the S3 and SMTP servers
// a test started (the project's config/plugins.js reads their addresses from the environment), with what the tests
// read back: database rows, and the S3 keys a file row names (original and formats).
import type { SqlValue } from '../../../src/storage/dialect';
import { dbRows } from '../../helpers/db-rows';
import type { RunningApp } from '../../helpers/fixture-app';
import { startPluginProject, type LogLine } from '../plugins/plugin-project-app';

export interface ProvidersApp extends RunningApp {
  /** rows of `sql` (`?` placeholders) read from the database the app runs on, values as SQLite stores them (db-rows.ts) */
  rows<T = Record<string, unknown>>(sql: string, ...params: SqlValue[]): Promise<T[]>;
  /** the S3 keys of the aws-s3 files in the database (originals and formats), sorted */
  storedKeys(): Promise<string[]>;
  log: LogLine[];
}

export async function startProvidersApp(env: Record<string, string>): Promise<ProvidersApp> {
  const log: LogLine[] = [];
  const app = await startPluginProject('providers-app', { env, logLines: log });
  const rows = <T>(sql: string, ...params: SqlValue[]) => dbRows<T>(app.app.db, sql, ...params);
  const prefix = env.S3_ROOT_PATH ? `${env.S3_ROOT_PATH.replace(/\/+$/, '')}/` : '';
  return {
    ...app,
    log,
    rows,
    async storedKeys() {
      const files = await rows<{ hash: string; ext: string; formats: string | null }>("SELECT hash, ext, formats FROM files WHERE provider = 'aws-s3'");
      return files.flatMap((f) => [
        `${prefix}${f.hash}${f.ext}`,
        ...Object.values<{ hash: string; ext: string }>(f.formats ? JSON.parse(f.formats) : {}).map((fmt) => `${prefix}${fmt.hash}${fmt.ext}`),
      ]).sort();
    },
  };
}
