import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { errorBodySchema } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { recordAudit } from '../audit/service.ts';
import { actorOf, consoleErrors } from '../operators/console-routes.ts';
import {
  listSaleRefundsPage,
  type SaleRefundRow,
  saleRefundState,
  saleRefundStateFilters,
  saleRefundStates,
} from './repository.ts';
import { releaseSaleRefund, saleRefundView, transferReferenceMaxLength } from './sale-refunds.ts';
import { saleRefundMethods, saleRefundReasons } from './tables.ts';

/**
 * Screen 3 of the console (issue 24), «Reembolsos de ventas»: the queue of sale refunds and the operator's steps on
 * one (hold, record its bank transfer, release), through the same services as the admin API and `npm run refunds`
 * (sale-refunds.ts). Each step names the version it saw (of two operators at once, one acts, the other gets 409
 * `stale`), is done by whoever the session or API key is, and writes its one audit row in its own transaction.
 */

const pageSize = 50;
/**
 * A bank's operation number or a short note: letters, digits, spaces and . , : # / _ - (no markup, no controls),
 * starting with a letter or digit (a blank one is `required`, by the length check).
 */
const referencePattern = /^(?:[\p{L}\p{N}][\p{L}\p{N} .,:#/_-]*)?$/u;
const referenceSchema = z
  .string('Escribe la referencia de la transferencia.')
  .trim()
  .min(1, 'Escribe la referencia de la transferencia.')
  .max(transferReferenceMaxLength, `La referencia tiene como máximo ${transferReferenceMaxLength} caracteres.`)
  .regex(
    referencePattern,
    'La referencia empieza con una letra o un número y solo lleva letras, números, espacios y . , : # / _ -',
  )
  .describe("The bank transfer's reference (operation number): unique among sale refunds");
const invalidInput = 'Revisa los datos del reembolso.';

const versionSchema = z
  .number('Recarga la página: falta la versión del reembolso.')
  .int()
  .positive()
  .describe('The version of the refund as the operator saw it');
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

const consoleRefundSchema = z.object({
  id: z.number().int(),
  saleId: z.number().int(),
  paymentId: z.number().int(),
  gateway: z.string(),
  buyOrder: z.string(),
  reason: z.enum(saleRefundReasons),
  amountClp: z.number().int(),
  state: z.enum(saleRefundStates),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  refundedAt: z.string().nullable(),
  method: z.enum(saleRefundMethods).nullable(),
  transferReference: z.string().nullable(),
  markedBy: z.string().nullable(),
  heldAt: z.string().nullable(),
  heldBy: z.string().nullable(),
  heldReason: z.string().nullable(),
  version: z.number().int(),
});

/** A refund as the console shows it and the audit keeps it (before and after a step). */
function consoleView(refund: SaleRefundRow) {
  return {
    ...saleRefundView(refund),
    state: saleRefundState(refund),
    heldReason: refund.heldReason,
    version: refund.version,
  };
}

export async function saleRefundConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;

  /** The console step of `request` on refund `id`: its version, and its audit row as `action`. */
  const stepOf = (request: FastifyRequest, action: string, id: number, version: number) => {
    const actor = actorOf(request);
    return {
      by: actor.label,
      step: {
        version,
        audit: (tx: Database, before: SaleRefundRow, after: SaleRefundRow) =>
          recordAudit(
            tx,
            actor,
            {
              action,
              targetType: 'sale_refund',
              targetId: String(id),
              before: consoleView(before),
              after: consoleView(after),
            },
            fastify.clock(),
          ),
      },
    };
  };
  const stepResponse = { 200: z.object({ refund: consoleRefundSchema }), ...consoleErrors, 503: errorBodySchema };

  app.get(
    '/sale-refunds',
    {
      config: { invalidInputDetail: invalidInput },
      schema: {
        tags: ['backoffice'],
        description:
          "The queue of sale refunds in `state` (default `open`: every one not refunded yet), oldest first, 50 a page; `cursor` is the previous page's `nextCursor`.",
        querystring: z.object({
          state: z.enum(saleRefundStateFilters).default('open'),
          cursor: z.coerce.number().int().positive().max(2_147_483_647).optional(),
        }),
        response: {
          200: z.object({ refunds: z.array(consoleRefundSchema), nextCursor: z.string().nullable() }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const rows = await listSaleRefundsPage(db, {
        state: request.query.state,
        after: request.query.cursor,
        limit: pageSize + 1,
      });
      const page = rows.slice(0, pageSize);
      return {
        refunds: page.map(({ refund, gateway, buyOrder }) => ({ ...consoleView(refund), gateway, buyOrder })),
        nextCursor: rows.length > pageSize ? String(page.at(-1)?.refund.id) : null,
      };
    },
  );

  /** The payment's gateway and order of a refund just changed (the row answered has them like the list's). */
  const withPayment = async (refund: SaleRefundRow) => {
    const [row] = await listSaleRefundsPage(db, { state: 'all', id: refund.id, limit: 1 });
    return { refund: { ...consoleView(refund), gateway: row?.gateway ?? '', buyOrder: row?.buyOrder ?? '' } };
  };

  app.post(
    '/sale-refunds/:id/hold',
    {
      config: { invalidInputDetail: invalidInput },
      schema: {
        tags: ['backoffice'],
        description:
          'Holds a pending sale refund to give it back by bank transfer, with the reason: the gateway is asked first (if it already gave it back, the refund is recorded as refunded instead). 409 `stale` when the refund changed since `version`, `invalid_transition` when it is not pending, `refund_in_progress` while the sweeper attempts it; 503 when the gateway does not answer.',
        params: idParams,
        body: z.object({
          version: versionSchema,
          reason: z
            .string('Escribe por qué lo retienes.')
            .trim()
            .min(3, 'Escribe por qué lo retienes (al menos 3 caracteres).')
            .max(300, 'El motivo tiene como máximo 300 caracteres.'),
        }),
        response: stepResponse,
      },
    },
    async (request) => {
      const { id } = request.params;
      const { by, step } = stepOf(request, 'sale_refund.hold', id, request.body.version);
      const result = await fastify.work.services.holdRefund(id, by, { ...step, reason: request.body.reason });
      request.log.info({ saleRefundId: id, outcome: result.outcome }, 'sale refund held from the console');
      return withPayment(result.refund);
    },
  );

  app.post(
    '/sale-refunds/:id/transfer',
    {
      config: { invalidInputDetail: invalidInput },
      schema: {
        tags: ['backoffice'],
        description:
          "Records the bank transfer that gave a held sale refund back, with the transfer's reference (unique: a reference already recorded is 409 `reference_taken`). Completes the refund's reason as a gateway refund does. 409 `stale` when the refund changed since `version`, `refund_not_held` when it is not held, `invalid_transition` when already refunded.",
        params: idParams,
        body: z.object({
          version: versionSchema,
          reference: referenceSchema,
        }),
        response: stepResponse,
      },
    },
    async (request) => {
      const { id } = request.params;
      const { by, step } = stepOf(request, 'sale_refund.transfer', id, request.body.version);
      const result = await fastify.work.services.refundByHand(id, { reference: request.body.reference, by }, step);
      request.log.info({ saleRefundId: id }, 'sale refund recorded as transferred from the console');
      return withPayment(result.refund);
    },
  );

  app.post(
    '/sale-refunds/:id/release',
    {
      config: { invalidInputDetail: invalidInput },
      schema: {
        tags: ['backoffice'],
        description:
          "Puts a held sale refund back in the payment sweeper's queue, due now. 409 `stale` when the refund changed since `version`, `invalid_transition` when it is not held.",
        params: idParams,
        body: z.object({ version: versionSchema }),
        response: stepResponse,
      },
    },
    async (request) => {
      const { id } = request.params;
      const { step } = stepOf(request, 'sale_refund.release', id, request.body.version);
      const result = await releaseSaleRefund({ db }, id, step);
      request.log.info({ saleRefundId: id }, 'sale refund released from the console');
      return withPayment(result.refund);
    },
  );
}
