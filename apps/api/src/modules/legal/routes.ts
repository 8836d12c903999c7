import type { FastifyInstance } from 'fastify';
import { errorBodySchema, errorResponses } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { previewHeaderSchema, requestedPreview } from '#app/modules/publishing/preview.ts';
import { legalPageParams, legalPageQuery, legalPageSchema } from './schemas.ts';
import * as legal from './service.ts';

const tags = ['legal'];

/** A console preview token's draft of a legal page (app.ts wires it to the publishing model). */
export type PreviewLegalPage = (
  token: string,
  slug: string,
) => Promise<{ title: string; description: string; bodyHtml: string }>;

export async function legalRoutes(fastify: FastifyInstance, options: { previewLegalPage?: PreviewLegalPage } = {}) {
  const app = typed(fastify);
  const { db } = fastify;

  app.get(
    '/companies/:companyId/legal-pages/:slug',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description:
          "A legal page (terminos, politicas, informacion-legal) with its stored HTML and the seller's details (Ley 19.496): the version in force, or `?version=N` an earlier one (what a buyer accepted); with a preview token of the page (x-vista-previa), its console draft, never kept nor indexed (403 for a token that does not open it). Any other slug, a page not written or a version never published is a 404.",
        params: legalPageParams,
        querystring: legalPageQuery,
        headers: previewHeaderSchema,
        response: { 200: legalPageSchema, ...errorResponses, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { companyId, slug } = request.params;
      const page = await legal.getLegalPage(db, companyId, slug, request.query.version);
      const { previewLegalPage } = options;
      const draft = await requestedPreview(
        request,
        reply,
        previewLegalPage && ((token) => previewLegalPage(token, slug)),
      );
      // A console preview link: the page's draft over the version in force, said to be no version yet.
      return draft ? { ...page, ...draft, version: page.currentVersion + 1 } : page;
    },
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
