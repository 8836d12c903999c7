import type { FastifyInstance } from 'fastify';
import { errorResponses } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { legalPageParams, legalPageQuery, legalPageSchema } from './schemas.ts';
import * as legal from './service.ts';

const tags = ['legal'];

export async function legalRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;

  app.get(
    '/companies/:companyId/legal-pages/:slug',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description:
          "A legal page (terminos, politicas, informacion-legal) with its stored HTML and the seller's details (Ley 19.496): the version in force, or `?version=N` an earlier one (what a buyer accepted). Any other slug, a page not written or a version never published is a 404.",
        params: legalPageParams,
        querystring: legalPageQuery,
        response: { 200: legalPageSchema, ...errorResponses },
      },
    },
    (request) => legal.getLegalPage(db, request.params.companyId, request.params.slug, request.query.version),
  );

  app.get(
    `/legal/${legal.conditionsFileName}`,
    {
      // Public and the same for everyone: cacheable for a minute, with an ETag of the bytes (304 when unchanged).
      config: publicCatalogue,
      schema: {
        tags,
        description:
          "The general conditions as a printable PDF, built from the company's terms page (/terminos). Linked from the payment step, the success page, «Mi compra» and the purchase e-mail. 404 when the company has not written the page.",
      },
    },
    async (_request, reply) => {
      const pdf = await legal.generalConditionsPdf(db, fastify.config.companyId);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `inline; filename="${legal.conditionsFileName}"`)
        .send(Buffer.from(pdf));
    },
  );
}
