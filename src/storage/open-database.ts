// config/database.js (v4's form: `connection: { client, connection: {...}, pool }`) -> the Database.
import path from 'node:path';
import type { Database } from './dialect';
import { PostgresDatabase, type PostgresConfig } from './postgres/pg-database';
import { SqliteDatabase } from './sqlite/sqlite-database';

export class DatabaseConfigError extends Error {}

const SQLITE_CLIENTS = new Set(['sqlite', 'better-sqlite3', 'sqlite3']);
const POSTGRES_CLIENTS = new Set(['postgres', 'postgresql', 'pg']);

export interface DatabaseConfig {
  client?: string;
  connection?: Record<string, unknown> & { filename?: string };
  pool?: PostgresConfig['pool'];
  acquireConnectionTimeout?: number;
}

function optionalString(v: unknown): string | undefined {
  return v === undefined || v === null || v === '' ? undefined : String(v);
}

/** v4's (knex's) postgres connection keys */
export function postgresConfig(conf: DatabaseConfig): PostgresConfig {
  const c = conf.connection ?? {};
  const ssl = c.ssl;
  return {
    connectionString: optionalString(c.connectionString),
    host: optionalString(c.host),
    port: optionalString(c.port),
    database: optionalString(c.database),
    user: optionalString(c.user),
    password: optionalString(c.password),
    schema: optionalString(c.schema),
    ssl: ssl && typeof ssl === 'object' ? (ssl as Record<string, unknown>) : ssl === true || ssl === 'true' ? true : undefined,
    pool: { ...conf.pool, acquireTimeoutMillis: conf.pool?.acquireTimeoutMillis ?? conf.acquireConnectionTimeout },
  };
}

export function openDatabase(projectDir: string, conf: DatabaseConfig): Database {
  const client = conf.client ?? 'sqlite';
  if (SQLITE_CLIENTS.has(client)) {
    const filename = conf.connection?.filename ?? '.tmp/data.db';
    return new SqliteDatabase(filename === ':memory:' ? filename : path.resolve(projectDir, String(filename)));
  }
  if (POSTGRES_CLIENTS.has(client)) return new PostgresDatabase(postgresConfig(conf));
  throw new DatabaseConfigError(`database client "${client}" is not supported (sqlite or postgres)`);
}
