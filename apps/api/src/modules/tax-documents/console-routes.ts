import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { recordAudit } from '../audit/service.ts';
import { actorOf, consoleErrors } from '../operators/console-routes.ts';
import { findTaxDocument, notIssuedDocuments, retryTaxDocument } from './service.ts';

const documentSchema = z.object({
  id: z.number(),
  saleId: z.number(),
  typeName: z.string(),
  totalClp: z.number(),
  state: z.enum(['pendiente', 'emitido', 'fallido']),
  tries: z.number(),
  lastError: z.string().nullable().describe("The provider's error in words (Spanish)"),
  createdAt: z.string(),
});

const notFailedMessage =
  'Este documento ya no está fallido (otro operador lo reintentó o se emitió): recarga la página.';

/**
 * «Documentos tributarios sin emitir» (issue 26, the «Hoy» figure's list): documents refused by the provider or not
 * issued after several tries, with its error in words, and «Reintentar» for a refused one (one audit row).
 */
export async function taxDocumentsConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;

  app.get(
    '/tax-documents',
    {
      schema: {
        tags: ['backoffice'],
        description:
          'The tax documents not issued: refused (fallido) or still pending after several tries, oldest first.',
        response: { 200: z.object({ documents: z.array(documentSchema) }), ...consoleErrors },
      },
    },
    async () => ({ documents: await notIssuedDocuments(db) }),
  );

  app.post(
    '/tax-documents/:id/retry',
    {
      schema: {
        tags: ['backoffice'],
        description:
          'Asks the provider again for a refused document (a new issue job, same idempotency key). 409 when it is no longer fallido; 404 for an unknown one.',
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: z.object({ retried: z.literal(true) }), ...consoleErrors },
      },
    },
    async (request) => {
      const now = fastify.clock();
      const retried = await db.transaction(async (txn) => {
        const tx = txn as unknown as Database;
        const before = await retryTaxDocument(tx, request.params.id);
        if (!before) {
          if (!(await findTaxDocument(tx, request.params.id))) throw resourceNotFound();
          throw new ApiError(409, notFailedMessage, [{ field: 'id', code: 'stale', message: notFailedMessage }]);
        }
        await recordAudit(
          tx,
          actorOf(request),
          {
            action: 'tax-document.retry',
            targetType: 'tax-document',
            targetId: String(before.id),
            before: { state: before.state, tries: before.tries, lastError: before.lastError },
            after: { state: 'pendiente', tries: before.tries, lastError: before.lastError },
          },
          now,
        );
        return { retried: true as const };
      });
      fastify.work.emit('jobQueued');
      return retried;
    },
  );
}
