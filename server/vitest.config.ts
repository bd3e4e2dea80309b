import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Read @rodmenys/contract from its TypeScript source: tests need no build first.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
