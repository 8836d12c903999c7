import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError, errorBodySchema, errorResponses } from '#app/errors.ts';
import { companyParams, dbId, typed } from '#app/http.ts';
import { paymentTypeForInstalments } from '#app/integrations/payments/sandbox.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import { accessTokenQuery } from '#app/lib/security/access-token.ts';
import { adminOnly } from '#app/lib/security/admin-token.ts';
import { publicBaseUrl } from '#app/lib/security/public-origin.ts';
import { recordAudit } from '../audit/service.ts';
import * as repository from './repository.ts';
import {
  listStuckSaleRefunds,
  releaseSaleRefund,
  saleRefundView,
  stuckAfterAttempts,
  transferReferenceMaxLength,
} from './sale-refunds.ts';
import { sandboxDonePage, sandboxPaymentPage } from './sandbox-page.ts';
import {
  gatewayReturnSchema,
  paymentBodySchema,
  paymentCreatedSchema,
  paymentResultSchema,
  quotationAddOnsSchema,
} from './schemas.ts';
import { addOnsOfQuotation, confirmReturn, type PaymentDeps, paymentResult, startPayment } from './service.ts';
import { saleRefundMethods, saleRefundReasons } from './tables.ts';

const tags = ['payments'];
const companyQuotationParams = companyParams.extend({ quotationId: z.uuid() });

export function paymentRoutes(options: Pick<PaymentDeps, 'workflow'>) {
  return async (fastify: FastifyInstance) => {
    const app = typed(fastify);
    const { db, config, work } = fastify;
    const deps: Omit<PaymentDeps, 'log'> = {
      db,
      gateways: fastify.integrations.gateways,
      onPaid: (saleId) => work.emit('salePaid', saleId),
      workflow: options.workflow,
    };
    const withLog = (request: FastifyRequest): PaymentDeps => ({ ...deps, log: request.log });

    // Gateways come back with form posts (Webpay) as well as GETs.
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    app.post(
      '/payments',
      {
        config: { invalidInputDetail: errorMessages.invalidInputs, rateLimit: config.rateLimits.paymentStart },
        schema: {
          tags,
          description:
            "Starts paying a quotation's chosen plan through a gateway. The amount is priced on the server from the stored quotation.",
          body: paymentBodySchema,
          response: { 201: paymentCreatedSchema, ...errorResponses, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        const base = publicBaseUrl(request, config);
        const created = await startPayment(withLog(request), {
          quotationId: request.body.quotationId,
          gatewayId: request.body.gatewayId,
          consents: request.body.consents,
          returnUrl: (gatewayId) => `${base}/api/payments/return/${gatewayId}`,
        });
        return reply.code(201).send(created);
      },
    );

    app.get(
      '/companies/:companyId/quotations/:quotationId/add-ons',
      {
        config: { invalidInputDetail: errorMessages.invalidInputs },
        schema: {
          tags,
          description:
            "Not in spec §7 (issue 27 §1): the add-ons the purchase step offers each travelling age band with the quotation's chosen plan (price per traveller, or why not), the travellers' saved choices priced, and the total the payment will charge (plan + add-ons). 400 when no plan is chosen or it is no longer sold for the trip.",
          params: companyQuotationParams,
          response: { 200: quotationAddOnsSchema, ...errorResponses },
        },
      },
      (request) => addOnsOfQuotation(db, request.params.companyId, request.params.quotationId),
    );

    const returnHandler = async (request: FastifyRequest, params: unknown, gatewayId: string) => {
      const parsed = gatewayReturnSchema.safeParse(params ?? {});
      if (!parsed.success) return '/error?motivo=desconocido';
      try {
        const payment = await confirmReturn(withLog(request), gatewayId, parsed.data);
        // A date change's difference returns to «Mi compra», which shows the new dates (or that nothing changed).
        if (payment.purpose === 'date_change') {
          return `/mi-compra?cambio=${payment.status === 'authorized' ? 'pagado' : 'no-pagado'}`;
        }
        return payment.status === 'authorized'
          ? `/exito?venta=${payment.saleId}&transaccion=${payment.id}`
          : `/error?venta=${payment.saleId}&transaccion=${payment.id}`;
      } catch (error) {
        // Only the safe fields: a failed lookup's message quotes its SQL and parameters (the gateway's token).
        request.log.warn({ gatewayId, error: loggableError(error) }, 'payment return not matched');
        return '/error?motivo=desconocido';
      }
    };
    const gatewayParams = z.object({ gatewayId: z.string().min(1).max(40) });

    app.get(
      '/payments/return/:gatewayId',
      {
        schema: {
          tags,
          description: "The gateway's return URL (GET)",
          params: gatewayParams,
          querystring: gatewayReturnSchema,
        },
      },
      async (request, reply) =>
        reply.redirect(await returnHandler(request, request.query, request.params.gatewayId), 303),
    );
    app.post(
      '/payments/return/:gatewayId',
      { schema: { tags, description: "The gateway's return URL (form POST)", params: gatewayParams } },
      async (request, reply) =>
        reply.redirect(await returnHandler(request, request.body, request.params.gatewayId), 303),
    );

    app.get(
      '/companies/:idTransaction/payment-result/:idVenta',
      {
        schema: {
          tags,
          description: 'The outcome of a payment attempt (idTransaction) of a sale (idVenta)',
          params: z.object({ idTransaction: z.coerce.number().pipe(dbId), idVenta: z.coerce.number().pipe(dbId) }),
          querystring: accessTokenQuery,
          response: { 200: paymentResultSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { idTransaction, idVenta } = request.params;
        const result = await paymentResult(
          db,
          idTransaction,
          idVenta,
          request.query.token,
          deps.gateways,
          deps.workflow.certificatesOf,
        );
        return {
          ...result,
          resultTransaction: result.resultTransaction as z.infer<typeof paymentResultSchema>['resultTransaction'],
        };
      },
    );

    // The sandbox gateway's payment page, served by the API like a card network's test mode.
    const tokenParams = z.object({ token: z.string().min(1).max(80) });
    // Its refusals are a page for the payer's browser (which asks for HTML); any other client gets the §8 body, as
    // from every other /api path (issue #11).
    const refuse = (request: FastifyRequest, reply: FastifyReply, status: 404 | 409, page: string) => {
      if (!request.headers.accept?.includes('text/html')) {
        throw new ApiError(status, status === 404 ? errorMessages.resourceNotFound : errorMessages.unexpected);
      }
      return reply.code(status).type('text/html; charset=utf-8').send(page);
    };
    app.get('/payments/sandbox/:token', { schema: { hide: true, params: tokenParams } }, async (request, reply) => {
      const transaction = await repository.findSandboxTransaction(db, request.params.token);
      if (!transaction) return refuse(request, reply, 404, sandboxDonePage('Transacción de prueba inexistente'));
      reply.type('text/html; charset=utf-8');
      if (transaction.status !== 'created') return sandboxDonePage('Esta transacción ya fue procesada');
      return sandboxPaymentPage({
        token: transaction.token,
        buyOrder: transaction.buyOrder,
        amountClp: transaction.amountClp,
      });
    });
    app.post(
      '/payments/sandbox/:token',
      {
        schema: {
          hide: true,
          params: tokenParams,
          body: z.object({
            decision: z.enum(['approve', 'decline', 'abandon']),
            instalments: z.coerce.number().int().min(1).max(6).default(1),
          }),
        },
      },
      async (request, reply) => {
        const { decision, instalments } = request.body;
        const status = decision === 'approve' ? 'approved' : decision === 'decline' ? 'declined' : 'aborted';
        const transaction = await repository.decideSandboxTransaction(db, request.params.token, {
          status,
          instalments: decision === 'approve' ? instalments : null,
        });
        if (!transaction) return refuse(request, reply, 409, sandboxDonePage('Esta transacción ya fue procesada'));
        request.log.info({ decision, paymentType: paymentTypeForInstalments(instalments) }, 'sandbox decision');
        // Back to the store exactly as Webpay returns: token_ws after a decision, TBK_* when abandoned.
        const back = new URL(transaction.returnUrl);
        if (status === 'aborted') {
          back.searchParams.set('TBK_TOKEN', transaction.token);
          back.searchParams.set('TBK_ORDEN_COMPRA', transaction.buyOrder);
          back.searchParams.set('TBK_ID_SESION', transaction.sessionId);
        } else back.searchParams.set('token_ws', transaction.token);
        return reply.redirect(back.toString(), 303);
      },
    );
  };
}

const saleRefundSchema = z
  .object({
    id: z.number().int(),
    saleId: z.number().int(),
    paymentId: z.number().int(),
    reason: z
      .enum(saleRefundReasons)
      .describe('withdrawal (derecho a retracto) or date_change (a cheaper date change)'),
    amountClp: z.number().int(),
    status: z.enum(['pending', 'refunded']),
    attempts: z.number().int().describe('Gateway attempts started'),
    lastError: z.string().nullable().describe("The last attempt's failure, in words"),
    nextAttemptAt: z.string(),
    createdAt: z.string(),
    refundedAt: z.string().nullable(),
    method: z.enum(saleRefundMethods).nullable().describe('Once refunded: through the gateway, or manual (a transfer)'),
    transferReference: z.string().nullable(),
    markedBy: z.string().nullable(),
    heldAt: z
      .string()
      .nullable()
      .describe(
        'When an operator held it to give it back by transfer (the sweeper no longer tries it); null if not held',
      ),
    heldBy: z.string().nullable().describe('Who held it'),
  })
  .meta({ id: 'SaleRefund' });

/**
 * The operator's side of sale refunds (Bearer ADMIN_TOKEN, checked before anything else is read: without it every
 * request answers the catch-all 404): the refunds the gateway cannot make, and recording one given back by transfer,
 * through the background work's services (`app.work.services`).
 */
type SaleRefundView = ReturnType<typeof saleRefundView>;

export async function saleRefundAdminRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;
  /**
   * The audit row of a call by API key that changed a refund (ADMIN_TOKEN names nobody: deprecated, not audited).
   * Written right after the change, not in its transaction: the services' audit hook (ConsoleStep) comes with the
   * console's version check and its refusals of a refund in another state, which the admin API's idempotent answers
   * (`unchanged`, `changed: false`) must not get. The row before is read first, so it shows what the call changed.
   */
  const auditStep = async (
    request: FastifyRequest,
    action: string,
    before: SaleRefundView | undefined,
    after: SaleRefundView,
  ) => {
    const actor = request.adminApiKeyActor;
    if (!actor) return;
    await recordAudit(
      db,
      actor,
      { action, targetType: 'sale_refund', targetId: String(after.id), before: before ?? null, after },
      fastify.clock(),
    );
  };
  /** The refund as it is now, for the audit row's `before` (only when the caller is an API key). */
  const refundBefore = async (request: FastifyRequest, id: number) => {
    if (!request.adminApiKeyActor) return undefined;
    const [row] = await repository.listSaleRefundsPage(db, { state: 'all', id, limit: 1 });
    return row ? saleRefundView(row.refund) : undefined;
  };

  app.get(
    '/admin/sale-refunds',
    {
      onRequest: adminOnly(config.refunds.adminToken),
      schema: {
        tags: ['admin'],
        description: `The sale refunds that need a hand (Authorization: Bearer ADMIN_TOKEN): pending with more than \`minAttempts\` attempts (default ${stuckAfterAttempts}) or a last error (Webpay refuses partial refunds of debit payments: those stay pending). Oldest first. Without ADMIN_TOKEN configured, or with another token, 404.`,
        querystring: z.object({
          minAttempts: z.coerce.number().int().min(0).max(1_000_000).default(stuckAfterAttempts),
          reason: z.enum(saleRefundReasons).optional(),
          saleId: z.coerce.number().pipe(dbId).optional(),
          gateway: z.string().trim().min(1).max(40).optional(),
          limit: z.coerce.number().int().min(1).max(500).default(100),
        }),
        response: {
          200: z.array(saleRefundSchema.extend({ gateway: z.string(), buyOrder: z.string() })),
          ...errorResponses,
        },
      },
    },
    (request) => listStuckSaleRefunds(db, request.query),
  );

  app.post(
    '/admin/sale-refunds/:id/hold',
    {
      onRequest: adminOnly(config.refunds.adminToken),
      schema: {
        tags: ['admin'],
        description:
          'Holds a sale refund before giving it back by bank transfer (Authorization: Bearer ADMIN_TOKEN): first asks the gateway what it has given back of the payment. If the gateway already refunded it, it is recorded as a gateway refund and completed (`outcome: refunded`: no transfer to make). Otherwise it is held (`outcome: held`, `heldAt`, `heldBy`): the payment sweeper never tries it again, and it may be transferred and then marked (`…/manual`). Already held or refunded: answered as it is (`outcome: unchanged`). While the sweeper is attempting it at the gateway: 409 `refund_in_progress`; the gateway not answering: 503 `gateway_unavailable` (nothing changed, try later). Without ADMIN_TOKEN configured, or with another token, 404.',
        params: z.object({ id: z.coerce.number().pipe(dbId) }),
        body: z
          .object({
            operator: z.string().trim().min(1).max(100).optional().describe('Who holds it (else «admin API»)'),
          })
          .optional(),
        response: {
          200: saleRefundSchema.extend({
            outcome: z
              .enum(['held', 'refunded', 'unchanged'])
              .describe(
                'held now; refunded (the gateway had already given it back); unchanged (already held or refunded)',
              ),
          }),
          ...errorResponses,
          409: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      const before = await refundBefore(request, request.params.id);
      const by = request.adminApiKeyActor?.label ?? request.body?.operator ?? 'admin API';
      const result = await fastify.work.services.holdRefund(request.params.id, by);
      if (result.outcome !== 'unchanged') {
        request.log.info({ saleRefundId: result.refund.id, outcome: result.outcome }, 'sale refund held for transfer');
        await auditStep(request, 'sale_refund.hold', before, saleRefundView(result.refund));
      }
      return { ...saleRefundView(result.refund), outcome: result.outcome };
    },
  );

  app.post(
    '/admin/sale-refunds/:id/release',
    {
      onRequest: adminOnly(config.refunds.adminToken),
      schema: {
        tags: ['admin'],
        description:
          "Puts a held sale refund that was not transferred back in the payment sweeper's queue, due now (Authorization: Bearer ADMIN_TOKEN). Not held, or refunded: answered as it is (`changed: false`). While it is being recorded: 409 `refund_in_progress`. Without ADMIN_TOKEN configured, or with another token, 404.",
        params: z.object({ id: z.coerce.number().pipe(dbId) }),
        response: {
          200: saleRefundSchema.extend({ changed: z.boolean().describe('Whether this call released it') }),
          ...errorResponses,
          409: errorBodySchema,
        },
      },
    },
    async (request) => {
      const before = await refundBefore(request, request.params.id);
      const result = await releaseSaleRefund({ db }, request.params.id);
      if (result.changed) {
        request.log.info({ saleRefundId: result.refund.id }, 'sale refund released to the sweeper');
        await auditStep(request, 'sale_refund.release', before, saleRefundView(result.refund));
      }
      return { ...saleRefundView(result.refund), changed: result.changed };
    },
  );

  app.post(
    '/admin/sale-refunds/:id/manual',
    {
      onRequest: adminOnly(config.refunds.adminToken),
      schema: {
        tags: ['admin'],
        description:
          'Records that the company gave a sale refund back by bank transfer (Authorization: Bearer ADMIN_TOKEN): refunded, `method` manual, with the reference, who and when, and its reason completed as a gateway refund completes it (a withdrawal: the sale withdrawn once its last refund is back, «Reembolso completado» e-mailed); the sweeper never tries it again. Only a held refund (`…/hold` first, then the transfer): otherwise 409 `refund_not_held`. Idempotent: an already refunded one answers as it is (`changed: false`). While the sweeper is attempting it at the gateway: 409 (try again). Without ADMIN_TOKEN configured, or with another token, 404.',
        params: z.object({ id: z.coerce.number().pipe(dbId) }),
        body: z.object({
          reference: z
            .string()
            .trim()
            .min(1)
            .max(transferReferenceMaxLength)
            .describe("The bank transfer's reference (operation number)"),
          operator: z.string().trim().min(1).max(100).optional().describe('Who made the transfer (else «admin API»)'),
        }),
        response: {
          200: saleRefundSchema.extend({ changed: z.boolean().describe('Whether this call recorded it') }),
          ...errorResponses,
          409: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { reference, operator } = request.body;
      const before = await refundBefore(request, request.params.id);
      const result = await fastify.work.services.refundByHand(request.params.id, {
        reference,
        by: request.adminApiKeyActor?.label ?? operator ?? 'admin API',
      });
      if (result.changed) {
        request.log.info({ saleRefundId: result.refund.id }, 'sale refund recorded as transferred');
        await auditStep(request, 'sale_refund.transfer', before, saleRefundView(result.refund));
      }
      return { ...saleRefundView(result.refund), changed: result.changed };
    },
  );
}
