import { defineConfig } from 'vitest/config';

/**
 * The API suite's files that spawn processes (start.ts, server.ts, worker.ts) or time work under load, and the one
 * that changes process-wide state (tracing: OpenTelemetry's global tracer provider), which must not outlive its file.
 */
const apiSerialFiles = [
  'test/concurrent-start.test.ts',
  'test/config.test.ts',
  'test/database-outage.test.ts',
  'test/claim-uploads-load.test.ts',
  'test/scale-out.test.ts',
  'test/start-mode.test.ts',
  'test/tracing.test.ts',
  'test/worker-metrics.test.ts',
];

/**
 * How many API files run at once: three on the 2-core CI machine. The files wait on PostgreSQL, Redis and loopback
 * servers much of the time: with two the run used 1.1 of its 2 cores (`/usr/bin/time`: 426 s of CPU in 390 s); with
 * three the `api` project took 243 s instead of 288 s, the slowest test 13 s of its 60 s timeout (docs/testing.md).
 */
const apiWorkers = Number(process.env.API_TEST_WORKERS ?? 3);

const apiTest = {
  root: 'apps/api',
  include: ['test/**/*.test.ts'],
  globalSetup: ['test/support/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

// One runner, six projects: pure domain units, the storefront's units (form schemas, sorting, dates, colours), the
// operator console's units,
// and the API integration suite (app.inject against PGlite, and against PostgreSQL too when TEST_DATABASE_URL is
// set) in two projects: `api`, its files in parallel, then `api-serial`, one file at a time (docs/testing.md).
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
        // The operator console's units: its loaders' helpers and its screens rendered with contract-shaped data.
        test: {
          name: 'backoffice',
          root: 'apps/backoffice',
          include: ['app/**/*.test.{ts,tsx}'],
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
        // The API files that share nothing but the database server run side by side, each suite on its own copy of
        // the template database (test/support/global-setup.ts); Redis keys and channels are random per suite and
        // every listener takes a free port.
        //
        // Not isolated: each worker imports the app once and runs its share of the files in that module graph, instead
        // of importing it again for every file (1.7 s a file, 147 s of the suite). Nothing a file leaves behind reaches
        // the next: every suite opens its own database, app and listeners and closes them, and mocks, fake timers and
        // stubbed variables are restored by the tests that set them (and by the options below if one forgets).
        test: {
          ...apiTest,
          name: 'api',
          exclude: apiSerialFiles,
          maxWorkers: apiWorkers,
          isolate: false,
          restoreMocks: true,
          unstubEnvs: true,
        },
      },
      {
        // Files that start real server or worker processes, or measure load, run alone after the others: their
        // children need the CPU they are timed against.
        test: {
          ...apiTest,
          name: 'api-serial',
          include: apiSerialFiles,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
