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
