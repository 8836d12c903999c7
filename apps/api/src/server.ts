import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DatabaseStartError, openDatabase } from './db/client.ts';
import { demoCompany } from './db/seed/demo-company.ts';
import { ensureCompanySeeded } from './db/seed/index.ts';
import { databaseUnavailable } from './db/unavailable.ts';
import { loggableError } from './lib/loggable-error.ts';
import { mountStorefront, storefrontBuildExists } from './web.ts';

/** apps/web/build, seen from apps/api/src (tsx) and from apps/api/dist (the bundle) alike. */
const defaultWebBuildDir = fileURLToPath(new URL('../../web/build', import.meta.url));

async function main() {
  const config = loadConfig();
  // The logger comes with the app, after the database opens: until then a lost connection is simply replaced.
  let log: FastifyBaseLogger | undefined;
  const database = await openDatabase(config, {
    onConnectionError: (error) => {
      // pg's socket frames say nothing the reason does not.
      const { stack: _frames, ...safe } = loggableError(error);
      log?.warn({ reason: databaseUnavailable(error), error: safe }, 'database connection lost');
    },
  });
  await database.migrate();
  if (config.seedDemoData && config.companyId === demoCompany.company.id) {
    const seeded = await ensureCompanySeeded(database.db, demoCompany);
    if (seeded) console.log(`Loaded the demo company (id ${demoCompany.company.id}).`);
  }

  const app = await buildApp({
    config,
    db: database.db,
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
  });
  log = app.log;
  const webBuildDir = config.webBuildDir ?? defaultWebBuildDir;
  if (storefrontBuildExists(webBuildDir)) await mountStorefront(app, webBuildDir);
  else app.log.warn(`No storefront build in ${webBuildDir}: serving the API only (run npm run build).`);

  // Background work from PostgreSQL: the job queue (certificate e-mails), and payments left in confirmation.
  // Any number of processes may run this.
  const outboxTimer =
    config.mail.outboxIntervalMs > 0
      ? setInterval(() => {
          app.runJobs().catch((error: unknown) => app.log.warn({ error: loggableError(error) }, 'job run failed'));
          app
            .sweepPayments()
            .catch((error: unknown) => app.log.warn({ error: loggableError(error) }, 'payment sweep failed'));
        }, config.mail.outboxIntervalMs)
      : undefined;
  app.log.info(`E-mails go to ${app.mailer.destination}`);

  const shutdown = async (signal: string) => {
    app.log.info(`${signal} received, closing`);
    clearInterval(outboxTimer);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const where = `http://localhost:${config.port}`;
  console.log(
    `Travesía is ready at ${where} (API at ${where}/api, docs at ${where}/api/docs) — database: ${database.kind}`,
  );
}

main().catch((error: unknown) => {
  // Start-up problems are one clear line, not a stack trace.
  if (error instanceof ConfigError || error instanceof DatabaseStartError) console.error(`Error: ${error.message}`);
  else console.error(`Error: Travesía could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
