import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '#app/errors.ts';
import { quotationIdParams, typed } from '#app/http.ts';
import { invoiceDetailsBodySchema, invoiceDetailsSchema } from './schemas.ts';
import * as invoices from './service.ts';

const tags = ['invoices'];

export async function invoiceRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;
  const config = { invalidInputDetail: errorMessages.invalidInputs };

  app.post(
    '/quotations/:quotationId/invoice-details',
    {
      config,
      schema: {
        tags,
        description:
          "Creates or replaces the quotation's billing data. With generateInvoice the company details are required " +
          '(RUT with a valid check digit, e-mail). Refused (400) once the sale is paid; 400 «Invalid inputs supplied» ' +
          'with one { field, message } (Spanish) per problem.',
        params: quotationIdParams,
        body: invoiceDetailsBodySchema,
        response: { 204: z.null().describe('Saved'), ...errorResponses },
      },
    },
    async (request, reply) => {
      await invoices.saveInvoiceDetails(db, request.params.quotationId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/quotations/:quotationId/invoice-details',
    {
      config,
      schema: {
        tags,
        description: "The quotation's billing data (404 until it is saved)",
        params: quotationIdParams,
        response: { 200: invoiceDetailsSchema, ...errorResponses },
      },
    },
    (request) => invoices.getInvoiceDetails(db, request.params.quotationId),
  );
}
