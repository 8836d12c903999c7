import { errorMessages } from '@travesia/domain/messages';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Config } from '#app/config.ts';
import type { Database } from '#app/db/client.ts';
import { ApiError, errorBody } from '#app/errors.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import { apiKeyLookup, operatorDeps } from '#app/modules/operators/service.ts';
import { metricsPath, registerMetrics } from './metrics.ts';

/**
 * The worker alone's vital signs (`npm run worker` with WORKER_METRICS_PORT): the same registry as the server's
 * GET /api/metrics (registerMetrics: the e-mails this process sent or failed, its cache lookups, event-loop lag and
 * pool, the jobs, payments and refunds read from the database when scraped), at the same path, behind the same
 * Bearer ADMIN_TOKEN, on a small HTTP server of its own. Without WORKER_METRICS_PORT: nothing listens (undefined).
 * Every other path, and the metrics without the token, answer the §8 404.
 */
export async function serveWorkerMetrics(options: {
  config: Config;
  db: Database;
  log: FastifyBaseLogger;
}): Promise<FastifyInstance | undefined> {
  const { config, db, log } = options;
  const port = config.worker.metricsPort;
  if (port === undefined) return undefined;
  const app = Fastify({
    loggerInstance: log,
    logController: new LogController({ disableRequestLogging: true }),
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.connectionTimeoutMs,
  });
  app.decorate('config', config);
  app.decorate('db', db);
  // The metrics' guard takes an operator API key (role admin or finance) as the server's does.
  app.decorate('apiKeyOf', apiKeyLookup(operatorDeps(db, config.backoffice.secretsKey)));
  registerMetrics(app);
  const instanceOf = (url: string) => url.split('?')[0] ?? '/';
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.status).send(errorBody(error.status, error.detail, instanceOf(request.url)));
    }
    request.log.error({ error: loggableError(error) }, 'worker metrics: unhandled error');
    return reply.code(500).send(errorBody(500, errorMessages.internal, instanceOf(request.url)));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody(404, errorMessages.resourceNotFound, instanceOf(request.url))),
  );
  await app.listen({ host: config.host, port });
  log.info(`Worker metrics at http://${config.host}:${port}${metricsPath} (Bearer ADMIN_TOKEN)`);
  return app;
}
