import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // every HTTP response of every test is scanned for password hashes and reset/confirmation tokens
    setupFiles: ['test/helpers/response-audit-setup.ts'],
  },
});
