import { maxFileBase64Length, refundLimits } from '@travesia/domain/refunds';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { adminOnly } from '#app/lib/admin-token.ts';
import {
  addDocumentsBody,
  adminParams,
  documentQuery,
  refundParams,
  refundRequestBody,
  refundTrackingSchema,
  statusChangeBody,
} from './schemas.ts';
import { addDocuments, changeStatus, createRefund, trackRefund } from './service.ts';

/** Room for the most documents allowed in base64 plus the other fields: raised for these routes only. */
export const refundBodyLimit = refundLimits.maxFiles * maxFileBase64Length + 64 * 1024;

export function refundRoutes(options: { onEmailQueued: () => void }) {
  return async function routes(fastify: FastifyInstance) {
    const app = typed(fastify);
    const { db, config } = fastify;

    app.post(
      '/companies/:companyId/refunds',
      {
        bodyLimit: refundBodyLimit,
        config: { rateLimit: config.rateLimits.formSubmit },
        schema: {
          tags: ['refunds'],
          description: [
            'A refund request (spec §7: JSON body; 204). The supporting documents travel in the same JSON body, each',
            '`{ nombre, contenido }` with the bytes in base64: 1 to 5 files of at most 5 MB each, PDF, JPG or PNG as',
            'their content says (magic bytes), not their name; a bad file is a 400 whose field error (`documentos.{i}`)',
            'names it, and nothing is stored. The answer carries the request number the visitor tracks it with in the',
            'header `X-Refund-Number` (e.g. `R-7K3M9XQ2`), and `Location` names the tracking resource',
            '(`GET …/refunds/{number}?document=`). The holder and the company are e-mailed. The claim must name a paid,',
            'valid certificate (or its sale, `idVenta`) whose traveller has `numeroDocumento`, for an incident day within',
            'its cover: else a 400 `certificate_not_found` (on both fields: the same for an unknown number and a wrong',
            'document), `certificate_void` or `outside_cover`.',
          ].join(' '),
          params: refundParams.pick({ companyId: true }),
          body: refundRequestBody,
          response: {
            204: z.null().describe('Stored; headers X-Refund-Number (the request number) and Location'),
            ...errorResponses,
            413: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { companyId } = request.params;
        const number = await createRefund(db, companyId, request.body);
        request.log.info({ companyId }, 'refund request stored');
        options.onEmailQueued();
        return reply
          .code(204)
          .header('x-refund-number', number)
          .header('location', `${request.url.split('?')[0]}/${number}`)
          .send(null);
      },
    );

    app.get(
      '/companies/:companyId/refunds/:number',
      {
        config: { rateLimit: config.rateLimits.lookup },
        schema: {
          tags: ['refunds'],
          description:
            "Tracking: the request's status, with its number and the holder's document. Both must match: a wrong document answers exactly like an unknown number (404 Resource not found).",
          params: refundParams,
          querystring: documentQuery,
          response: { 200: refundTrackingSchema, ...errorResponses, 429: errorBodySchema },
        },
      },
      async (request) => {
        const { companyId, number } = request.params;
        return trackRefund(db, companyId, number, request.query.document);
      },
    );

    app.post(
      '/companies/:companyId/refunds/:number/documents',
      {
        bodyLimit: refundBodyLimit,
        config: { rateLimit: config.rateLimits.formSubmit },
        schema: {
          tags: ['refunds'],
          description:
            'Adds the missing documents (same form and rules as in the request) while the status is faltan_documentos; the request goes back to en_revision and the company is e-mailed. Otherwise 400 documents_not_requested. Number and document as in tracking.',
          params: refundParams,
          querystring: documentQuery,
          body: addDocumentsBody,
          response: { 200: refundTrackingSchema, ...errorResponses, 413: errorBodySchema, 429: errorBodySchema },
        },
      },
      async (request) => {
        const { companyId, number } = request.params;
        const tracking = await addDocuments(db, companyId, number, request.query.document, request.body.documentos);
        options.onEmailQueued();
        return tracking;
      },
    );

    app.post(
      '/admin/refunds/:number/status',
      {
        // Before the body is read or validated: without the token every request answers the catch-all 404, so
        // nothing (validation messages, status values, 413/415) tells a stranger the route exists.
        onRequest: adminOnly(config.refunds.adminToken),
        schema: {
          tags: ['admin'],
          description:
            "The operator changes a refund request's status (Authorization: Bearer ADMIN_TOKEN). Transitions are checked (a paid request is final); the holder is e-mailed. Without ADMIN_TOKEN configured, or with another token, 404.",
          params: adminParams,
          body: statusChangeBody,
          response: {
            200: z.object({ number: z.string(), from: z.string(), to: z.string() }),
            ...errorResponses,
          },
        },
      },
      async (request) => {
        const result = await changeStatus(db, request.params.number, request.body);
        request.log.info({ from: result.from, to: result.to }, 'refund status changed');
        options.onEmailQueued();
        return result;
      },
    );
  };
}
