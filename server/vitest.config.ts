import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Read @rodmenys/contract from its TypeScript source: tests need no build first.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['src/**/*.test.ts'],
    // The durability lane (vitest.durable.config.ts), the cluster lane (vitest.cluster.config.ts)
    // and the crash probe (vitest.slow.config.ts) run once per `npm test`, not per engine; the
    // wmbusmeters lane (vitest.wmbusmeters.config.ts) only when asked for.
    exclude: [
      'src/**/*.durable.test.ts',
      'src/**/*.cluster.test.ts',
      'src/**/*.slow.test.ts',
      'src/**/*.wmbusmeters.test.ts',
      '**/node_modules/**',
    ],
    // One migrated database per run, copied by each file (src/test/db.ts).
    globalSetup: ['src/test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
