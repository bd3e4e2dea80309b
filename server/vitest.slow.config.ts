import { defineConfig } from 'vitest/config';

// The crash probe's lane (`npm run test:crash`): once per `npm test`, against the built server.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['src/**/*.slow.test.ts'],
    pool: 'forks',
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
