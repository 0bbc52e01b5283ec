// `node --import tsx test/helpers/use-postgres-cli.ts <dir>`: test-database.ts usePostgres for a project that a
// `tessera` child process is about to start (cli-process.ts, whose runTessera returns the child at once, so the
// preparation runs to its end in a process of its own). Prints `database: <name>` (or nothing when the project
// is not on SQLite); the calling test process drops the database with its own.
import { endAdminConnection, usePostgres } from './test-database';

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: use-postgres-cli.ts <project dir>');
  try {
    const name = await usePostgres(dir);
    if (name) process.stdout.write(`\ndatabase: ${name}\n`);
  } finally {
    await endAdminConnection();
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
