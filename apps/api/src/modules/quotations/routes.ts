import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError, errorBodySchema, errorResponses } from '#app/errors.ts';
import { companyParams, quotationIdMessage, typed } from '#app/http.ts';
import { discountCodeRateLimit } from '#app/lib/http/rate-limit.ts';
import type { LockPurchase } from './purchase-lock.ts';
import { quotationInputSchema, quotationSchema } from './schemas.ts';
import * as quotations from './service.ts';

const tags = ['quotations'];
const quotationParams = companyParams.extend({ quotationId: z.uuid() });

/**
 * A malformed quotation id is «Invalid quotation id supplied» (decision 004), also on PUT, whose other 400s are
 * «Invalid inputs supplied». Checked before validation; an invalid company id still answers its 404.
 */
async function rejectMalformedQuotationId(request: FastifyRequest) {
  const params = request.params as Record<string, unknown>;
  if (!companyParams.safeParse(params).success) return;
  if (!z.uuid().safeParse(params.quotationId).success) {
    throw new ApiError(400, errorMessages.invalidQuotationId, [
      { field: 'quotationId', code: 'invalid_format', message: quotationIdMessage },
    ]);
  }
}

/** `lockPurchase`: the purchase lock, handed in by the purchase workflow (app.ts). */
export async function quotationRoutes(fastify: FastifyInstance, options: { lockPurchase: LockPurchase }) {
  const app = typed(fastify);
  const { db } = fastify;

  app.post(
    '/quotations/:companyId',
    {
      config: {
        invalidInputDetail: errorMessages.invalidInputs,
        rateLimit: discountCodeRateLimit(fastify.config.rateLimits),
      },
      schema: {
        tags,
        description:
          'Creates a quotation (not in the original contract, which shows no create call). The server assigns a random UUID. With a discountCode it is rate-limited per client (429).',
        params: companyParams,
        body: quotationInputSchema,
        response: { 201: z.object({ id: z.uuid() }), ...errorResponses, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const id = await quotations.createQuotation(db, request.params.companyId, request.body);
      return reply.code(201).header('Location', `/api/quotations/${request.params.companyId}/${id}`).send({ id });
    },
  );

  app.get(
    '/quotations/:companyId/:quotationId',
    {
      config: { invalidInputDetail: errorMessages.invalidQuotationId },
      schema: { tags, params: quotationParams, response: { 200: quotationSchema, ...errorResponses } },
    },
    (request) => quotations.getQuotation(db, request.params.companyId, request.params.quotationId),
  );

  app.put(
    '/quotations/:companyId/:quotationId',
    {
      config: {
        invalidInputDetail: errorMessages.invalidInputs,
        rateLimit: discountCodeRateLimit(fastify.config.rateLimits),
      },
      preValidation: rejectMalformedQuotationId,
      schema: {
        tags,
        description:
          'Replaces the quotation; answers its id as plain text. With a discountCode it is rate-limited per client (429).',
        params: quotationParams,
        body: quotationInputSchema,
        response: {
          200: z.string().describe('The quotation id (text/plain)'),
          ...errorResponses,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { companyId, quotationId } = request.params;
      await quotations.updateQuotation(db, options.lockPurchase, companyId, quotationId, request.body);
      return reply.type('text/plain; charset=utf-8').send(quotationId);
    },
  );

  app.post(
    '/companies/:companyId/quotation-redirect',
    {
      config: { invalidInputDetail: errorMessages.invalidQuotationId },
      schema: {
        tags,
        description: "301 to the quotation's comparator page",
        params: companyParams,
        querystring: z.object({ quotationId: z.uuid() }),
        response: { 301: z.null().describe(errorMessages.movedPermanently), ...errorResponses },
      },
    },
    async (request, reply) => {
      const path = await quotations.comparatorPathOf(db, request.params.companyId, request.query.quotationId);
      return reply.code(301).header('Location', path).send(null);
    },
  );
}
