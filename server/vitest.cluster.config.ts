import { defineConfig } from 'vitest/config';

/**
 * The cluster lane (`npm run test:cluster`): tests that start several real PostgreSQL
 * servers of their own (a primary and a streaming standby). `npm test` runs it once,
 * not once per database engine like the unit suite.
 */
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['src/**/*.cluster.test.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
