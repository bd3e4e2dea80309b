import { defineConfig } from 'vitest/config';

/**
 * The durability lane (`npm run test:durable`): tests that drive the built server in
 * a process of its own against a PostgreSQL cluster they start themselves. `npm test`
 * runs it once, after the build; not once per database engine like the unit suite.
 */
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['src/**/*.durable.test.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
