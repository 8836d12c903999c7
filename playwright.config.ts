import { defineConfig, devices } from '@playwright/test';

// Browser journeys in Debian's Chromium (never a downloaded browser). Each worker starts the production server
// code in-process on its own copy of the seeded database (e2e/support/global-setup.ts dumps it once,
// e2e/support/fixtures.ts loads it), so tests can check what was stored. Files may share workers (E2E_WORKERS); a
// file's tests run in order on one worker. CI keeps one worker until two are proven free of timeouts on the 2-core
// machine (an axe check of the certificate search went past 30 s with two).
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
  globalSetup: './e2e/support/global-setup.ts',
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'] } },
    { name: 'phone', use: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true }, grep: /@phone/ },
  ],
});
