import { defineConfig } from 'vitest/config';

const { ensureWmbusmeters } = (await import(new URL('../scripts/wmbusmeters.mjs', import.meta.url).href)) as {
  ensureWmbusmeters: () => string;
};

/**
 * The opt-in wmbusmeters lane (`npm run test:wmbusmeters`, docs/collectors.md): the collector
 * configuration read by the real wmbusmeters, built from source on first use (about ten
 * minutes on two cores) by scripts/wmbusmeters.mjs and kept in a cache. Not part of `npm test`.
 */
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['src/**/*.wmbusmeters.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    env: { WMBUSMETERS: ensureWmbusmeters() },
    pool: 'forks',
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
