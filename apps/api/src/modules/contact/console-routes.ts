import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { actorOf, consoleErrors, keysetPage } from '../operators/console-routes.ts';
import { messages } from '../operators/service.ts';
import {
  type ContactRequestRow,
  closeContactRequest,
  contactMessages,
  contactRequestStates,
  findContactRequest,
  listContactRequests,
} from './service.ts';

const tags = ['backoffice'];
/** The reply's length: long enough for a careful answer, short enough for an e-mail. */
export const replyMaxLength = 5000;

const summarySchema = z.object({
  id: z.number().int(),
  receivedAt: z.string(),
  fullName: z.string(),
  email: z.string(),
  subject: z.string(),
  state: z.enum(contactRequestStates),
  closedAt: z.string().nullable(),
  closedBy: z.object({ operatorId: z.string().nullable(), name: z.string().nullable(), label: z.string() }).nullable(),
});
const detailSchema = summarySchema.extend({
  phone: z.string(),
  detail: z.string(),
  recipient: z.string(),
  reply: z.string().nullable(),
});

const summary = (row: ContactRequestRow) => ({
  id: row.id,
  receivedAt: row.createdAt.toISOString(),
  fullName: row.fullName,
  email: row.email,
  subject: row.subjectLabel,
  state: row.state as (typeof contactRequestStates)[number],
  closedAt: row.closedAt?.toISOString() ?? null,
  closedBy: row.closedByLabel
    ? { operatorId: row.closedByOperatorId, name: row.closedByName, label: row.closedByLabel }
    : null,
});
const detail = (row: ContactRequestRow) => ({
  ...summary(row),
  phone: row.phone,
  detail: row.detail,
  recipient: row.recipient,
  reply: row.reply,
});

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const inboxQuery = z.object({
  state: z.enum(contactRequestStates).optional(),
  /** Only requests received more than this many hours ago (the «Hoy» link asks for 24). */
  olderThanHours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 366)
    .optional(),
  cursor: z
    .string()
    .regex(/^\d{1,10}$/)
    .optional(),
});

/**
 * Screen 5, «Contacto» (issue 24): the contact requests' inbox, a request, a reply e-mailed from the console, and
 * «atendida». Roles admin and support (guard.ts); every action audited with its change.
 */
export async function contactConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;
  const invalid = { invalidInputDetail: messages.invalidInput };

  /** Who closes a request, from the guard's caller: the session's operator (id, name, e-mail) or the API key. */
  const closerOf = (request: Parameters<typeof actorOf>[0]) => {
    const caller = request.backofficeCaller;
    return {
      actor: actorOf(request),
      name: caller?.kind === 'session' ? (caller.signedIn.operator.name ?? null) : null,
    };
  };

  app.get(
    '/contact-requests',
    {
      config: invalid,
      schema: {
        tags,
        description:
          "Contact requests, newest first, 50 a page, by state and age; `cursor` is the previous page's `nextCursor`.",
        querystring: inboxQuery,
        response: {
          200: z.object({ requests: z.array(summarySchema), nextCursor: z.string().nullable() }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const { state, olderThanHours, cursor } = request.query;
      const receivedBefore = olderThanHours
        ? new Date(fastify.clock().getTime() - olderThanHours * 3_600_000)
        : undefined;
      const page = await keysetPage(cursor, (afterId, limit) =>
        listContactRequests(db, { state, receivedBefore, afterId }, limit),
      );
      return { requests: page.rows.map(summary), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/contact-requests/:id',
    {
      config: invalid,
      schema: { tags, params: idParams, response: { 200: z.object({ request: detailSchema }), ...consoleErrors } },
    },
    async (request) => {
      const row = await findContactRequest(db, request.params.id);
      if (!row) throw new ApiError(404, contactMessages.notFound);
      return { request: detail(row) };
    },
  );

  app.post(
    '/contact-requests/:id/reply',
    {
      config: invalid,
      schema: {
        tags,
        description:
          "Replies by e-mail to an unanswered request (queued; from the company's sender, Reply-To the company's contact address) and marks it answered. 409 when someone answered or handled it first.",
        params: idParams,
        body: z.object({ reply: z.string().trim().min(1).max(replyMaxLength) }),
        response: { 200: z.object({ request: detailSchema }), ...consoleErrors },
      },
    },
    async (request) => {
      const row = await closeContactRequest(
        db,
        closerOf(request),
        request.params.id,
        request.body.reply,
        fastify.clock(),
      );
      fastify.work.emit('jobQueued');
      return { request: detail(row) };
    },
  );

  app.post(
    '/contact-requests/:id/handled',
    {
      config: invalid,
      schema: {
        tags,
        description:
          'Marks an unanswered request handled (dealt with outside the console: by phone, a duplicate, spam). 409 when someone answered or handled it first.',
        params: idParams,
        response: { 200: z.object({ request: detailSchema }), ...consoleErrors },
      },
    },
    async (request) => ({
      request: detail(await closeContactRequest(db, closerOf(request), request.params.id, null, fastify.clock())),
    }),
  );
}
