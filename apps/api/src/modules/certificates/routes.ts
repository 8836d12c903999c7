import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses } from '#app/errors.ts';
import { dbId, typed } from '#app/http.ts';
import { accessTokenQuery } from '#app/lib/access-token.ts';
import { certificateFileName, certificateLink, certificatePdf, requestCertificateEmail } from './service.ts';

const tags = ['certificates'];
const saleParams = z.object({ idVenta: z.coerce.number().pipe(dbId) });

export function certificateRoutes(options: { onEmailQueued: () => void }) {
  return async (fastify: FastifyInstance) => {
    const app = typed(fastify);
    const { db } = fastify;

    app.get(
      '/certificates/b2c/:idVenta',
      {
        schema: {
          tags,
          description:
            "The link to a paid sale's certificate PDF, in `message` (spec §7). Needs the sale's access token (?token=), which the link carries on; without it, 404.",
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
          description: "The certificate PDF of a paid sale (with the sale's access token)",
          params: saleParams,
          querystring: accessTokenQuery,
        },
      },
      async (request, reply) => {
        const pdf = await certificatePdf(db, request.params.idVenta, request.query.token);
        return reply
          .type('application/pdf')
          .header('Content-Disposition', `attachment; filename="${certificateFileName}"`)
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
        options.onEmailQueued();
        return reply.code(202).send(null);
      },
    );
  };
}
