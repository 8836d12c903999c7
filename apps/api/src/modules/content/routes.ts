import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses } from '#app/errors.ts';
import { companyParams, typed } from '#app/http.ts';
import { publicCatalogue } from '#app/lib/http/http-cache.ts';
import { previewHeaderSchema, requestedPreview } from '#app/modules/publishing/preview.ts';
import {
  type Contact,
  type ContactInfo,
  contactInfoSchema,
  contactSchema,
  faqCategorySchema,
  subjectSchema,
} from './schemas.ts';
import * as content from './service.ts';

const tags = ['content'];

/** A console preview token's FAQ draft as the route answers the FAQ (app.ts wires it to the publishing model). */
export type PreviewFaq = (
  token: string,
) => Promise<{ category: string; contents: { question: string; answer: string }[] }[]>;

/**
 * A console site preview token's contacts draft (app.ts wires it to the publishing model): the help entries and the
 * directory; null for a site token of another part (the live contacts are shown with it).
 */
export type PreviewContacts = (token: string) => Promise<{ help: ContactInfo[]; directory: Contact[] } | null>;

export async function contentRoutes(
  fastify: FastifyInstance,
  options: { previewFaq?: PreviewFaq; previewContacts?: PreviewContacts } = {},
) {
  const app = typed(fastify);
  const { db } = fastify;
  // The contacts draft a request's preview token opens, if it carries one (its answer is then never kept).
  const contactsPreviewOf = (request: FastifyRequest, reply: FastifyReply) =>
    requestedPreview(request, reply, options.previewContacts);

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
      return (
        (await requestedPreview(request, reply, options.previewFaq)) ?? content.listFaq(db, request.params.companyId)
      );
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
      schema: {
        tags,
        description:
          "The help modal's contacts. With a contacts preview token (x-vista-previa), the console's draft instead, never kept nor indexed.",
        params: companyParams,
        headers: previewHeaderSchema,
        response: { 200: z.array(contactInfoSchema), ...errorResponses, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const preview = await contactsPreviewOf(request, reply);
      return preview?.help ?? content.listContactInfos(db, request.params.companyId);
    },
  );

  app.get(
    '/companies/:companyId/contacts',
    {
      config: publicCatalogue,
      schema: {
        tags,
        description:
          'Contact directory; true keeps only emergency and sales entries, false gives all. With a contacts preview token (x-vista-previa), the draft directory, never kept nor indexed.',
        params: companyParams,
        querystring: z.object({ isEmergencyOrSaleContact: z.enum(['true', 'false']) }),
        headers: previewHeaderSchema,
        response: { 200: z.array(contactSchema), ...errorResponses, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const onlyEmergencyOrSale = request.query.isEmergencyOrSaleContact === 'true';
      const preview = await contactsPreviewOf(request, reply);
      if (preview)
        return onlyEmergencyOrSale
          ? preview.directory.filter((entry) => entry.isEmergency || entry.isSaleContact)
          : preview.directory;
      return content.listContacts(db, request.params.companyId, onlyEmergencyOrSale);
    },
  );
}
