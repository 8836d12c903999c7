import { z } from 'zod';

/** The sale's ledger as GET /purchases/mine answers it (ledger.ts saleLedger; docs/ledger.md). */
const ledgerPaymentSchema = z.object({
  kind: z.literal('payment'),
  id: z.number().int(),
  purpose: z.enum(['purchase', 'date_change']).describe("The purchase, or a dearer date change's difference"),
  label: z.string(),
  date: z.string().describe('When the gateway authorized it (ISO)'),
  gateway: z.string(),
  gatewayName: z.string(),
  amountClp: z.number().int(),
  status: z
    .enum(['authorized', 'not_honoured'])
    .describe('not_honoured: authorized by the gateway but not kept by the store, given back in full'),
  statusLabel: z.string(),
  paymentType: z.string().nullable(),
  instalments: z.number().int().nullable().describe('Of this payment only'),
  instalmentAmountClp: z.number().int().nullable().describe("Each instalment of this payment's amount"),
  instalmentsText: z.string().nullable().describe('«3 cuotas sin interés de $61.275», of this payment'),
  cardLastDigits: z.string().nullable(),
  authorizationCode: z.string().nullable(),
});

const ledgerRefundSchema = z.object({
  kind: z.literal('refund'),
  id: z.number().int(),
  reason: z.enum(['withdrawal', 'date_change', 'not_honoured']),
  label: z.string(),
  date: z.string().describe('When it was asked (ISO)'),
  refundedAt: z.string().nullable(),
  paymentId: z.number().int().describe('The payment it gives back'),
  gateway: z.string(),
  gatewayName: z.string(),
  amountClp: z.number().int().describe('Given back (positive)'),
  status: z
    .enum(['pending', 'retrying', 'held', 'refunded'])
    .describe(
      'pending: asked of the gateway; retrying: refused or unanswered so far, asked again; held: an operator gives it back by transfer; refunded',
    ),
  method: z.enum(['gateway', 'manual']).nullable().describe('Once refunded: through the gateway or by bank transfer'),
  statusLabel: z.string(),
});

export const ledgerSchema = z
  .object({
    entries: z
      .array(z.discriminatedUnion('kind', [ledgerPaymentSchema, ledgerRefundSchema]))
      .describe('Every payment that took money and every refund, oldest first'),
    paidClp: z.number().int(),
    refundedClp: z.number().int().describe('Given back'),
    pendingRefundClp: z.number().int().describe('Asked back, not yet given back'),
    netClp: z.number().int().describe('Paid − given back: what the gateways hold of this sale'),
    netAfterPendingClp: z.number().int().describe('The net once the pending refunds are given back'),
  })
  .describe("The sale's payments and refunds, and the net paid")
  .meta({ id: 'SaleLedger' });
