import fastifyMultipart from '@fastify/multipart';
import { errorMessages } from '@travesia/domain/messages';
import { refundMessages } from '@travesia/domain/refunds';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, errorBodySchema, errorResponses } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import { adminOnly } from '#app/lib/security/admin-token.ts';
import { recordAudit } from '../audit/service.ts';
import {
  addDocumentsBody,
  adminParams,
  claimParams,
  claimRequestBody,
  claimTrackingSchema,
  documentQuery,
  statusChangeBody,
} from './schemas.ts';
import { addDocuments, changeStatus, createClaim, trackClaim } from './service.ts';
import { multipartLimits, receiveMultipart, recordUploads, sweepExpiredUploads, uploadAdmission } from './uploads.ts';

/**
 * The claim's JSON body: its fields, and its documents named by upload token or, small ones, inline (at most 256 KB
 * each in base64): 1 MiB is room for all of that. Larger documents are uploaded first, streamed (`…/refunds/files`).
 */
export const claimBodyLimit = 1024 * 1024;

const uploadAnswer = z
  .object({
    archivos: z.array(
      z.object({
        token: z.string().describe('Names this file in the claim (`documentos: [{ token }]`): once, within the hour'),
        nombre: z.string(),
        tipo: z.string().describe('The type found in the content: application/pdf, image/png or image/jpeg'),
        tamano: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'RefundUploads' });

export async function claimRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config, documentStore, uploadGate } = fastify;
  await fastify.register(fastifyMultipart, { limits: multipartLimits, throwFileSizeLimit: false });

  app.post(
    '/companies/:companyId/refunds/files',
    {
      onRequest: uploadAdmission(uploadGate),
      config: { rateLimit: config.rateLimits.documentUpload },
      schema: {
        tags: ['refunds'],
        consumes: ['multipart/form-data'],
        description: [
          "Uploads a refund claim's documents before the claim (multipart/form-data, field `documentos`, 1 to 5",
          'files of at most 5 MB): each is streamed to the document store as it arrives, its type checked by its first',
          'bytes (PDF, JPG or PNG, and a name whose extension says the same) and its size as it passes. A bad file is a',
          '400 whose field error (`documentos.{i}`) names it, and none of the files is kept. The answer gives a token per',
          'file for the claim (`documentos: [{ token }]`): it serves once, for an hour, for this company only. Uploads',
          'in flight are capped: per client (429) and for the whole store (503), both with Retry-After.',
        ].join(' '),
        params: claimParams.pick({ companyId: true }),
        response: {
          201: uploadAnswer,
          ...errorResponses,
          413: errorBodySchema,
          429: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { companyId } = request.params;
      if (!request.isMultipart()) {
        throw new ApiError(400, errorMessages.invalidInputParameters, [
          { field: 'documentos', code: 'required', message: refundMessages.documentsRequired },
        ]);
      }
      const received = await receiveMultipart(request, documentStore);
      if (received.errors.length > 0) throw new ApiError(400, errorMessages.invalidInputParameters, received.errors);
      if (received.documents.length === 0) {
        throw new ApiError(400, errorMessages.invalidInputParameters, [
          { field: 'documentos', code: 'required', message: refundMessages.documentsRequired },
        ]);
      }
      const archivos = await recordUploads(db, companyId, received.documents, config.uploads.tokenTtlMs);
      request.log.info({ companyId, files: archivos.length }, 'refund documents uploaded');
      sweepExpiredUploads(db, documentStore).catch((error: unknown) =>
        request.log.warn({ error: loggableError(error) }, 'expired uploads not swept'),
      );
      return reply.code(201).send({ archivos });
    },
  );

  app.post(
    '/companies/:companyId/refunds',
    {
      bodyLimit: claimBodyLimit,
      config: { rateLimit: config.rateLimits.formSubmit },
      schema: {
        tags: ['refunds'],
        description: [
          'A refund request (spec §7: JSON body; 204). Its 1 to 5 supporting documents are named in `documentos`, each',
          '`{ token }` of a file uploaded first (`POST …/refunds/files`), or, for a small file (at most 256 KB),',
          '`{ nombre, contenido }` with its bytes in base64; PDF, JPG or PNG as their content says (magic bytes), not',
          'their name. A bad file, or a token unknown, expired, already used or of another company, is a 400 whose',
          'field error (`documentos.{i}`) names it, and nothing is stored. The answer carries the request number the visitor tracks it with in the',
          'header `X-Refund-Number` (e.g. `R-7K3M9XQ2`), and `Location` names the tracking resource',
          '(`GET …/refunds/{number}?document=`). The holder and the company are e-mailed. The claim must name a paid,',
          'valid certificate (or its sale, `idVenta`) whose traveller has `numeroDocumento`, for an incident day within',
          'its cover: else a 400 `certificate_not_found` (on both fields: the same for an unknown number and a wrong',
          'document), `certificate_void` or `outside_cover`.',
        ].join(' '),
        params: claimParams.pick({ companyId: true }),
        body: claimRequestBody,
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
      const number = await createClaim(db, documentStore, companyId, request.body);
      request.log.info({ companyId }, 'refund request stored');
      fastify.work.emit('jobQueued');
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
        params: claimParams,
        querystring: documentQuery,
        response: { 200: claimTrackingSchema, ...errorResponses, 429: errorBodySchema },
      },
    },
    async (request) => {
      const { companyId, number } = request.params;
      return trackClaim(db, companyId, number, request.query.document);
    },
  );

  app.post(
    '/companies/:companyId/refunds/:number/documents',
    {
      bodyLimit: claimBodyLimit,
      config: { rateLimit: config.rateLimits.formSubmit },
      schema: {
        tags: ['refunds'],
        description:
          'Adds the missing documents (named as in the request: upload tokens, or small files inline) while the status is faltan_documentos; the request goes back to en_revision and the company is e-mailed. Otherwise 400 documents_not_requested. Number and document as in tracking.',
        params: claimParams,
        querystring: documentQuery,
        body: addDocumentsBody,
        response: { 200: claimTrackingSchema, ...errorResponses, 413: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const { companyId, number } = request.params;
      const tracking = await addDocuments(
        db,
        documentStore,
        companyId,
        number,
        request.query.document,
        request.body.documentos,
      );
      fastify.work.emit('jobQueued');
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
      const actor = request.adminApiKeyActor;
      const result = await changeStatus(
        db,
        request.params.number,
        request.body,
        { label: actor?.label ?? 'admin-api' },
        // A call by API key leaves its audit row (ADMIN_TOKEN names nobody: deprecated, not audited).
        actor &&
          ((tx, change, at) =>
            recordAudit(
              tx,
              actor,
              {
                action: 'claim.status',
                targetType: 'claim',
                targetId: change.number,
                before: { status: change.from },
                after: { status: change.to },
              },
              at,
            )),
      );
      request.log.info({ from: result.from, to: result.to }, 'refund status changed');
      fastify.work.emit('jobQueued');
      return result;
    },
  );
}
