import { type RefundStatus, refundStatusList } from '@travesia/domain/refunds';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { typed } from '#app/http.ts';
import { recordView } from '../audit/service.ts';
import { actorOf, consoleErrors } from '../operators/console-routes.ts';
import {
  addClaimNote,
  assignClaim,
  changeClaimStatus,
  claimDetail,
  claimInbox,
  openSignedDocument,
  recordClaimPayment,
} from './console.ts';

/**
 * The console's claims screen («Reembolsos», issue 24) under /api/backoffice, behind the console's guard: the inbox,
 * a claim's page, its actions and its documents by signed link. Who may call what: guard.ts's `backofficeAccess`
 * (support handles claims, finance records payments; docs/backoffice-roles.md).
 */

const numberParams = z.object({ number: z.string().min(1).max(20) });
const version = z.number().int().positive().describe('The claim version the operator read (409 when it changed)');
const message = z.string().trim().max(2000);
/** Whole pesos, as the payment's transfer was made. */
const clpAmount = z.number().int().positive().max(100_000_000);

const inboxQuery = z.object({
  status: z
    .enum([...refundStatusList, 'waiting'] as [RefundStatus | 'waiting', ...(RefundStatus | 'waiting')[]])
    .optional(),
  assigned: z.enum(['me', 'unassigned']).optional(),
  olderThanDays: z.coerce.number().int().min(1).max(3650).optional(),
  cursor: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
});

const actionAnswer = z.object({ number: z.string(), version: z.number().int(), status: z.string() });

export async function claimConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, documentStore, config } = fastify;
  const secretsKey = config.backoffice.secretsKey;
  const now = () => fastify.clock();
  /** An action that queued the holder's e-mail: the worker is nudged to send it now. */
  const mailed = <T>(result: T) => {
    fastify.work.emit('jobQueued');
    return result;
  };

  app.get(
    '/claims',
    {
      schema: {
        tags: ['backoffice'],
        description:
          "The claims inbox, those waiting longest first, 50 a page (`cursor`: the previous page's `nextCursor`). `status` `waiting`: recibida or en_revision.",
        querystring: inboxQuery,
        response: {
          200: z.object({
            claims: z.array(
              z.object({
                number: z.string(),
                status: z.enum(refundStatusList),
                statusText: z.string(),
                holderName: z.string(),
                certificateNumber: z.string(),
                amount: z.number(),
                currency: z.enum(['CLP', 'USD']),
                assignedTo: z.string().nullable(),
                receivedAt: z.string(),
                updatedAt: z.string(),
                waitingDays: z.number().int(),
              }),
            ),
            nextCursor: z.string().nullable(),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const { cursor, ...filters } = request.query;
      return claimInbox(db, actorOf(request), { ...filters, cursor: cursor ? Number(cursor) : undefined }, now());
    },
  );

  const event = z.object({
    id: z.number().int(),
    kind: z.string(),
    at: z.string(),
    by: z.string(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    text: z.string().nullable(),
  });

  app.get(
    '/claims/:number',
    {
      schema: {
        tags: ['backoffice'],
        description:
          "A claim's page: claimant, certificate, incident, documents (each with a link signed for 5 minutes), amounts, history and internal notes.",
        params: numberParams,
        response: {
          200: z.object({
            number: z.string(),
            version: z.number().int(),
            status: z.enum(refundStatusList),
            statusText: z.string(),
            nextStatuses: z.array(z.enum(refundStatusList)),
            canRecordPayment: z.boolean(),
            receivedAt: z.string(),
            updatedAt: z.string(),
            waitingDays: z.number().int(),
            assignedTo: z.object({ operatorId: z.string(), label: z.string() }).nullable(),
            claimant: z.object({
              name: z.string(),
              documentType: z.string(),
              documentNumber: z.string(),
              email: z.string(),
              phone: z.string(),
              bank: z.string(),
              accountType: z.string(),
              accountNumber: z.string(),
            }),
            certificateNumber: z.string(),
            incident: z.object({ date: z.string(), description: z.string() }),
            amounts: z.object({
              currency: z.enum(['CLP', 'USD']),
              claimed: z.number(),
              approved: z.number().nullable(),
              paidClp: z.number().int().nullable(),
            }),
            missingDocuments: z.string().nullable(),
            rejectionReason: z.string().nullable(),
            documents: z.array(
              z.object({
                id: z.number().int(),
                name: z.string(),
                type: z.string(),
                size: z.number().int(),
                uploadedAt: z.string(),
                link: z.object({ url: z.string(), expiresAt: z.string() }),
              }),
            ),
            history: z.array(event),
            notes: z.array(event),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const at = now();
      const claim = await claimDetail(db, secretsKey, request.params.number, at);
      await recordView(db, actorOf(request), 'claim.viewed', { type: 'claim', id: claim.number }, at);
      return claim;
    },
  );

  app.post(
    '/claims/:number/assign',
    {
      schema: {
        tags: ['backoffice'],
        description: '«Asignarme» (`to: me`, an operator session) or «Soltar» (`to: nobody`).',
        params: numberParams,
        body: z.object({ version, to: z.enum(['me', 'nobody']).default('me') }),
        response: { 200: actionAnswer, ...consoleErrors },
      },
    },
    async (request) => assignClaim(db, actorOf(request), request.params.number, request.body, now()),
  );

  app.post(
    '/claims/:number/status',
    {
      schema: {
        tags: ['backoffice'],
        description:
          "Changes the status (not to pagada: that is POST …/payment) with an optional message the holder is e-mailed: `amount` to approve (the claim's currency, whole pesos for CLP), `reason` to reject, `missing` (the documents, in words) for faltan_documentos.",
        params: numberParams,
        body: z.object({
          version,
          status: z.enum(refundStatusList),
          message: message.optional(),
          amount: z.number().positive().max(100_000_000).optional(),
          reason: z.string().trim().max(1000).optional(),
          missing: z.string().trim().max(1000).optional(),
        }),
        response: { 200: actionAnswer, ...consoleErrors },
      },
    },
    async (request) =>
      mailed(await changeClaimStatus(db, actorOf(request), request.params.number, request.body, now())),
  );

  app.post(
    '/claims/:number/payment',
    {
      schema: {
        tags: ['backoffice'],
        description:
          'Records the transfer of an approved claim (whole pesos): it becomes pagada and the holder is e-mailed.',
        params: numberParams,
        body: z.object({ version, paidAmountClp: clpAmount, message: message.optional() }),
        response: { 200: actionAnswer, ...consoleErrors },
      },
    },
    async (request) =>
      mailed(await recordClaimPayment(db, actorOf(request), request.params.number, request.body, now())),
  );

  app.post(
    '/claims/:number/notes',
    {
      schema: {
        tags: ['backoffice'],
        description: 'An internal note on the claim: shown to operators, never e-mailed.',
        params: numberParams,
        body: z.object({ text: message.min(1) }),
        response: { 201: z.object({ number: z.string(), notes: z.number().int() }), ...consoleErrors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await addClaimNote(db, actorOf(request), request.params.number, request.body.text, now())),
  );

  app.get(
    '/claim-documents/:id',
    {
      schema: {
        tags: ['backoffice'],
        description:
          "A claim's document by the signed link of its page (5 minutes): PDF, JPG or PNG as stored, inline, streamed, sandboxed. A changed link is 404, an expired one 403.",
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        querystring: z.object({
          expires: z.coerce.number().int().positive(),
          signature: z.string().min(1).max(100),
        }),
      },
    },
    async (request, reply) => {
      const file = await openSignedDocument(
        db,
        documentStore,
        secretsKey,
        { fileId: request.params.id, expires: request.query.expires, signature: request.query.signature },
        now(),
      );
      const body = await file.open();
      await recordView(
        db,
        actorOf(request),
        'claim_document.opened',
        { type: 'claim_document', id: String(file.id) },
        now(),
      );
      return (
        reply
          .type(file.contentType)
          .header('content-disposition', `inline; filename="documento-${file.id}.${file.extension}"`)
          .header('x-content-type-options', 'nosniff')
          // Whatever the bytes hold, they never run a script or reach anything: a sandbox with no permission, no
          // source but its own images, shown only in the console's own frame.
          .header(
            'content-security-policy',
            "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
          )
          .header('x-frame-options', 'SAMEORIGIN')
          .send(body)
      );
    },
  );
}
