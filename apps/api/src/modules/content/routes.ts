import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses, resourceNotFound } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { previewHeaderSchema, previewTokenOf } from '#app/modules/publishing/preview.ts';
import { contactInfoSchema, contactSchema, faqCategorySchema, subjectSchema } from './schemas.ts';
import * as content from './service.ts';

const tags = ['content'];

/** A console preview token's FAQ draft as the route answers the FAQ (app.ts wires it to the publishing model). */
export type PreviewFaq = (
  token: string,
) => Promise<{ category: string; contents: { question: string; answer: string }[] }[]>;

export async function contentRoutes(fastify: FastifyInstance, options: { previewFaq?: PreviewFaq } = {}) {
  const app = typed(fastify);
  const { db } = fastify;

  app.get(
    '/companies/:companyId/frequently-asked-questions',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description:
          "The company's FAQ by category. With a FAQ preview token (x-vista-previa), the console's draft instead, never kept nor indexed; a token that does not open it is a 403.",
        params: companyParams,
        headers: previewHeaderSchema,
        response: { 200: z.array(faqCategorySchema), ...errorResponses, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const token = previewTokenOf(request, reply);
      if (token !== undefined) {
        if (!options.previewFaq) throw resourceNotFound();
        return options.previewFaq(token);
      }
      return content.listFaq(db, request.params.companyId);
    },
  );

  app.get(
    '/companies/:companyId/subjects',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: z.array(subjectSchema), ...errorResponses } },
    },
    (request) => content.listSubjects(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/contacts-info',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: z.array(contactInfoSchema), ...errorResponses } },
    },
    (request) => content.listContactInfos(db, request.params.companyId),
  );

  app.get(
    '/companies/:companyId/contacts',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description: 'Contact directory; true keeps only emergency and sales entries, false gives all',
        params: companyParams,
        querystring: z.object({ isEmergencyOrSaleContact: z.enum(['true', 'false']) }),
        response: { 200: z.array(contactSchema), ...errorResponses },
      },
    },
    (request) => content.listContacts(db, request.params.companyId, request.query.isEmergencyOrSaleContact === 'true'),
  );
}
