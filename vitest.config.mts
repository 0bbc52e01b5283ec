import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // every test file's temporary files in a folder of its own, checked empty at its end (temp-dir-setup.ts)
    globalSetup: ['test/helpers/temp-dir-global.ts'],
    // every HTTP response of every test is scanned for password hashes and reset/confirmation tokens
    setupFiles: ['test/helpers/temp-dir-setup.ts', 'test/helpers/response-audit-setup.ts'],
  },
});
