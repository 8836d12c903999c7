import { defineConfig, devices } from '@playwright/test';

// Browser journeys in Debian's Chromium (never a downloaded browser). Each worker starts the production server
// code in-process on its own copy of the seeded database (e2e/support/global-setup.ts dumps it once,
// e2e/support/fixtures.ts loads it), so tests can check what was stored. Two workers (E2E_WORKERS) share the files;
// a file's tests run in order on one worker unless the file says otherwise. Traces only with E2E_TRACE: recording
// one for every test cost about a quarter of the suite's time, and CI's output is text (docs/testing.md).
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  globalSetup: './e2e/support/global-setup.ts',
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
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
