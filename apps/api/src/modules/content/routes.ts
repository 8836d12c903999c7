import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { contactInfoSchema, contactSchema, faqCategorySchema, subjectSchema } from './schemas.ts';
import * as content from './service.ts';

const tags = ['content'];

export async function contentRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;

  app.get(
    '/companies/:companyId/frequently-asked-questions',
    {
      config: publicCatalogue,
      schema: { tags, params: companyParams, response: { 200: z.array(faqCategorySchema), ...errorResponses } },
    },
    (request) => content.listFaq(db, request.params.companyId),
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
