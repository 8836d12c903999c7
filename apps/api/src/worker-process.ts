import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { createIntegrations } from './integrations/index.ts';
import { createCacheInvalidation } from './lib/cache/cache-invalidation.ts';
import { createReadCache, databaseWithReadCache } from './lib/cache/read-cache.ts';
import { configuredOrigin } from './lib/security/origins.ts';
import { serveWorkerMetrics } from './observability/worker-metrics.ts';
import { closeOnSignal, openMigratedDatabase, runMain } from './startup.ts';
import { createBackgroundWork, startWorker } from './worker.ts';
import { publishingKindsOf } from './workflows/publishing.ts';

/**
 * The worker alone (`npm run worker`): the job queue and the payment sweeper with no HTTP server, for deployments
 * that run them apart from the web processes (those then set WORKER=off). Any number may run; they share the work
 * through PostgreSQL. It runs whatever WORKER says: that setting is the web process's. With WORKER_METRICS_PORT it
 * serves its GET /api/metrics there; tracing was started (or not) by worker-main.ts before this module loaded.
 */
async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError(
      'Invalid configuration: the worker alone needs DATABASE_URL (PostgreSQL). The embedded database serves one process: without DATABASE_URL, `npm start` runs the worker inside the server',
    );
  }
  const log = pino({ level: config.logLevel });
  const database = await openMigratedDatabase(config, { log: () => log });
  for (const warning of config.warnings) log.warn(warning);
  const readCache = createReadCache(config.catalogCacheTtlMs);
  const db = databaseWithReadCache(database.db, readCache);
  // The worker's e-mails and certificates read the catalogue too: they hear the web processes' invalidations.
  const cacheInvalidation = await createCacheInvalidation({ readCache, redis: config.redis, log });
  const integrations = createIntegrations(config, db);
  const work = createBackgroundWork({
    db,
    integrations,
    log,
    nudges: true,
    publishing: {
      kinds: publishingKindsOf(config.companyId, config.features),
      invalidate: cacheInvalidation.invalidate,
    },
    origin: configuredOrigin(config),
    refundMail: {
      publicUrl: config.publicUrl,
      notifyEmail: config.refunds.notifyEmail,
      consoleUrl: config.backoffice.origin ?? config.publicUrl,
    },
    purchases: config.purchases,
    retention: config.retention,
    invalidateCache: cacheInvalidation.invalidate,
  });
  const worker = startWorker(work, config.worker, log, config.retention);
  const metrics = await serveWorkerMetrics({ config, db, log });
  closeOnSignal(log, async () => {
    await metrics?.close();
    await worker.stop();
    await work.close();
    await cacheInvalidation.close();
    await database.close();
  });
  log.info(`E-mails go to ${integrations.mailer.destination}`);
  console.log(
    `Travesía worker is running: jobs every ${config.worker.jobsIntervalMs} ms, payment sweep every ${config.worker.paymentSweepIntervalMs} ms — database: ${database.kind}`,
  );
}

runMain('The Travesía worker', main);
