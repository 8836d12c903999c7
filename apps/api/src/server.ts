import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.ts';
import { backofficeBuildExists, mountBackoffice } from './backoffice-web.ts';
import { loadConfig } from './config.ts';
import { demoCompany } from './db/seed/demo-company.ts';
import { ensureCompanySeeded } from './db/seed/index.ts';
import { closeOnSignal, openMigratedDatabase, runMain } from './startup.ts';
import { mountStorefront, reactBuildInUse, storefrontBuildExists } from './web.ts';
import { type RunningWorker, startWorker } from './worker.ts';

/** apps/web/build, seen from apps/api/src (tsx) and from apps/api/dist (the bundle) alike. */
const defaultWebBuildDir = fileURLToPath(new URL('../../web/build', import.meta.url));
/** apps/backoffice/build, the operator console, likewise. */
const backofficeBuildDir = fileURLToPath(new URL('../../backoffice/build', import.meta.url));

async function main() {
  const config = loadConfig();
  let log: FastifyBaseLogger | undefined;
  let seeded = false;
  const database = await openMigratedDatabase(config, {
    log: () => log,
    setup: async (db) => {
      if (config.seedDemoData && config.companyId === demoCompany.company.id) {
        seeded = await ensureCompanySeeded(db, demoCompany);
      }
    },
  });
  if (seeded) console.log(`Loaded the demo company (id ${demoCompany.company.id}).`);

  const app = await buildApp({
    config,
    db: database.db,
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
  });
  log = app.log;
  for (const warning of config.warnings) app.log.warn(warning);
  const webBuildDir = config.webBuildDir ?? defaultWebBuildDir;
  if (storefrontBuildExists(webBuildDir)) await mountStorefront(app, webBuildDir);
  else app.log.warn(`No storefront build in ${webBuildDir}: serving the API only (run npm run build).`);
  if (backofficeBuildExists(backofficeBuildDir)) await mountBackoffice(app, backofficeBuildDir);
  else app.log.warn(`No console build in ${backofficeBuildDir}: no /backoffice (run npm run build).`);
  const react = reactBuildInUse();
  if (react === 'development') {
    app.log.warn("Pages render with React's development build (slower): npm start sets NODE_ENV=production");
  }
  app.log.info(`E-mails go to ${app.mailer.destination}`);

  let worker: RunningWorker | undefined;
  closeOnSignal(app.log, async () => {
    await worker?.stop();
    await app.close();
    await database.close();
  });

  await app.listen({ port: config.port, host: config.host });
  // Background work (worker.ts): here unless WORKER=off leaves it to `npm run worker` processes.
  if (config.worker.mode === 'inline') worker = startWorker(app, config.worker, app.log, config.retention);
  else if (database.kind === 'pglite') {
    app.log.warn('WORKER=off on the embedded database: no process sends e-mails or settles payments');
  }
  const where = `http://localhost:${config.port}`;
  console.log(
    `Travesía is ready at ${where} (API at ${where}/api, docs at ${where}/api/docs) — database: ${database.kind}, deployment: ${config.deployment}, React: ${react ?? 'not loaded'} build`,
  );
}

runMain('Travesía', main);
