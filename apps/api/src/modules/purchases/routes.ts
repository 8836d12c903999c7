import { errorMessages } from '@travesia/domain/messages';
import { countryDestination, isoDate } from '@travesia/domain/rules';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, errorResponses, resourceNotFound } from '#app/errors.ts';
import { dbId, typed } from '#app/http.ts';
import { adminOnly } from '#app/lib/security/admin-token.ts';
import { configuredOrigin } from '#app/lib/security/origins.ts';
import { publicBaseUrl } from '#app/lib/security/public-origin.ts';
import {
  listCertificates,
  ownCertificatePdf,
  travellerCertificateFileName,
} from '#app/modules/certificates/service.ts';
import { ledgerSchema } from '#app/modules/payments/ledger-schema.ts';
import type { Gateways, PurchaseHooks } from '#app/modules/payments/service.ts';
import { confirmDateChange, dateChangeHistory, previewDateChange } from './date-change.ts';
import {
  closeAccess,
  documentTypes,
  openPaidSale,
  openSignedLink,
  type PurchaseAccess,
  purchaseCertificatePdf,
  purchaseView,
  receiptPdf,
  requestAccessCode,
  requireAccess,
  requireBuyer,
  revokePurchaseAccess,
  travellerPurchaseView,
  verifyAccessCode,
} from './service.ts';
import { withdraw } from './withdrawal.ts';

const tags = ['purchases'];

const accessRequest = z.object({
  number: z.string().trim().min(1).max(40).describe('The sale number (idVenta) or a certificate number (TRV-…)'),
  documentType: z.enum(documentTypes).describe("The holder's document: RUT (any format), DNI or passport"),
  document: z.string().trim().min(1).max(30),
});

const sessionSchema = z
  .object({
    token: z.string().describe('Opens GET /purchases/mine as `Authorization: Bearer {token}` until expiresAt'),
    expiresAt: z.string(),
  })
  .meta({ id: 'PurchaseAccess' });

const withdrawalSchema = z
  .object({
    status: z
      .enum(['paid', 'withdrawing', 'withdrawn'])
      .describe(
        'paid: not withdrawn; withdrawing: «retracto en proceso» (refund pending); withdrawn: cancelled and refunded',
      ),
    available: z.boolean().describe('«Retractarme» can be used now'),
    reason: z.string().nullable().describe('Why it cannot (a paid sale only), in words for the buyer'),
    reasonCode: z.enum(['window_expired', 'trip_started']).nullable(),
    deadline: z
      .string()
      .describe(
        'When the window closes (ISO, exclusive): the midnight, Chile time, ending the 10th calendar day after the purchase date (Ley 19.496 art. 3 bis; Civil Code arts. 48–50)',
      ),
    lastDay: z.string().describe('The last calendar day to withdraw (Chile): the 10th after the purchase date'),
    coverageStart: z.string().describe('The departure date: withdrawal closes when it starts (Chile time)'),
    refund: z
      .object({
        status: z.enum(['pending', 'refunded']),
        method: z
          .enum(['gateway', 'manual'])
          .nullable()
          .describe(
            'Once refunded: through the gateway, or manual: the company transferred it («Reembolsado por transferencia»)',
          ),
        amountClp: z.number().int(),
        requestedAt: z.string(),
        refundedAt: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'PurchaseWithdrawal' });

const destinationCountrySchema = z
  .object({ id: z.number().int(), label: z.string() })
  .nullable()
  .describe('The country of the destination region the travellers named («País de destino» on the certificates)');

const purchaseSchema = z
  .object({
    role: z.literal('buyer').describe("The buyer's access: the whole purchase, its payment and every traveller"),
    idVenta: z.number().int(),
    status: z.enum(['paid', 'withdrawing', 'withdrawn']),
    testPayment: z
      .boolean()
      .describe(
        "Paid on a test gateway (the sandbox, Webpay on Transbank's integration environment): no money moved, nothing is covered",
      ),
    paidAt: z.string(),
    plan: z.string(),
    destination: z.string(),
    destinationCountry: destinationCountrySchema,
    modality: z.string(),
    departureDate: z.string(),
    returnDate: z.string(),
    days: z.number().int(),
    amountClp: z.number().int(),
    amountUsd: z.number(),
    payment: z.object({
      gateway: z.string().nullable(),
      paymentType: z.string().nullable().describe('Débito, crédito sin cuotas, en cuotas… (the gateway’s type code)'),
      cardLastDigits: z.string().nullable(),
      instalments: z.number().int().nullable(),
      instalmentAmountClp: z
        .number()
        .int()
        .nullable()
        .describe('What each instalment is, in CLP (the amount paid split evenly, rounded up to the peso)'),
      authorizationCode: z.string().nullable(),
    }),
    ledger: ledgerSchema,
    travellers: z.array(
      z.object({
        name: z.string(),
        documentType: z.string(),
        document: z.string().describe('Partly masked: 12.***.***-5'),
        certificate: z.string().nullable(),
        certificateVoided: z.boolean().describe('Voided by a withdrawal: it covers nobody'),
      }),
    ),
    seller: z.object({ name: z.string(), legalName: z.string(), rut: z.string(), address: z.string() }),
    generalConditionsUrl: z.string(),
    generalConditionsPdfUrl: z
      .string()
      .describe('The general conditions as a printable PDF (GET /legal/condiciones-generales.pdf)'),
    withdrawal: withdrawalSchema,
    dateChange: z
      .object({
        available: z.boolean(),
        reason: z.string().nullable(),
        countries: z
          .array(z.object({ id: z.number().int(), label: z.string() }))
          .describe("The countries of the sale's destination region a change may name (empty when not available)"),
      })
      .describe('Whether the trip dates can still change (before the departure date, Chile time), and why not'),
    dateChanges: z
      .array(
        z.object({
          appliedAt: z.string(),
          previousDepartureDate: z.string(),
          previousReturnDate: z.string(),
          departureDate: z.string(),
          returnDate: z.string(),
          previousDestinationCountry: z.string().nullable(),
          destinationCountry: z.string().nullable().describe('«País de destino» after the change'),
          differenceClp: z.number().int().describe('Paid (> 0) or given back (< 0)'),
          refund: z
            .string()
            .nullable()
            .describe(
              'Of a given-back difference: «reembolso en proceso», «reembolsado» or «reembolsado por transferencia»',
            ),
          refundRefused: z
            .boolean()
            .describe(
              'The gateway refused (or did not answer) the refund so far, as Webpay does for part of a debit sale: it stays pending and is retried; the page says the company returns it by transfer',
            ),
        }),
      )
      .describe('Date changes applied, newest first'),
  })
  .meta({ id: 'Purchase' });

const travellerPurchaseSchema = z
  .object({
    role: z
      .literal('traveller')
      .describe("A traveller's access: her own trip and certificate only (no other traveller, no payment, no amount)"),
    idVenta: z.number().int(),
    status: z.enum(['paid', 'withdrawing', 'withdrawn']),
    testPayment: z.boolean(),
    plan: z.string(),
    destination: z.string(),
    destinationCountry: destinationCountrySchema,
    modality: z.string(),
    departureDate: z.string(),
    returnDate: z.string(),
    days: z.number().int(),
    traveller: z.object({
      name: z.string(),
      documentType: z.string(),
      document: z.string().describe('Partly masked: 12.***.***-5'),
      certificate: z.string().nullable(),
      certificateVoided: z.boolean(),
      verificationUrl: z.string().nullable().describe('The public verification page of her certificate (while valid)'),
    }),
    seller: z.object({ name: z.string(), legalName: z.string(), rut: z.string(), address: z.string() }),
    generalConditionsUrl: z.string(),
    generalConditionsPdfUrl: z.string(),
  })
  .meta({ id: 'TravellerPurchase' });

/**
 * GET /purchases/mine's answer: the buyer's or a traveller's. Parsed by the handler (which keeps only each variant's
 * own fields): in production the union is serialized by fast-json-stringify, which checks the variant with ajv and
 * would refuse a field the schema does not declare instead of leaving it out.
 */
const purchaseAnswerSchema = z.discriminatedUnion('role', [purchaseSchema, travellerPurchaseSchema]);

const buyerOnly = { 403: errorBodySchema.describe("A traveller's access: only the buyer may do this") };

const bearer = z.object({
  authorization: z.string().max(200).optional().describe('Bearer {token} of POST /purchases/access/code or /link'),
});
const tokenOf = (request: FastifyRequest) => /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];

function sendPdf(reply: import('fastify').FastifyReply, pdf: Uint8Array, fileName: string) {
  return reply
    .type('application/pdf')
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .header('Cache-Control', 'private, no-store')
    .send(Buffer.from(pdf));
}

export const receiptFileName = 'comprobante.pdf';

const dateChangeRequest = z.object({
  departureDate: isoDate(),
  returnDate: isoDate(),
  countryDestination: countryDestination
    .optional()
    .describe(
      "Another country of the sale's destination region (dateChange.countries of GET /purchases/mine); absent: the same",
    ),
});

const dateChangePreviewSchema = z
  .object({
    departureDate: z.string(),
    returnDate: z.string(),
    days: z.number().int(),
    destinationCountry: destinationCountrySchema,
    amountClp: z.number().int().describe('The new price of the purchase'),
    amountUsd: z.number(),
    paidClp: z.number().int().describe('What the purchase cost so far'),
    differenceClp: z.number().int(),
    differenceUsd: z.number(),
    action: z.enum(['pay', 'refund', 'none']).describe('pay the difference, refund it, or nothing to pay'),
  })
  .meta({ id: 'DateChangePreview' });

const dateChangeResultSchema = z
  .object({
    action: z.enum(['pay', 'refund', 'none']),
    status: z.enum(['applied', 'awaiting_payment']),
    departureDate: z.string(),
    returnDate: z.string(),
    destinationCountry: destinationCountrySchema,
    amountClp: z.number().int(),
    differenceClp: z.number().int(),
    redirectUrl: z.string().nullable().describe('Where the buyer pays the difference (action pay)'),
  })
  .meta({ id: 'DateChangeResult' });

/** «Mi compra» without an account: a code by e-mail or a signed link opens one paid sale for a short while. */
export function purchaseRoutes(options: {
  onEmailQueued: () => void;
  onWithdrawn?: () => void;
  gateways: Gateways;
  onPaid: (saleId: number) => void;
  /** The purchase workflow's steps payments runs (a date change's difference paid: certificates replaced). */
  hooks: PurchaseHooks;
  nudgeRefunds: () => void;
}) {
  return async (fastify: FastifyInstance) => {
    const app = typed(fastify);
    const { db, config } = fastify;
    const origin = configuredOrigin(config);

    /** The buyer opens any certificate of the sale; a traveller only her own (current) one. */
    const mayOpenCertificate = async (access: PurchaseAccess, certificate: string) => {
      if (access.role === 'buyer') return true;
      const people = await listCertificates(db, access.saleId);
      return people.some((person) => person.seq === access.travellerSeq && person.number === certificate.toUpperCase());
    };

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
        if (await requestAccessCode(db, config.purchases, config.companyId, request.body)) options.onEmailQueued();
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

    app.get(
      '/purchases/mine',
      {
        schema: {
          tags,
          description:
            "The purchase an access token opens. The buyer's (role buyer): plan, trip, travellers (documents masked), amounts, payment and documents. A traveller's (role traveller): her own trip and certificate only. Without a live token: 404.",
          headers: bearer,
          response: { 200: purchaseAnswerSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const access = await requireAccess(db, tokenOf(request));
        reply.header('Cache-Control', 'private, no-store');
        if (access.role === 'traveller') {
          return purchaseAnswerSchema.parse(
            await travellerPurchaseView(db, access.saleId, access.travellerSeq, origin),
          );
        }
        const [view, dateChanges] = await Promise.all([
          purchaseView(db, access.saleId),
          dateChangeHistory({ db }, access.saleId),
        ]);
        return purchaseAnswerSchema.parse({ role: 'buyer' as const, ...view, dateChanges });
      },
    );

    app.get(
      `/purchases/mine/${receiptFileName}`,
      {
        schema: {
          tags,
          description: "The purchase receipt PDF of the open purchase (the buyer's only)",
          headers: bearer,
          response: buyerOnly,
        },
      },
      async (request, reply) => {
        const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
        return sendPdf(reply, await receiptPdf(db, saleId), receiptFileName);
      },
    );

    app.get(
      '/purchases/mine/certificado.pdf',
      {
        schema: {
          tags,
          description: "The certificate PDF of the open purchase, every traveller's (the buyer's only)",
          headers: bearer,
          response: buyerOnly,
        },
      },
      async (request, reply) => {
        const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
        return sendPdf(reply, await purchaseCertificatePdf(db, saleId, origin), 'certificado.pdf');
      },
    );

    app.get(
      '/purchases/mine/certificados/:certificate',
      {
        schema: {
          tags,
          description:
            "One traveller's certificate PDF of the open purchase (only that traveller's data); a number not of this purchase, or for a traveller's access not her own: 404",
          headers: bearer,
          params: z.object({ certificate: z.string().min(1).max(40) }),
        },
      },
      async (request, reply) => {
        const access = await requireAccess(db, tokenOf(request));
        const { saleId } = access;
        const { certificate } = request.params;
        if (!(await mayOpenCertificate(access, certificate))) throw resourceNotFound();
        const pdf = await ownCertificatePdf(db, saleId, certificate, origin);
        return sendPdf(reply, pdf, travellerCertificateFileName(certificate));
      },
    );

    app.post(
      '/purchases/mine/withdrawal',
      {
        schema: {
          tags,
          description:
            '«Retractarme» (derecho a retracto): until the end (midnight, Chile time) of the 10th calendar day after the purchase date and before the trip starts, cancels the open purchase — certificates voided, the whole amount refunded through the gateway that took it, a confirmation e-mailed. Idempotent: repeated or concurrent calls answer the same state and refund once. Outside the window: 409 with the reason. Without a live token: 404.',
          headers: bearer,
          response: { 200: withdrawalSchema, ...errorResponses, ...buyerOnly, 409: errorBodySchema },
        },
      },
      async (request, reply) => {
        const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
        const { withdrew, state } = await withdraw(db, saleId);
        if (withdrew) options.onWithdrawn?.();
        reply.header('Cache-Control', 'private, no-store');
        return state;
      },
    );

    app.post(
      '/purchases/mine/date-change/preview',
      {
        config: { invalidInputDetail: errorMessages.invalidInputs },
        schema: {
          tags,
          description:
            'Reprices the open purchase for new trip dates, and optionally another country of the same destination region (same plan, region and travellers, the quoter’s rules): the new price, the difference and what confirming does. Nothing is written. A country outside the region: 400 (country_outside_region); nothing changed: 400 (same_dates). After the departure date or on a purchase that cannot change: 409.',
          headers: bearer,
          body: dateChangeRequest,
          response: { 200: dateChangePreviewSchema, ...errorResponses, ...buyerOnly, 409: errorBodySchema },
        },
      },
      async (request, reply) => {
        const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
        reply.header('Cache-Control', 'private, no-store');
        return previewDateChange({ db }, saleId, request.body);
      },
    );

    app.post(
      '/purchases/mine/date-change',
      {
        config: { invalidInputDetail: errorMessages.invalidInputs, rateLimit: config.rateLimits.paymentStart },
        schema: {
          tags,
          description:
            'Changes the trip dates (and optionally the country inside the same destination region) of the open purchase. A higher price answers `redirectUrl`: the buyer pays the difference there and the change is applied when the gateway approves it (declined or abandoned: nothing changes). A lower or equal price is applied at once and the difference is refunded through the gateway. New certificates replace the old ones (voided) and are e-mailed.',
          headers: bearer,
          body: dateChangeRequest,
          response: {
            200: dateChangeResultSchema,
            ...errorResponses,
            ...buyerOnly,
            409: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request) => {
        const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
        const base = publicBaseUrl(request, config);
        return confirmDateChange(
          {
            db,
            gateways: options.gateways,
            onPaid: options.onPaid,
            hooks: options.hooks,
            nudgeRefunds: options.nudgeRefunds,
            log: request.log,
          },
          saleId,
          request.body,
          (gatewayId) => `${base}/api/payments/return/${gatewayId}`,
        );
      },
    );

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
      (request) => revokePurchaseAccess(db, request.params.idVenta),
    );
  };
}
