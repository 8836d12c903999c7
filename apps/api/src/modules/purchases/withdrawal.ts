import { addDays, chileDayStart, todayInChile } from '@travesia/domain/dates';
import { formatClp } from '@travesia/domain/money';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { type EmailBlock, emailHtml } from '#app/integrations/mail/email-html.ts';
import { type Mailer, mailFailureFields } from '#app/integrations/mail/mailer.ts';
import {
  listCertificates,
  paidPurchase,
  saleBuyer,
  voidCertificatesOfSale,
} from '#app/modules/certificates/service.ts';
import { testPaymentStamp } from '#app/modules/certificates/test-payment.ts';
import { requireCompany } from '#app/modules/company/service.ts';
import { enqueue, type JobHandler } from '#app/modules/jobs/service.ts';
import { priceSplitOf } from '#app/modules/payments/add-ons.ts';
import { ledgerEmailLines, saleLedger } from '#app/modules/payments/ledger.ts';
import {
  listSaleRefunds,
  moveSaleStatus,
  NothingToRefundError,
  requestSaleRefund,
  type SaleRefund,
} from '#app/modules/payments/sale-refunds.ts';
import { findSale, lockSaleOfPurchase, type PurchaseSnapshot, type SaleStatus } from '#app/modules/payments/service.ts';
import { planTaxBp } from '#app/modules/plans/service.ts';

/**
 * The withdrawal right (derecho a retracto, Ley 19.496 art. 3 bis): within 10 days of the purchase and before the
 * cover starts (the departure date, in Chile), the buyer cancels the purchase from «Mi compra» in one step; the sale
 * becomes «retracto en proceso» (certificates voided, the full amount's refund requested, a confirmation e-mail
 * queued), then «retractada» when the gateway gave the money back (the payment sweeper retries until it does).
 */
export const withdrawalWindowDays = 10;

/**
 * The window as the Civil Code counts days (arts. 48–50: calendar days, running until midnight of the last one): the
 * last day is the 10th calendar day after the purchase's date in Chile (paid 2026-11-20 at 23:50 → through
 * 2026-11-30), and the window closes at the midnight that ends it, Chile time (daylight saving included).
 */
export function withdrawalWindow(paidAt: Date) {
  const lastDay = addDays(todayInChile(paidAt), withdrawalWindowDays);
  return { lastDay, closesAt: chileDayStart(addDays(lastDay, 1)) };
}

/** The job that e-mails the buyer about a withdrawal; its payload is `{ saleId, stage }`. */
export const withdrawalEmailKind = 'withdrawal-email';

export const withdrawalRefusals = {
  window_expired: `El plazo de ${withdrawalWindowDays} días para retractarte de esta compra ya venció.`,
  trip_started: 'La cobertura de esta compra ya comenzó (el viaje empezó): ya no es posible retractarse.',
} as const;
export type WithdrawalRefusal = keyof typeof withdrawalRefusals;
const withdrawalUnrefundable = 'No pudimos calcular la devolución de esta compra. Contáctanos y lo revisamos contigo.';

export type WithdrawalState = {
  /** paid: not withdrawn; withdrawing: «retracto en proceso» (refund pending); withdrawn: cancelled and refunded. */
  status: 'paid' | 'withdrawing' | 'withdrawn';
  available: boolean;
  /** Why «Retractarme» is not offered (a paid sale only), in words for the buyer; null otherwise. */
  reason: string | null;
  reasonCode: WithdrawalRefusal | null;
  /**
   * When the window closes (exclusive), ISO: the midnight, Chile time, that ends `lastDay`; the trip's start may
   * close it earlier.
   */
  deadline: string;
  /** The last calendar day to withdraw (Chile): the 10th after the purchase's date. */
  lastDay: string;
  /** The departure date: cover starts that day, withdrawal closes the day before at midnight in Chile. */
  coverageStart: string;
  refund: {
    status: 'pending' | 'refunded';
    /** Once refunded: through the gateway, or `manual` (the company transferred it: «Reembolsado por transferencia»). */
    method: 'gateway' | 'manual' | null;
    amountClp: number;
    requestedAt: string;
    refundedAt: string | null;
  } | null;
};

/** What «Mi compra» says of the withdrawal of a sale, at `now`. */
export function withdrawalState(
  sale: { status: SaleStatus; paidAt: Date | null; createdAt: Date },
  departureDate: string,
  refund: SaleRefund | undefined,
  now = new Date(),
): WithdrawalState {
  const window = withdrawalWindow(sale.paidAt ?? sale.createdAt);
  const status = sale.status === 'withdrawing' || sale.status === 'withdrawn' ? sale.status : 'paid';
  const reasonCode: WithdrawalRefusal | null =
    status !== 'paid'
      ? null
      : todayInChile(now) >= departureDate
        ? 'trip_started'
        : now.getTime() >= window.closesAt.getTime()
          ? 'window_expired'
          : null;
  return {
    status,
    available: status === 'paid' && reasonCode === null,
    reason: reasonCode ? withdrawalRefusals[reasonCode] : null,
    reasonCode,
    deadline: window.closesAt.toISOString(),
    lastDay: window.lastDay,
    coverageStart: departureDate,
    refund: refund
      ? {
          status: refund.status,
          method: refund.status === 'refunded' ? (refund.method ?? 'gateway') : null,
          amountClp: refund.amountClp,
          requestedAt: refund.createdAt.toISOString(),
          refundedAt: refund.refundedAt?.toISOString() ?? null,
        }
      : null,
  };
}

/** The withdrawal's refund of a sale (drawn across its payments: parts `withdrawal:{sale}:part:{n}` after the first). */
const withdrawalKey = (saleId: number) => `withdrawal:${saleId}`;

/** The withdrawal's refunds of a sale as one: pending until every one went through, their amounts summed. */
function withdrawalRefundOf(refunds: SaleRefund[]): SaleRefund | undefined {
  const own = refunds.filter((refund) => refund.reason === 'withdrawal');
  const [first, ...rest] = own;
  if (!first) return undefined;
  const whole: SaleRefund = { ...first };
  for (const refund of rest) {
    whole.amountClp += refund.amountClp;
    whole.status = whole.status === 'refunded' && refund.status === 'refunded' ? 'refunded' : 'pending';
    // Any part given back by transfer makes the whole «por transferencia» for the buyer.
    whole.method = whole.method === 'manual' || refund.method === 'manual' ? 'manual' : whole.method;
    if (whole.refundedAt && refund.refundedAt && refund.refundedAt > whole.refundedAt) {
      whole.refundedAt = refund.refundedAt;
    }
  }
  return whole;
}

/** The withdrawal state of an opened purchase (GET /purchases/mine carries it). */
export async function withdrawalOf(db: Database, saleId: number, now = new Date()): Promise<WithdrawalState> {
  const { sale, bought } = await paidPurchase(db, saleId);
  const refund = withdrawalRefundOf(await listSaleRefunds(db, saleId));
  return withdrawalState(sale, bought.trip.departureDate, refund, now);
}

/**
 * POST /purchases/mine/withdrawal: withdraws from the opened purchase, in one transaction under the purchase lock
 * and the sale's row lock (so any number of clicks at once withdraw once): the sale becomes «withdrawing», its
 * certificates are voided, the refund of the whole amount paid is requested (idempotent by sale) and the
 * confirmation e-mail is queued. A sale already withdrawn answers its state again; outside the window, a 409.
 * Answers the state and whether this call withdrew (to run the refund at once).
 */
export async function withdraw(
  db: Database,
  saleId: number,
  now = new Date(),
  /** Runs in the withdrawal's transaction when this call withdraws (the console's audit row). */
  within?: (tx: Database) => Promise<void>,
) {
  const withdrew = await db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const sale = await lockSaleOfPurchase(tx, saleId);
    if (!sale) throw new Error(`Sale ${saleId} vanished`);
    if (sale.status !== 'paid') return false;
    const { bought } = await paidPurchase(tx, saleId);
    const state = withdrawalState(sale, bought.trip.departureDate, undefined, now);
    if (!state.available && state.reasonCode) {
      throw new ApiError(409, state.reason ?? 'No es posible retractarse de esta compra.', [
        { field: 'idVenta', code: `withdrawal_${state.reasonCode}`, message: state.reason ?? '' },
      ]);
    }
    await moveSaleStatus(tx, saleId, 'paid', 'withdrawing');
    await voidCertificatesOfSale(tx, saleId, 'withdrawal');
    // Everything paid and not given back yet: the purchase, less a cheaper date change's refund, plus what a
    // dearer date change charged (its own payment at the gateway, refunded there): one row per payment.
    await requestSaleRefund(tx, {
      saleId,
      reason: 'withdrawal',
      amountClp: 'rest',
      idempotencyKey: withdrawalKey(saleId),
    }).catch((error: unknown) => {
      // Nothing left to give back (records that do not add up): nothing is written, the buyer is told to call us.
      if (error instanceof NothingToRefundError) {
        throw new ApiError(409, withdrawalUnrefundable, [
          { field: 'idVenta', code: 'withdrawal_unrefundable', message: withdrawalUnrefundable },
        ]);
      }
      throw error;
    });
    await enqueue(tx, withdrawalEmailKind, { saleId, stage: 'requested' }, `withdrawal-email:requested:${saleId}`);
    await within?.(tx);
    return true;
  });
  return { withdrew, state: await withdrawalOf(db, saleId, now) };
}

/** The withdrawal's refund went through (in the refund's transaction): the sale is withdrawn, the buyer told. */
export async function completeWithdrawal(tx: Database, refund: SaleRefund) {
  // With several payments (a date change charged a difference), the sale is withdrawn when the last one is back.
  // The sale's lock serialises two of its refunds completing at once, so the later one sees the earlier one done.
  await lockSaleOfPurchase(tx, refund.saleId);
  const refunds = await listSaleRefunds(tx, refund.saleId);
  const waiting = refunds.some((r) => r.reason === 'withdrawal' && r.id !== refund.id && r.status !== 'refunded');
  if (waiting) return;
  if (await moveSaleStatus(tx, refund.saleId, 'withdrawing', 'withdrawn')) {
    await enqueue(
      tx,
      withdrawalEmailKind,
      { saleId: refund.saleId, stage: 'refunded' },
      `withdrawal-email:refunded:${refund.saleId}`,
    );
  }
}

/**
 * What a withdrawal gives back of a purchase with add-ons (issue 27 §1), in one sentence: the plan and the add-ons
 * add up to the total returned. None without add-ons, or when the refund is not the purchase's price as it stands.
 */
export function refundBreakdownText(bought: PurchaseSnapshot, refundClp: number): string[] {
  const split = priceSplitOf(bought);
  if (split.addOns.totalClp === 0 || split.total.totalClp !== refundClp) return [];
  return [
    `Devolución: plan ${formatClp(split.plan.totalClp)} + adicionales ${formatClp(split.addOns.totalClp)} = total devuelto ${formatClp(refundClp)}.`,
  ];
}

/** The first line of a test sale's withdrawal e-mails: neither its payment nor its refund moved real money. */
export const withdrawalTestNotice = `${testPaymentStamp}: esta compra se pagó con un pago de prueba; no se cobró ni se devuelve dinero real.`;

/**
 * The withdrawal e-mails, each addressed to one person: the buyer's («recibimos tu retracto»: every certificate voided,
 * the refund on its way; then «reembolsado») with the whole purchase; and, when it is requested, one to each other
 * traveller naming only her own certificate, now void (no amount, no other traveller, no «Mi compra» link).
 */
export function withdrawalEmailJob(
  db: Database,
  mailer: Mailer,
  purchaseLinkOf?: (saleId: number) => Promise<string>,
): JobHandler<{ saleId: number; stage: 'requested' | 'refunded' }> {
  return {
    payload: z.object({ saleId: z.number().int().positive(), stage: z.enum(['requested', 'refunded']) }),
    logFields: ({ saleId, stage }) => ({ saleId, stage }),
    errorFields: mailFailureFields,
    async run({ saleId, stage }) {
      const sale = await findSale(db, saleId);
      if (!sale) return { sent: false };
      const { bought } = await paidPurchase(db, saleId);
      const [company, certificates, link, refunds] = await Promise.all([
        requireCompany(db, sale.companyId),
        listCertificates(db, saleId, { includeVoided: true }),
        purchaseLinkOf?.(saleId),
        listSaleRefunds(db, saleId),
      ]);
      const buyer = await saleBuyer(db, saleId, certificates);
      const withdrawal = withdrawalRefundOf(refunds);
      const byTransfer = withdrawal?.method === 'manual';
      // What the withdrawal gives back (everything left after a cheaper date change's refund), not the trip's price.
      const amount = formatClp(withdrawal?.amountClp ?? bought.price.totalClp);
      const [ledger, taxBp] = await Promise.all([saleLedger(db, saleId), planTaxBp(db, sale.productId)]);
      const numbers = certificates.map((c) => c.number).join(', ');
      const breakdown = refundBreakdownText(bought, withdrawal?.amountClp ?? bought.price.totalClp);
      const lines =
        stage === 'requested'
          ? [
              `Compra anulada: recibimos tu retracto de la compra N° ${saleId} (${bought.plan.label}, ${bought.trip.destination}).`,
              `Los certificados ${numbers} quedaron anulados y ya no otorgan cobertura.`,
              `Estamos devolviendo lo pagado, ${amount}, al mismo medio de pago. Te avisaremos cuando el reembolso se complete.`,
              ...breakdown,
            ]
          : [
              byTransfer
                ? `Compra anulada: el reembolso de tu compra N° ${saleId} se completó. Te devolvimos ${amount} por transferencia bancaria.`
                : `Compra anulada: el reembolso de tu compra N° ${saleId} se completó. Devolvimos ${amount} al mismo medio de pago.`,
              ...breakdown,
              'Según tu banco, el abono puede tardar algunos días hábiles en verse en tu cartola.',
            ];
      // A test sale (the sandbox, Webpay's integration environment) says so first, as its certificate e-mail does.
      if (sale.testPayment) lines.unshift(withdrawalTestNotice);
      // Every payment and refund of the sale, and the net (payments/ledger.ts): what the buyer checks against the bank.
      const paid = ledgerEmailLines(ledger, null, taxBp);
      const buyerAddress = buyer?.email ?? '';
      // The HTML part: the same paragraphs in the store's layout, the amounts in a box, «Mi compra» as a button.
      const send = async (
        to: string,
        subject: string,
        paragraphs: string[],
        extra: { paid: string[]; link?: string | undefined } = { paid: [] },
      ) => {
        const statusLine = extra.link ? `Puedes ver el estado en «Mi compra»: ${extra.link}` : null;
        const blocks: EmailBlock[] = [
          { type: 'text', text: 'Hola,' },
          ...paragraphs.map(
            (text): EmailBlock => (text === withdrawalTestNotice ? { type: 'notice', text } : { type: 'text', text }),
          ),
          // The ledger's heading («Tus pagos y devoluciones:»), when it has one, titles the box.
          ...(extra.paid.length > 0
            ? [
                extra.paid[0]?.endsWith(':')
                  ? { type: 'box' as const, title: extra.paid[0], lines: extra.paid.slice(1) }
                  : { type: 'box' as const, lines: extra.paid },
              ]
            : []),
          ...(extra.link
            ? [
                { type: 'text' as const, text: 'Puedes ver el estado en «Mi compra».' },
                { type: 'button' as const, href: extra.link, label: 'Ver mi compra' },
              ]
            : []),
          { type: 'text', text: company.name },
        ];
        const all = [...paragraphs, ...extra.paid, ...(statusLine ? [statusLine] : [])];
        return mailer.send({
          to: [to],
          subject,
          text: `Hola,\n\n${all.join('\n\n')}\n\n${company.name}`,
          html: await emailHtml({
            brand: company.name,
            title: subject,
            preview: paragraphs.find((text) => text !== withdrawalTestNotice) ?? subject,
            blocks,
          }),
          attachments: [],
        });
      };
      let sent = 0;
      if (buyerAddress) {
        await send(
          buyerAddress,
          stage === 'requested'
            ? `Recibimos tu retracto – compra N° ${saleId} anulada · ${company.name}`
            : `Reembolso completado – compra N° ${saleId} anulada · ${company.name}`,
          lines,
          { paid, link },
        );
        sent += 1;
      }
      // The refund is the buyer's business: travellers hear only that their certificate is void.
      if (stage === 'requested') {
        for (const person of certificates) {
          const address = person.email.toLowerCase();
          if (address === buyerAddress) continue;
          await send(address, `Tu certificado ${person.number} fue anulado – ${company.name}`, [
            ...(sale.testPayment ? [withdrawalTestNotice] : []),
            `La compra N° ${saleId} de tu asistencia en viaje (${bought.plan.label}, ${bought.trip.destination}) fue anulada por quien la hizo, dentro del plazo de retracto.`,
            `Tu certificado ${person.number} quedó anulado y ya no otorga cobertura para este viaje.`,
            'Si tienes dudas, habla con quien hizo la compra o escríbenos.',
          ]);
          sent += 1;
        }
      }
      return { sent: sent > 0, recipients: sent, destination: mailer.destination };
    },
  };
}
