import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const graphqlMain = createRequire(path.join(process.cwd(), 'package.json')).resolve('graphql');

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
    include: ['test/**/*.test.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // every test file's temporary files in a folder of its own, checked empty at its end (temp-dir-global.ts)
    globalSetup: ['test/helpers/temp-dir-global.ts', 'test/helpers/plugin-projects-global.ts'],
    // every HTTP response of every test is scanned for password hashes and reset/confirmation tokens
    setupFiles: ['test/helpers/temp-dir-setup.ts', 'test/helpers/response-audit-setup.ts'],
  },
});
