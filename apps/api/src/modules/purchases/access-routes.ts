import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses } from '#app/errors.ts';
import { dbId, typed } from '#app/http.ts';
import { adminOnly } from '#app/lib/security/admin-token.ts';
import { revokeSaleAccess } from './console.ts';
import { accessRequest, bearer, sessionSchema, tags, tokenOf } from './schemas.ts';
import {
  closeAccess,
  openPaidSale,
  openSignedLink,
  requestAccessCode,
  revokePurchaseAccess,
  verifyAccessCode,
} from './service.ts';

/** Opening a purchase: a code by e-mail, a signed link, or the browser that paid. */
export function accessRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;

  app.post(
    '/purchases/access',
    {
      config: { invalidInputDetail: errorMessages.invalidInputs, rateLimit: config.rateLimits.emailSend },
      schema: {
        tags,
        description:
          "Asks for a one-time code: when the number names a paid sale (or one of its certificates) and the document is the payer's, a 6-digit code valid 10 minutes is e-mailed to the sale's e-mail and opens the buyer's view; when it is another traveller's, to that traveller's address, opening her own trip only. At most 5 codes per sale a day (Chile). Always 202, matched or not, after the same work (the lookup and e-mail run in a job).",
        body: accessRequest,
        response: {
          202: z.null().describe('Accepted (whether or not anything matched)'),
          ...errorResponses,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      if (await requestAccessCode(db, config.purchases, config.companyId, request.body)) fastify.work.emit('jobQueued');
      return reply.code(202).send(null);
    },
  );
  app.post(
    '/purchases/access/code',
    {
      config: { invalidInputDetail: errorMessages.invalidInputs, rateLimit: config.rateLimits.purchaseAccess },
      schema: {
        tags,
        description:
          "Checks the e-mailed code (at most 5 tries per code, 10 wrong tries per sale a day) and answers an access token in the code's role (buyer or traveller). A wrong, used or expired code, a number and document that match nothing, or a sale past its daily cap, are the same 400.",
        body: accessRequest.extend({
          code: z
            .string()
            .trim()
            .regex(/^\d{6}$/, 'Ingresa los 6 dígitos del código.'),
        }),
        response: { 200: sessionSchema, ...errorResponses, 429: errorBodySchema },
      },
    },
    (request) => verifyAccessCode(db, config.companyId, config.purchases, request.body),
  );
  app.post(
    '/purchases/access/link',
    {
      config: { invalidInputDetail: errorMessages.invalidInputs, rateLimit: config.rateLimits.lookup },
      schema: {
        tags,
        description:
          'Exchanges the signed link of a purchase e-mail (`enlace`) for an access token; a tampered, expired or revoked link is a 400.',
        body: z.object({ link: z.string().trim().min(1).max(200) }),
        response: { 200: sessionSchema, ...errorResponses, 429: errorBodySchema },
      },
    },
    (request) => openSignedLink(db, config.companyId, config.purchases, request.body.link),
  );
  app.post(
    '/purchases/access/sale',
    {
      config: { invalidInputDetail: errorMessages.invalidInputs, rateLimit: config.rateLimits.lookup },
      schema: {
        tags,
        description:
          "The browser that paid opens its purchase as the buyer, without a code: the sale's access token it was given when it started the paying attempt (the one of POST /payments). A sale not paid or a wrong token is a 400.",
        body: z.object({ idVenta: dbId, token: z.string().trim().min(1).max(128) }),
        response: { 200: sessionSchema, ...errorResponses, 429: errorBodySchema },
      },
    },
    (request) => openPaidSale(db, config.companyId, config.purchases, request.body),
  );
}

/** Closing it: «Salir» for one access, and the operator's revocation of every access to a sale. */
export function closeAccessRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;

  app.delete(
    '/purchases/mine/access',
    {
      schema: {
        tags,
        description: '«Salir»: the access token stops opening the purchase',
        headers: bearer,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await closeAccess(db, tokenOf(request));
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/admin/purchases/:idVenta/revoke-access',
    {
      onRequest: adminOnly(config.refunds.adminToken),
      schema: {
        tags,
        description:
          'Admin (Bearer ADMIN_TOKEN): every «Mi compra» link e-mailed for the sale, its live codes and open accesses stop working.',
        params: z.object({ idVenta: z.coerce.number().pipe(dbId) }),
        response: { 200: z.object({ linkVersion: z.number().int() }), ...errorResponses },
      },
    },
    // A call by API key is the console's «Revocar acceso», audited in its transaction (ADMIN_TOKEN names nobody).
    (request) =>
      request.adminApiKeyActor
        ? revokeSaleAccess(
            db,
            request.server.config.companyId,
            request.adminApiKeyActor,
            request.params.idVenta,
            request.server.clock(),
          )
        : revokePurchaseAccess(db, request.params.idVenta),
  );
}
