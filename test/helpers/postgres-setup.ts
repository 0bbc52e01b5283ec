// vitest setup file of the `postgres` project: every Tessera a test starts in its own process runs on a
// PostgreSQL database of its own. createTessera is the one door all of them pass (the copy helpers of
// fixture-app.ts, the ~17 files that call it directly, `main()` run in-process), and at that moment the project
// folder is final (a test may edit files or the SQLite database after copying it): so the project is prepared
// there (test-database.ts usePostgres: its SQLite rows into a new database, config/database.js pointed at it),
// then started as written. A folder already on PostgreSQL (a restart) keeps its database. `tessera` child
// processes are prepared by cli-process.ts. What the file created is dropped after its own afterAll hooks.
import { afterAll, vi } from 'vitest';
import { dropTestDatabases, usePostgres } from './test-database';

vi.mock('../../src/core/tessera', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/core/tessera')>();
  return {
    ...original,
    createTessera: async (opts: Parameters<typeof original.createTessera>[0]) => {
      await usePostgres(opts.dir, opts.env);
      return original.createTessera(opts);
    },
  };
});

// registered before the test file's hooks, so it runs after them (afterAll hooks run in reverse order)
afterAll(async () => {
  await dropTestDatabases();
});
