import { personName, travellerDocument } from '@travesia/domain/rules';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { typed } from '#app/http.ts';
import { recordView } from '../audit/service.ts';
import { actorOf, consoleErrors, rolesOf } from '../operators/console-routes.ts';
import { ledgerSchema } from '../payments/ledger-schema.ts';
import { saleStatuses } from '../payments/service.ts';
import {
  correctSaleTraveller,
  maskedForFinance,
  resendCertificates,
  revokeSaleAccess,
  saleDetail,
  searchSalesForConsole,
  withdrawForBuyer,
} from './console.ts';
import { withdrawalSchema } from './schemas.ts';

const chileDate = z.iso.date();
const saleParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const invalidInput = 'Revisa los datos de la búsqueda.';

const saleRowSchema = z.object({
  id: z.number(),
  status: z.enum(saleStatuses),
  amountClp: z.number(),
  testPayment: z.boolean(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  holder: z.string().nullable(),
  travellers: z.number(),
  plan: z.string().nullable(),
  departureDate: z.string().nullable(),
});

const saleDetailSchema = z.object({
  id: z.number(),
  status: z.enum(saleStatuses),
  testPayment: z.boolean(),
  amountClp: z.number(),
  amountUsd: z.number(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  plan: z.string().nullable(),
  trip: z
    .object({
      destination: z.string(),
      destinationCountry: z.string().nullable(),
      modality: z.string(),
      departureDate: z.string(),
      returnDate: z.string(),
      days: z.number(),
      discountCode: z.string().nullable(),
    })
    .nullable(),
  travellers: z.array(
    z.object({
      seq: z.number(),
      name: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      documentType: z.number(),
      documentNumber: z.string(),
      birthDate: z.string(),
      email: z.string(),
    }),
  ),
  consents: z
    .object({
      version: z.string(),
      legalPages: z
        .record(z.string(), z.object({ version: z.number(), publishedAt: z.string() }))
        .optional()
        .describe('The version of each legal page in force when the buyer accepted (sales before versions: absent)'),
      recordedAt: z.string(),
      dataProcessing: z.boolean(),
      marketing: z.boolean(),
    })
    .nullable(),
  payments: z.array(
    z.object({
      id: z.number(),
      purpose: z.string(),
      gateway: z.string(),
      status: z.string(),
      amountClp: z.number(),
      instalments: z.number().nullable(),
      cardLastDigits: z.string().nullable(),
      authorizationCode: z.string().nullable(),
      createdAt: z.string(),
      confirmedAt: z.string().nullable(),
    }),
  ),
  ledger: ledgerSchema,
  certificates: z.array(
    z.object({
      number: z.string(),
      travellerSeq: z.number().nullable(),
      issuedAt: z.string(),
      voidedAt: z.string().nullable(),
      voidedReason: z.string().nullable(),
    }),
  ),
  verificationCodes: z.array(
    z.object({ version: z.number(), code: z.string(), createdAt: z.string(), replacedAt: z.string().nullable() }),
  ),
  emails: z.array(
    z.object({
      id: z.number(),
      kind: z.string(),
      status: z.string(),
      attempts: z.number(),
      lastError: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
  ),
  dateChanges: z.array(
    z.object({
      id: z.number(),
      kind: z.enum(['dates', 'add_ons']).describe('A change of dates, or add-ons bought from «Mi compra» afterwards'),
      status: z.string(),
      previousDepartureDate: z.string(),
      previousReturnDate: z.string(),
      departureDate: z.string(),
      returnDate: z.string(),
      differenceClp: z.number(),
      createdAt: z.string(),
      appliedAt: z.string().nullable(),
    }),
  ),
  withdrawal: z
    .object({ status: z.string(), available: z.boolean(), reason: z.string().nullable(), deadline: z.string() })
    .nullable(),
});

/**
 * The console's «Ventas» (issue 24, screen 2): the sale search and a sale's page, and the actions on a sale, each by
 * role (guard.ts) and each audited in its own transaction (console.ts).
 */
export async function salesConsoleRoutes(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = fastify;

  app.get(
    '/sales',
    {
      config: { invalidInputDetail: invalidInput },
      schema: {
        tags: ['backoffice'],
        description:
          'The sale search, newest first, 50 a page (`limit` up to 100; `cursor` from `nextCursor`). `q` with `by` (auto guesses: an e-mail, a certificate number, digits = sale number or document, else a name prefix); paid between two Chile dates; a status, or `confirming` (a payment «en confirmación» for more than 5 minutes).',
        querystring: z.object({
          q: z.string().max(120).optional(),
          by: z.enum(['auto', 'sale', 'certificate', 'document', 'email', 'name']).optional(),
          paidFrom: chileDate.optional(),
          paidTo: chileDate.optional(),
          status: z.enum([...saleStatuses, 'confirming']).optional(),
          cursor: z.string().max(200).optional(),
          limit: z.coerce.number().int().min(1).max(100).optional(),
        }),
        response: {
          200: z.object({ sales: z.array(saleRowSchema), nextCursor: z.string().nullable() }),
          ...consoleErrors,
        },
      },
    },
    async (request) => searchSalesForConsole(db, config.companyId, request.query, fastify.clock()),
  );

  app.get(
    '/sales/:id',
    {
      schema: {
        tags: ['backoffice'],
        description:
          "A sale's page: trip, plan, travellers, payments, ledger, certificates, codes, e-mails, consents, date changes.",
        params: saleParams,
        response: { 200: saleDetailSchema, ...consoleErrors },
      },
    },
    async (request) => {
      const at = fastify.clock();
      const sale = await saleDetail(db, config.companyId, request.params.id, at);
      await recordView(db, actorOf(request), 'sale.viewed', { type: 'sale', id: String(sale.id) }, at);
      const roles = rolesOf(request);
      return roles.includes('admin') || roles.includes('support') ? sale : maskedForFinance(sale);
    },
  );

  app.post(
    '/sales/:id/certificate-email',
    {
      schema: {
        tags: ['backoffice'],
        description:
          "Sends the sale's certificate e-mail again to its travellers (one per sale every 10 minutes however often asked). 409 when the sale is not paid.",
        params: saleParams,
        response: { 200: z.object({ queued: z.boolean() }), ...consoleErrors },
      },
    },
    async (request) => resendCertificates(db, config.companyId, actorOf(request), request.params.id, fastify.clock()),
  );

  app.post(
    '/sales/:id/revoke-access',
    {
      schema: {
        tags: ['backoffice'],
        description: 'Ends every «Mi compra» link, code and open access of the sale at once. 409 when it is not paid.',
        params: saleParams,
        response: { 200: z.object({ linkVersion: z.number() }), ...consoleErrors },
      },
    },
    async (request) => revokeSaleAccess(db, config.companyId, actorOf(request), request.params.id, fastify.clock()),
  );

  app.post(
    '/sales/:id/withdrawal',
    {
      schema: {
        tags: ['backoffice'],
        description:
          "Withdraws on the buyer's behalf (a phone request), within the legal window: the buyer's own path (certificates void, the refund requested, the e-mail). 409 outside the window.",
        params: saleParams,
        response: { 200: withdrawalSchema, ...consoleErrors },
      },
    },
    async (request) => {
      const { withdrew, state } = await withdrawForBuyer(
        db,
        config.companyId,
        actorOf(request),
        request.params.id,
        fastify.clock(),
      );
      if (withdrew) fastify.work.emit('purchaseWithdrawn');
      return state;
    },
  );

  app.post(
    '/sales/:id/travellers/:seq/correction',
    {
      config: { invalidInputDetail: 'Revisa los datos del viajero.' },
      schema: {
        tags: ['backoffice'],
        description:
          "Corrects a paid sale's traveller (name, document) with the reason: the certificates are issued again with a new verification code (the old one answers «reemplazado») and e-mailed. 409 when the sale is not paid; 404 for a traveller it does not have.",
        params: saleParams.extend({ seq: z.coerce.number().int().min(1).max(20) }),
        body: z.object({
          firstName: personName,
          lastName: personName,
          document: travellerDocument,
          reason: z.string().trim().min(3).max(300),
        }),
        response: { 200: z.object({ certificatesVersion: z.number() }), ...consoleErrors },
      },
    },
    async (request) => {
      const { firstName, lastName, document, reason } = request.body;
      return correctSaleTraveller(
        db,
        config.companyId,
        actorOf(request),
        request.params.id,
        request.params.seq,
        { firstName, lastName, documentType: document.type, documentNumber: document.id, reason },
        fastify.clock(),
      );
    },
  );
}
