import { errorMessages } from '@travesia/domain/messages';
import { certificateSearchWord } from '@travesia/domain/rules';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses } from '#app/errors.ts';
import { dbId, typed } from '#app/http.ts';
import { accessTokenQuery } from '#app/lib/security/access-token.ts';
import { configuredOrigin } from '#app/lib/security/origins.ts';
import { featureFlagsOf } from '#app/modules/company/service.ts';
import {
  certificateFileName,
  certificateLink,
  certificateList,
  certificatePdf,
  requestCertificateEmail,
  requestCertificateSend,
  searchCertificates,
  travellerCertificateFileName,
  travellerCertificatePdf,
  verifyCertificate,
} from './service.ts';

const tags = ['certificates'];
const saleParams = z.object({ idVenta: z.coerce.number().pipe(dbId) });

const foundCertificateSchema = z
  .object({
    idVenta: z.number().int().describe('The sale (spec §3 Certificate)'),
    certificate: z.string().describe('The certificate number: what «Enviar Certificado» sends again'),
    name: z.string(),
    lastName: z.string(),
    email: z.string().describe("The holder's e-mail, masked (ca***@ex***.cl) unless the search was by it"),
    departureDate: z.string(),
    returnDate: z.string(),
    downloadToken: z
      .string()
      .nullable()
      .describe(
        "Opens /certificates/b2c/{idVenta}?token= for 10 minutes; only when downloads are on and the search was by the holder's e-mail (docs/decisions/011)",
      ),
  })
  .meta({ id: 'Certificate' });

const verificationSchema = z
  .object({
    code: z.string(),
    status: z
      .enum(['valid', 'expired', 'not_started', 'void', 'cancelled', 'replaced'])
      .describe(
        'Today in Chile: in force, ended, not yet started; void: a test payment that covers nobody; cancelled: voided by a withdrawal (anulado); replaced: a date change replaced these certificates by new ones with another code (reemplazado)',
      ),
    departureDate: z.string().describe("The dates this code's certificates certified (a replaced code: its own)"),
    returnDate: z.string(),
    destination: z.string(),
    plan: z.string(),
    holders: z.array(z.string()).describe("Each covered person's initials only («C. R.»)"),
    issuedAt: z
      .string()
      .describe('When this version of the certificates was issued (paid, or the date change applied)'),
    replacedAt: z
      .string()
      .nullable()
      .describe('When a date change replaced them (status replaced); null otherwise. The new code is never given'),
  })
  .meta({ id: 'CertificateVerification' });

export async function certificateRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;
  const origin = configuredOrigin(config);

  app.get(
    '/certificates',
    {
      config: { rateLimit: config.rateLimits.certificateSearch },
      schema: {
        tags,
        description:
          "Spec §7: the certificates of the company's paid sales whose holder has this RUT (any form: 12.345.678-5, 12345678-5, 123456785), DNI or passport number, or e-mail (without case). Answers only the card's fields; the e-mail is masked unless the search was by it. An empty list when nothing matches.",
        querystring: z.object({ word: certificateSearchWord.describe('RUT, DNI, passport number or e-mail') }),
        response: { 200: z.array(foundCertificateSchema), ...errorResponses, 429: errorBodySchema },
      },
    },
    async (request) =>
      searchCertificates(db, config.companyId, request.query.word, {
        // Spec §6's flag as published in the console (kind site-flags), else the server configuration's.
        downloads: (await featureFlagsOf(db, config.companyId, config.features)).downloadCertificates,
      }),
  );

  app.post(
    '/certificates/:certificate/auto-envio',
    {
      config: { invalidInputDetail: errorMessages.invalidInputs, rateLimit: config.rateLimits.emailSend },
      schema: {
        tags,
        description:
          "«Enviar Certificado» of the certificate search: e-mails the certificate again to its holder's address (the one on the certificate, never another), through the job queue; at most once per certificate every 10 minutes. Unknown number: 404.",
        params: z.object({ certificate: z.string().min(1).max(40) }),
        body: z.object({ type: z.literal(0), canal: z.literal('WEB') }),
        response: { 202: z.null().describe('Queued'), ...errorResponses, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await requestCertificateSend(db, config.companyId, request.params.certificate);
      fastify.work.emit('jobQueued');
      return reply.code(202).send(null);
    },
  );

  app.get(
    '/certificates/verification/:code',
    {
      config: { rateLimit: config.rateLimits.lookup },
      schema: {
        tags,
        description:
          "The public check of a certificate by the code printed on it (and in its QR code): whether it is in force today in Chile, its dates, destination and plan, and the holders' initials only. Each version of a sale's certificates has its own code: one a date change replaced answers `replaced` with its own dates, never the new trip. Unknown code: 404.",
        params: z.object({ code: z.string().min(1).max(40) }),
        response: { 200: verificationSchema, ...errorResponses, 429: errorBodySchema },
      },
    },
    (request) => verifyCertificate(db, request.params.code),
  );

  app.get(
    '/certificates/b2c/:idVenta',
    {
      schema: {
        tags,
        description:
          "The link to a paid sale's certificate PDF, in `message` (spec §7). Needs the sale's access token or a live download token of the search (?token=); the link carries on that same token (a download token's link dies with it). Without one, 404.",
        params: saleParams,
        querystring: accessTokenQuery,
        response: { 200: z.object({ message: z.string() }).meta({ id: 'CertificateLink' }), ...errorResponses },
      },
    },
    (request) => certificateLink(db, request.params.idVenta, request.query.token),
  );

  app.get(
    `/certificates/b2c/:idVenta/${certificateFileName}`,
    {
      schema: {
        tags,
        description:
          "The certificate PDF of a paid sale (with the sale's access token, or a download token until it expires)",
        params: saleParams,
        querystring: accessTokenQuery,
      },
    },
    async (request, reply) => {
      const pdf = await certificatePdf(db, request.params.idVenta, request.query.token, origin);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${certificateFileName}"`)
        .header('Cache-Control', 'private, no-store')
        .send(Buffer.from(pdf));
    },
  );

  app.get(
    '/certificates/b2c/:idVenta/certificados',
    {
      schema: {
        tags,
        description:
          "Each traveller's own certificate of a paid sale (number and name), for the success page's downloads. Same proof as the sale's PDF (?token=: the sale's access token or a live download token); without it, 404.",
        params: saleParams,
        querystring: accessTokenQuery,
        response: {
          200: z.array(z.object({ certificate: z.string(), name: z.string() })).meta({ id: 'TravellerCertificates' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'private, no-store');
      return certificateList(db, request.params.idVenta, request.query.token);
    },
  );

  app.get(
    '/certificates/b2c/:idVenta/certificados/:certificate',
    {
      schema: {
        tags,
        description:
          "One traveller's certificate PDF (only that traveller's data), named by the sale and the certificate number, under the same proof as the sale's PDF (?token=). A number not of this sale, or no proof: 404.",
        params: saleParams.extend({ certificate: z.string().min(1).max(40) }),
        querystring: accessTokenQuery,
      },
    },
    async (request, reply) => {
      const { idVenta, certificate } = request.params;
      const pdf = await travellerCertificatePdf(db, idVenta, certificate, request.query.token, origin);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${travellerCertificateFileName(certificate)}"`)
        .header('Cache-Control', 'private, no-store')
        .send(Buffer.from(pdf));
    },
  );

  app.post(
    '/quotations/:quotationId/auto-envio',
    {
      config: { invalidInputDetail: errorMessages.invalidInputs, rateLimit: fastify.config.rateLimits.emailSend },
      schema: {
        tags,
        description: 'E-mails the certificate of the paid sale of this quotation again (spec §7: type 0, canal WEB)',
        params: z.object({ quotationId: z.uuid() }),
        body: z.object({ type: z.literal(0), canal: z.literal('WEB') }),
        response: { 202: z.null().describe('Queued'), ...errorResponses, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await requestCertificateEmail(db, request.params.quotationId);
      fastify.work.emit('jobQueued');
      return reply.code(202).send(null);
    },
  );
}
