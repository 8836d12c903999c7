import { defineConfig } from 'vitest/config';

// One runner, three projects: pure domain units, the storefront's units (form schemas, sorting, dates, colours),
// and the API integration suite (app.inject against PGlite,
// and against PostgreSQL too when TEST_DATABASE_URL is set).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['app/**/*.test.ts'],
        },
      },
      {
        // The benchmarks' pure helpers (the benchmarks themselves are not tests: npm run bench:api / bench:web).
        test: {
          name: 'bench',
          include: ['bench/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'api',
          root: 'apps/api',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
