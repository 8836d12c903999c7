import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError, errorBodySchema, errorResponses } from '#app/errors.ts';
import { dbId, typed } from '#app/http.ts';
import { paymentTypeForInstalments } from '#app/integrations/payments/sandbox.ts';
import { accessTokenQuery } from '#app/lib/access-token.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import { publicBaseUrl } from '#app/lib/public-origin.ts';
import * as repository from './repository.ts';
import { sandboxDonePage, sandboxPaymentPage } from './sandbox-page.ts';
import { gatewayReturnSchema, paymentBodySchema, paymentCreatedSchema, paymentResultSchema } from './schemas.ts';
import { confirmReturn, type PaymentDeps, paymentResult, startPayment } from './service.ts';

const tags = ['payments'];

export function paymentRoutes(deps: Omit<PaymentDeps, 'log'>) {
  return async (fastify: FastifyInstance) => {
    const app = typed(fastify);
    const { db, config } = fastify;
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
        const result = await paymentResult(db, idTransaction, idVenta, request.query.token);
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
