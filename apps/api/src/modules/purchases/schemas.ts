import { countryDestination, isoDate, maxPassengers } from '@travesia/domain/rules';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema } from '#app/errors.ts';
import { ledgerSchema } from '#app/modules/payments/ledger-schema.ts';
import { documentTypes } from './service.ts';

/* The bodies and answers of the «Mi compra» routes (routes.ts and the route groups it registers). */

export const tags = ['purchases'];

export const accessRequest = z.object({
  number: z.string().trim().min(1).max(40).describe('The sale number (idVenta) or a certificate number (TRV-…)'),
  documentType: z.enum(documentTypes).describe("The holder's document: RUT (any format), DNI or passport"),
  document: z.string().trim().min(1).max(30),
});

export const sessionSchema = z
  .object({
    token: z.string().describe('Opens GET /purchases/mine as `Authorization: Bearer {token}` until expiresAt'),
    expiresAt: z.string(),
  })
  .meta({ id: 'PurchaseAccess' });

export const withdrawalSchema = z
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

/** The trip both views show: the buyer's and a traveller's. */
const tripFields = {
  plan: z.string(),
  destination: z.string(),
  destinationCountry: destinationCountrySchema,
  modality: z.string(),
  departureDate: z.string(),
  returnDate: z.string(),
  days: z.number().int(),
};

const sellerSchema = z.object({ name: z.string(), legalName: z.string(), rut: z.string(), address: z.string() });

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
    ...tripFields,
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
    seller: sellerSchema,
    generalConditionsUrl: z.string(),
    generalConditionsPdfUrl: z
      .string()
      .describe('The general conditions as a printable PDF (GET /legal/condiciones-generales.pdf)'),
    acceptedLegalPages: z
      .array(
        z.object({
          slug: z.string(),
          title: z.string(),
          version: z.number().int(),
          publishedAt: z.string().describe('When that version was published (ISO 8601)'),
          url: z.string().describe('The storefront page of that very version (/terminos?version=N)'),
        }),
      )
      .describe('The legal texts the buyer accepted when paying, at the version then in force (older sales: none)'),
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
    taxDocuments: z
      .array(
        z.object({
          id: z.number().int(),
          type: z.number().int().describe('SII type: 39, 41, 33, 34 or 61 (nota de crédito)'),
          typeName: z.string().describe('«Boleta electrónica», «Nota de crédito electrónica»…'),
          folio: z.number().int().nullable(),
          date: z.string().nullable().describe('Issue date, YYYY-MM-DD (Chile)'),
          totalClp: z.number().int().describe('Negative for a credit note'),
          formattedTotal: z.string(),
          noTaxValue: z.boolean().describe('Issued by the local adapter: «SIN VALOR TRIBUTARIO»'),
          pdfUrl: z.string().describe('GET with the same bearer token (the buyer only)'),
        }),
      )
      .describe('The tax documents issued for the sale (boletas, facturas, notas de crédito), oldest first'),
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
    ...tripFields,
    traveller: z.object({
      name: z.string(),
      documentType: z.string(),
      document: z.string().describe('Partly masked: 12.***.***-5'),
      certificate: z.string().nullable(),
      certificateVoided: z.boolean(),
      verificationUrl: z.string().nullable().describe('The public verification page of her certificate (while valid)'),
    }),
    seller: sellerSchema,
    generalConditionsUrl: z.string(),
    generalConditionsPdfUrl: z.string(),
  })
  .meta({ id: 'TravellerPurchase' });

/**
 * GET /purchases/mine's answer: the buyer's or a traveller's. Parsed by the handler (which keeps only each variant's
 * own fields): in production the union is serialized by fast-json-stringify, which checks the variant with ajv and
 * would refuse a field the schema does not declare instead of leaving it out.
 */
export const purchaseAnswerSchema = z.discriminatedUnion('role', [purchaseSchema, travellerPurchaseSchema]);

export const buyerOnly = { 403: errorBodySchema.describe("A traveller's access: only the buyer may do this") };

export const bearer = z.object({
  authorization: z.string().max(200).optional().describe('Bearer {token} of POST /purchases/access/code or /link'),
});
export const tokenOf = (request: FastifyRequest) => /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];

export const dateChangeRequest = z.object({
  departureDate: isoDate(),
  returnDate: isoDate(),
  countryDestination: countryDestination
    .optional()
    .describe(
      "Another country of the sale's destination region (dateChange.countries of GET /purchases/mine); absent: the same",
    ),
});

export const dateChangePreviewSchema = z
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

export const dateChangeResultSchema = z
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

/** POST /purchases/mine/add-ons: the add-ons to add to each traveller (issue 27 §1). */
export const addOnPurchaseRequest = z
  .object({
    travellers: z
      .array(
        z
          .object({
            seq: z.number().int().min(1).max(maxPassengers),
            adicionales: z.array(z.number().int().positive().max(2_147_483_647)).min(1).max(10),
          })
          .strict(),
      )
      .min(1)
      .max(maxPassengers),
  })
  .strict()
  .meta({ id: 'AddOnPurchaseRequest' });

const addOnBenefits = z.array(z.object({ label: z.string(), value: z.string() }));

export const addOnsToBuySchema = z
  .object({
    reason: z.string().nullable().describe('Why nothing can be added (the plan is no longer sold for the trip)'),
    travellers: z.array(
      z.object({
        seq: z.number().int(),
        name: z.string(),
        bought: z.array(z.string()).describe('The add-ons this traveller already has'),
        offers: z.array(
          z.object({
            id: z.number().int(),
            name: z.string(),
            description: z.string(),
            precio: z.string(),
            benefits: addOnBenefits,
            price: z.object({ amountClp: z.number().int(), formatted: z.string() }),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'AddOnsToBuy' });

export const addOnPurchaseResultSchema = z
  .object({
    status: z.enum(['applied', 'awaiting_payment']),
    amountClp: z.number().int().describe('What the add-ons chosen cost'),
    totalClp: z.number().int().describe('The purchase with them'),
    redirectUrl: z.string().nullable().describe('Where the buyer pays them'),
  })
  .meta({ id: 'AddOnPurchaseResult' });
