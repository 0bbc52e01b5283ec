import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const graphqlMain = createRequire(path.join(process.cwd(), 'package.json')).resolve('graphql');
const ROOT = process.cwd();

// Two projects, one suite: `sqlite` runs every test; `postgres` (TESSERA_TEST_DB=postgres) runs again, on a real
// PostgreSQL server (test/helpers/postgres-global.ts), every test that touches a database: the rule is what a
// test file (or a helper of test/ it imports) uses: it starts Tessera (createTessera, the copy helpers of
// test/helpers/fixture-app.ts, the `tessera` CLI) or opens a Database (test/helpers/test-database.ts
// openTestDatabase). Pure unit tests (parsers, SQL text of one dialect, value conversions) run once. Left out on
// purpose: test/browser (the playground page, the same HTML on both; GraphQL on PostgreSQL is covered by the
// integration and golden tests) and test/bench (the benchmark runner's SQLite datasets). Files named
// `postgres-*.test.ts` are PostgreSQL-only.
const ALL = 'test/**/*.test.ts';
const POSTGRES_ONLY = 'test/**/postgres-*.test.ts';
const NOT_TWICE = ['test/browser/**', 'test/bench/**'];
const TOUCHES_DATABASE = /createTessera|openTestDatabase|helpers\/fixture-app'|helpers\/cli-process'|src\/cli\/main'/;

/** test files whose code, or the code under test/ they import, matches TOUCHES_DATABASE */
function databaseTests(): string[] {
  const seen = new Map<string, boolean>();
  const touches = (file: string): boolean => {
    if (seen.has(file)) return seen.get(file)!;
    seen.set(file, false); // an import cycle adds nothing
    const src = fs.readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, ''); // code, not comments
    const local = [...src.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => path.resolve(path.dirname(file), m[1]))
      .filter((p) => p.startsWith(path.join(ROOT, 'test') + path.sep))
      .flatMap((p) => [p, `${p}.ts`, path.join(p, 'index.ts')].filter((c) => fs.existsSync(c) && fs.statSync(c).isFile()).slice(0, 1));
    const result = TOUCHES_DATABASE.test(src) || local.some(touches);
    seen.set(file, result);
    return result;
  };
  const tests = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : tests(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
  return tests(path.join(ROOT, 'test')).filter(touches).map((f) => path.relative(ROOT, f).split(path.sep).join('/'));
}

// the run-wide global setup (one temporary folder, the plugin projects' install) runs once for both projects
const globalSetup = ['test/helpers/run-global.ts'];
// every test file's temporary files in a folder of its own, checked empty at its end (temp-dir-setup.ts);
// every HTTP response of every test is scanned for password hashes and reset/confirmation tokens
const setupFiles = ['test/helpers/temp-dir-setup.ts', 'test/helpers/response-audit-setup.ts'];

export default defineConfig({
  // one graphql module for everyone: mercurius requires graphql's CommonJS build, and sources imported through
  // vite would get its ES build, a second copy whose types graphql-js refuses ("from another module or realm")
  resolve: {
    alias: [
      { find: /^graphql$/, replacement: graphqlMain },
      { find: /^graphql\/(.+?)(\.js)?$/, replacement: `${path.dirname(graphqlMain)}/$1.js` },
    ],
  },
  test: {
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: [ALL],
          exclude: [POSTGRES_ONLY, '**/node_modules/**'],
          env: { TESSERA_TEST_DB: 'sqlite' },
          globalSetup,
          setupFiles,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [...databaseTests(), POSTGRES_ONLY],
          exclude: [...NOT_TWICE, '**/node_modules/**'],
          env: { TESSERA_TEST_DB: 'postgres' },
          // the server first: its variables reach every test process
          globalSetup: [...globalSetup, 'test/helpers/postgres-global.ts'],
          // postgres-setup.ts: every Tessera a test starts runs on a PostgreSQL database of its own
          setupFiles: [...setupFiles, 'test/helpers/postgres-setup.ts'],
        },
      },
    ],
  },
});
