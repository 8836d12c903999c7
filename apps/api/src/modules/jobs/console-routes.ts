import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { recordAudit } from '../audit/service.ts';
import { actorOf, consoleErrors } from '../operators/console-routes.ts';
import { listFailingJobs, retryFailedJob } from './service.ts';

/** What «Hoy» counts as failing: given up in the last 7 days, or retrying. The list shows the same jobs. */
export const failingWindowMs = 7 * 24 * 60 * 60 * 1000;
const pageSize = 200;

const jobSchema = z.object({
  id: z.number(),
  kind: z.string(),
  status: z.enum(['pending', 'done', 'failed']),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  runAfter: z.string(),
});

const notFailedMessage = 'Este trabajo ya no está fallido (otro operador lo reintentó o terminó): recarga la página.';

/**
 * «Trabajos con fallas» (issue 24, the «Hoy» figure's list, admin): the background jobs and e-mails failing now, and
 * «Reintentar» for one given up (due now, attempts from zero; one audit row).
 */
export async function jobsConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;

  app.get(
    '/jobs',
    {
      schema: {
        tags: ['backoffice'],
        description: `The failing jobs: given up in the last 7 days, or retrying after a failed attempt; newest change first, at most ${pageSize}.`,
        response: { 200: z.object({ jobs: z.array(jobSchema) }), ...consoleErrors },
      },
    },
    async () => {
      const rows = await listFailingJobs(db, new Date(fastify.clock().getTime() - failingWindowMs), pageSize);
      return {
        jobs: rows.map((row) => ({
          ...row,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
          runAfter: row.runAfter.toISOString(),
        })),
      };
    },
  );

  app.post(
    '/jobs/:id/retry',
    {
      schema: {
        tags: ['backoffice'],
        description: 'Queues a given-up job again, due now. 409 when it is no longer failed; 404 for an unknown one.',
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: z.object({ retried: z.literal(true) }), ...consoleErrors },
      },
    },
    async (request) => {
      const now = fastify.clock();
      return db.transaction(async (txn) => {
        const tx = txn as unknown as Database;
        const outcome = await retryFailedJob(tx, request.params.id);
        if (!outcome) throw resourceNotFound();
        if (!outcome.retried) {
          throw new ApiError(409, notFailedMessage, [{ field: 'id', code: 'stale', message: notFailedMessage }]);
        }
        const { before } = outcome;
        await recordAudit(
          tx,
          actorOf(request),
          {
            action: 'job.retry',
            targetType: 'job',
            targetId: String(before.id),
            before: { kind: before.kind, status: before.status, attempts: before.attempts },
            after: { kind: before.kind, status: 'pending', attempts: 0 },
          },
          now,
        );
        return { retried: true as const };
      });
    },
  );
}
