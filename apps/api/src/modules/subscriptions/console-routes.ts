import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { typed } from '#app/http.ts';
import { actorOf, consoleErrors, keysetPage } from '../operators/console-routes.ts';
import { messages } from '../operators/service.ts';
import {
  listSubscriptions,
  recordSubscribersExport,
  type SubscriptionSummary,
  subscribersCsv,
  unsubscribe,
} from './service.ts';

const tags = ['backoffice'];

const subscriberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  state: z.enum(['confirmed', 'pending']),
  subscribedAt: z.string(),
  confirmedAt: z.string().nullable(),
});
const view = (row: SubscriptionSummary) => ({
  id: row.id,
  email: row.email,
  state: row.confirmedAt ? ('confirmed' as const) : ('pending' as const),
  subscribedAt: row.createdAt.toISOString(),
  confirmedAt: row.confirmedAt?.toISOString() ?? null,
});

const emailSearch = z.string().trim().min(1).max(254).optional();
const listQuery = z.object({
  state: z.enum(['confirmed', 'pending']).optional(),
  email: emailSearch,
  cursor: z
    .string()
    .regex(/^\d{1,10}$/)
    .optional(),
});

/**
 * Screen 6, «Newsletter» (issue 24): subscribers confirmed and pending, an unsubscribe, and the confirmed ones as CSV.
 * Roles in guard.ts; the unsubscribe and the export are audited.
 */
export async function newsletterConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;
  const invalid = { invalidInputDetail: messages.invalidInput };

  app.get(
    '/newsletter/subscribers',
    {
      config: invalid,
      schema: {
        tags,
        description:
          "Subscribers, newest first, 50 a page: by state and part of the e-mail; `cursor` is the previous page's `nextCursor`.",
        querystring: listQuery,
        response: {
          200: z.object({ subscribers: z.array(subscriberSchema), nextCursor: z.string().nullable() }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const { state, email, cursor } = request.query;
      const page = await keysetPage(cursor, (afterId, limit) =>
        listSubscriptions(db, { state, email, afterId }, limit),
      );
      return { subscribers: page.rows.map(view), nextCursor: page.nextCursor };
    },
  );

  app.delete(
    '/newsletter/subscribers/:id',
    {
      config: invalid,
      schema: {
        tags,
        description: 'Unsubscribes one address (confirmed or pending). 404 when it is gone (someone did it first).',
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 204: z.null(), ...consoleErrors },
      },
    },
    async (request, reply) => {
      await unsubscribe(db, actorOf(request), request.params.id, fastify.clock());
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/newsletter/subscribers.csv',
    {
      config: invalid,
      schema: {
        tags,
        description: 'The confirmed subscribers as CSV (optionally those whose e-mail contains `email`), streamed.',
        querystring: z.object({ email: emailSearch }),
      },
    },
    async (request, reply) => {
      const filter = request.query.email ? { email: request.query.email } : {};
      await recordSubscribersExport(db, actorOf(request), filter, fastify.clock());
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="suscriptores.csv"')
        .send(Readable.from(subscribersCsv(db, filter)));
    },
  );
}
