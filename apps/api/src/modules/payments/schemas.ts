import { z } from 'zod';

export const paymentBodySchema = z
  .object({
    quotationId: z.uuid(),
    gatewayId: z.string().min(1).max(40).describe('An id from GET /companies/{companyId}/payment-gateways'),
    consents: z
      .object({
        dataProcessing: z.boolean().describe("Processing of the travellers' data for the service: must be true"),
        marketing: z.boolean().default(false).describe('Offers by e-mail: optional'),
      })
      .strict()
      .optional()
      .describe('What the buyer agreed to on the payment step (texts of the current version); stored with the sale'),
  })
  .meta({ id: 'PaymentBody' });

export const paymentCreatedSchema = z
  .object({
    redirectUrl: z.string().describe('Where to send the browser to pay'),
    idVenta: z.number().int(),
    idTransaction: z.number().int(),
    accessToken: z
      .string()
      .describe("The sale's access token: the proof this browser started the payment (payment result, certificates)"),
  })
  .meta({ id: 'PaymentCreated' });

export const paymentResultSchema = z
  .object({
    idTransaction: z.number().int(),
    idVenta: z.number().int(),
    resultTransaction: z.enum(['PENDING', 'CONFIRMING', 'AUTHORIZED', 'DECLINED', 'ABORTED', 'TIMEOUT', 'ERROR']),
    detailResoonse: z.string(),
    message: z.string().describe('The outcome in a few Spanish words'),
    quotationId: z.uuid().nullable().describe("Only with the sale's access token (?token=)"),
    planId: z.number().int(),
    amountClp: z.number().int(),
    amountUsd: z.number(),
    gateway: z.string(),
    instalments: z.number().int().nullable(),
    instalmentAmountClp: z
      .number()
      .int()
      .nullable()
      .describe(
        'What each instalment is, in CLP (the amount paid split evenly, rounded up to the peso); null until paid',
      ),
    paymentTypeCode: z.string().nullable(),
    paymentType: z
      .string()
      .nullable()
      .describe('The payment type in Spanish («Débito», «Crédito, cuotas sin interés»…), from paymentTypeCode'),
    authorizationCode: z.string().nullable(),
    cardLastDigits: z.string().nullable(),
    certificates: z
      .array(z.object({ number: z.string(), name: z.string(), lastName: z.string() }))
      .describe("Only with the sale's access token (?token=); empty otherwise"),
    testPayment: z
      .boolean()
      .describe(
        "An attempt on a test gateway (the sandbox, Webpay on Transbank's integration environment): no money moved and the certificate has no value",
      ),
  })
  .meta({ id: 'PaymentResult' });

/** What a gateway's return may carry, from a query string or a form post. */
export const gatewayReturnSchema = z.object({
  token_ws: z.string().max(128).optional(),
  TBK_TOKEN: z.string().max(128).optional(),
  TBK_ID_SESION: z.string().max(128).optional(),
  TBK_ORDEN_COMPRA: z.string().max(128).optional(),
});

const clpAmount = z.object({ amountClp: z.number().int(), formatted: z.string() });

/** GET /companies/{companyId}/quotations/{quotationId}/add-ons (issue 27 §1, not in spec §7). */
export const quotationAddOnsSchema = z
  .object({
    planId: z.number().int(),
    days: z.number().int(),
    addOns: z
      .array(
        z.object({
          id: z.number().int(),
          code: z.string(),
          name: z.string(),
          description: z.string(),
          benefits: z.array(z.object({ label: z.string(), value: z.string() })),
          precio: z.string().describe('The price rule in words: «USD 2,50 por día», «30 % del valor del plan»'),
          buyableAfterPurchase: z.boolean().describe('Can also be added from «Mi compra» until the departure day'),
          bands: z
            .array(
              z.object({
                passengerTypeId: z.number().int(),
                available: z.boolean(),
                reason: z.string().nullable().describe('Why a traveller of this band cannot buy it (Spanish)'),
                price: z
                  .object({
                    amountClp: z.number().int(),
                    amountUsd: z.number(),
                    formatted: z.string(),
                    formattedUsd: z.string(),
                  })
                  .nullable()
                  .describe('For one traveller of this band, tax included when the plan has it'),
              }),
            )
            .describe('One per travelling age band'),
        }),
      )
      .describe('The add-ons some travelling band may buy with the chosen plan, in the store order'),
    travellers: z
      .array(
        z.object({
          seq: z.number().int(),
          passengerTypeId: z.number().int(),
          addOns: z.array(clpAmount.extend({ id: z.number().int(), name: z.string() })),
        }),
      )
      .describe('The saved travellers (empty before the purchase step is saved) with their chosen add-ons priced'),
    problems: z
      .array(z.object({ seq: z.number().int(), addOnId: z.number().int(), message: z.string() }))
      .describe('Chosen add-ons that can no longer be bought (the payment would be refused until they are removed)'),
    totals: z.object({
      planClp: z.number().int(),
      addOnsClp: z.number().int(),
      totalClp: z.number().int().describe('What the payment charges: the plan plus the add-ons chosen'),
      totalUsd: z.number(),
      instalments: clpAmount.extend({ count: z.number().int() }),
      formatted: z.object({ plan: z.string(), addOns: z.string(), total: z.string(), totalUsd: z.string() }),
    }),
  })
  .meta({ id: 'QuotationAddOns' });
