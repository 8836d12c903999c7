import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { typed } from '#app/http.ts';
import { actorOf, consoleErrors } from '../operators/console-routes.ts';
import {
  answerRequest,
  erasePersonalData,
  findPersonalData,
  listRequests,
  openRequest,
  personalDataPdf,
  personOf,
  recordExport,
  rectifyPersonalData,
  summaryOf,
} from './service.ts';
import { personalDataRequestKinds } from './tables.ts';

/**
 * Screen 7 of the console (issue 24), «Datos personales»: find what is held about a person, export it (JSON, PDF),
 * anonymise what need not be kept, and the register of requests (service.ts). Each change and each export writes its
 * one audit row.
 */

const subjectSchema = z
  .string('Escribe un RUT, DNI, pasaporte o correo.')
  .trim()
  .min(3, 'Escribe un RUT, DNI, pasaporte o correo.')
  .max(254, 'Como máximo 254 caracteres.');
const searchQuery = z.object({ q: subjectSchema });
const exportQuery = z.object({ q: subjectSchema, format: z.enum(['json', 'pdf']).default('json') });
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const requestSchema = z.object({
  id: z.number().int(),
  subject: z.string(),
  kind: z.enum(personalDataRequestKinds),
  state: z.enum(['open', 'answered']),
  openedBy: z.string(),
  handledBy: z.string().nullable(),
  answer: z.string().nullable(),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
});
const countSchema = z.object({ count: z.number().int(), ids: z.array(z.union([z.number(), z.string()])) });

export async function privacyConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;

  app.get(
    '/privacy/search',
    {
      schema: {
        tags: ['backoffice'],
        description:
          'What is held about a person, by RUT / DNI / passport (`q` without @) or e-mail: sales (kept), quotations, claims, contact requests, newsletter.',
        querystring: searchQuery,
        response: {
          200: z.object({
            summary: z.object({
              sales: countSchema,
              quotations: countSchema,
              claims: countSchema,
              contactRequests: countSchema,
              subscriptions: countSchema,
            }),
            sales: z.array(z.object({ id: z.number(), status: z.string(), createdAt: z.string(), href: z.string() })),
            claims: z.array(z.object({ id: z.number(), number: z.string(), status: z.string(), closed: z.boolean() })),
            contactRequests: z.array(z.object({ id: z.number(), subject: z.string(), createdAt: z.string() })),
            subscriptions: z.array(z.object({ id: z.number(), email: z.string(), confirmedAt: z.string().nullable() })),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => {
      const data = await findPersonalData(db, config.companyId, personOf(request.query.q));
      return { summary: summaryOf(data), ...data };
    },
  );

  // Untyped (bytes, not a JSON body): the querystring is still validated by the schema.
  fastify.get(
    '/privacy/export',
    {
      schema: {
        tags: ['backoffice'],
        description: "A person's data as JSON or as a readable PDF (`format`); recorded in the audit trail.",
        querystring: exportQuery,
        response: { ...consoleErrors },
      },
    },
    async (request, reply) => {
      const { q, format } = request.query as z.infer<typeof exportQuery>;
      const at = fastify.clock();
      const data = await findPersonalData(db, config.companyId, personOf(q));
      await recordExport(db, actorOf(request), q, format, data, at);
      reply.header('Cache-Control', 'private, no-store');
      if (format === 'pdf') {
        const pdf = await personalDataPdf(data, q, at);
        return reply
          .type('application/pdf')
          .header('Content-Disposition', 'attachment; filename="datos-personales.pdf"')
          .send(Buffer.from(pdf));
      }
      return reply
        .type('application/json')
        .header('Content-Disposition', 'attachment; filename="datos-personales.json"')
        .send(JSON.stringify({ subject: q, exportedAt: at.toISOString(), ...data }, null, 2));
    },
  );

  app.get(
    '/privacy/requests',
    {
      schema: {
        tags: ['backoffice'],
        description: 'The register of personal-data requests, newest first (100).',
        response: { 200: z.object({ requests: z.array(requestSchema) }), ...consoleErrors },
      },
    },
    async () => ({ requests: await listRequests(db, config.companyId) }),
  );

  app.post(
    '/privacy/requests',
    {
      schema: {
        tags: ['backoffice'],
        description: 'Registers a request (access/export, rectification, erasure) as given by the person.',
        body: z.object({
          subject: subjectSchema,
          kind: z.enum(personalDataRequestKinds, 'Elige el tipo de solicitud.'),
        }),
        response: { 201: requestSchema, ...consoleErrors },
      },
    },
    async (request, reply) => {
      const created = await openRequest(db, config.companyId, actorOf(request), request.body, fastify.clock());
      return reply.code(201).send(created);
    },
  );

  app.post(
    '/privacy/requests/:id/answer',
    {
      schema: {
        tags: ['backoffice'],
        description: 'Answers an open request: its answer text, by whoever calls.',
        params: idParams,
        body: z.object({
          answer: z
            .string('Escribe la respuesta.')
            .trim()
            .min(1, 'Escribe la respuesta.')
            .max(4000, 'Como máximo 4000 caracteres.'),
        }),
        response: { 200: requestSchema, ...consoleErrors },
      },
    },
    async (request) =>
      answerRequest(db, config.companyId, actorOf(request), request.params.id, request.body.answer, fastify.clock()),
  );

  const idField = z.number().int().positive().max(2_147_483_647);
  const emailField = z.email('Escribe un correo válido.').max(254);
  app.post(
    '/privacy/rectify',
    {
      schema: {
        tags: ['backoffice'],
        description:
          "Corrects a contact request's name or e-mail, or a newsletter subscription's address (a sale's traveller: «Corregir viajero» on the sale's page).",
        body: z.discriminatedUnion('source', [
          z.object({
            source: z.literal('contact'),
            id: idField,
            fullName: z.string().trim().min(1).max(200).optional(),
            email: emailField.optional(),
          }),
          z.object({ source: z.literal('subscription'), id: idField, email: emailField }),
        ]),
        response: {
          200: z.object({
            source: z.enum(['contact', 'subscription']),
            id: z.number(),
            email: z.string(),
            fullName: z.string().optional(),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) => rectifyPersonalData(db, config.companyId, actorOf(request), request.body, fastify.clock()),
  );

  app.post(
    '/privacy/erase',
    {
      schema: {
        tags: ['backoffice'],
        description:
          'Anonymises what need not be kept about a person (contact requests, newsletter, closed claims and their documents); sales, certificates and payments are kept. `confirm` must be true.',
        body: z.object({
          subject: subjectSchema,
          confirm: z.literal(true, 'Confirma que quieres anonimizar estos datos.'),
          requestId: z.number().int().positive().max(2_147_483_647).optional(),
        }),
        response: {
          200: z.object({
            contactRequests: z.array(z.number()),
            subscriptions: z.array(z.number()),
            claims: z.array(z.number()),
            documentsDeleted: z.number(),
            keptSales: z.array(z.number()),
            answer: z.string(),
          }),
          ...consoleErrors,
        },
      },
    },
    async (request) =>
      erasePersonalData(db, fastify.documentStore, config.companyId, actorOf(request), request.body, fastify.clock()),
  );
}
