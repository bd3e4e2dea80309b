import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the built product: global-setup starts `node server/dist/server.js` on a free
 * port with a fresh data folder (demo data seeded on first start), as a user starts it.
 * Debian's Chromium is driven directly; Playwright downloads no browser.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  // One server, one database: the tests run one after another and use their own accounts.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: './.artifacts/test-results',
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    locale: 'lt-LT',
    timezoneId: 'Europe/Vilnius',
    viewport: { width: 1366, height: 768 },
    acceptDownloads: true,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
