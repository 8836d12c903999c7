import { chileDateOf } from '@travesia/domain/dates';
import { formatClp, formatUsd } from '@travesia/domain/money';
import type { Database } from '#app/db/client.ts';
import { sandboxGatewayId } from '#app/integrations/payments/sandbox.ts';
import * as repository from './repository.ts';
import { paymentTerms } from './service.ts';

/**
 * A sale's ledger: every payment that took money and every refund that gives it back, with date, gateway, amount and
 * state, and the net. Derived from the payments and sale_refunds tables (no copy of them), so it can never disagree
 * with what the gateways were asked: «Mi compra», the receipt PDF and the buyer's e-mails all print it from here
 * (docs/ledger.md).
 */

export type LedgerPaymentStatus = 'authorized' | 'not_honoured';
export type LedgerRefundStatus = 'pending' | 'retrying' | 'held' | 'refunded';

export type LedgerPayment = {
  kind: 'payment';
  id: number;
  /** The sale's purchase, a dearer date change's difference. */
  purpose: 'purchase' | 'date_change';
  /** «Pago de la compra», «Pago de la diferencia (cambio de fechas)». */
  label: string;
  /** When the gateway authorized it (ISO). */
  date: string;
  gateway: string;
  gatewayName: string;
  amountClp: number;
  /**
   * authorized: kept; not_honoured: the gateway authorized it but the store could not honour it (the sale was paid by
   * another attempt, or repriced meanwhile): it is given back in full (its refund is the entry after it).
   */
  status: LedgerPaymentStatus;
  statusLabel: string;
  paymentType: string | null;
  /** Of this payment only: «3 cuotas sin interés de $61.275» adds up to this payment's amount. */
  instalments: number | null;
  instalmentAmountClp: number | null;
  instalmentsText: string | null;
  cardLastDigits: string | null;
  authorizationCode: string | null;
};

export type LedgerRefund = {
  kind: 'refund';
  id: number;
  reason: 'withdrawal' | 'date_change' | 'not_honoured';
  /** «Devolución por retracto», «Devolución por cambio de fechas», «Devolución de un pago no aplicado». */
  label: string;
  /** When it was requested (ISO); `refundedAt` when it went back. */
  date: string;
  refundedAt: string | null;
  /** The payment it gives back (a refund drawn from several payments is one entry per payment). */
  paymentId: number;
  gateway: string;
  gatewayName: string;
  amountClp: number;
  /**
   * pending: asked of the gateway; retrying: the gateway refused or did not answer so far (Webpay does not give back
   * part of a debit payment) and it is asked again; held: an operator holds it to give it back by bank transfer;
   * refunded: given back (`method` says how).
   */
  status: LedgerRefundStatus;
  method: 'gateway' | 'manual' | null;
  statusLabel: string;
};

export type LedgerEntry = LedgerPayment | LedgerRefund;

export type SaleLedger = {
  /** Oldest first; a payment's refunds come after it. */
  entries: LedgerEntry[];
  /** Every payment that took money. */
  paidClp: number;
  /** Refunds given back (status refunded). */
  refundedClp: number;
  /** Refunds asked and not yet given back (pending, retrying or held). */
  pendingRefundClp: number;
  /** What the buyer has paid and not been given back: what the gateways hold of this sale (paid − refunded). */
  netClp: number;
  /** The net once the pending refunds are given back. */
  netAfterPendingClp: number;
};

/** The gateway's name as the buyer knows it (read when called: sandbox.ts is imported in a cycle through here). */
export const gatewayName = (gateway: string) =>
  gateway === 'webpay' ? 'Webpay Plus' : gateway === sandboxGatewayId ? 'Pasarela de prueba' : gateway;

const paymentLabels = {
  purchase: 'Pago de la compra',
  date_change: 'Pago de la diferencia (cambio de fechas)',
} as const;
const refundLabels = {
  withdrawal: 'Devolución por retracto',
  date_change: 'Devolución por cambio de fechas',
  not_honoured: 'Devolución de un pago no aplicado',
} as const;
const paymentStatusLabels: Record<LedgerPaymentStatus, string> = {
  authorized: 'autorizado',
  not_honoured: 'no aplicado',
};
const refundStatusLabels = {
  pending: 'en proceso',
  retrying: 'en proceso (la pasarela aún no la acepta)',
  held: 'retenida: la devolveremos por transferencia',
  refunded: 'devuelto',
  manual: 'devuelto por transferencia',
} as const;

const refundStatusOf = (refund: repository.SaleRefundRow): LedgerRefundStatus =>
  refund.status === 'refunded' ? 'refunded' : refund.heldAt ? 'held' : refund.lastError ? 'retrying' : 'pending';

/** The ledger of a sale (any status; an unpaid one has no entries). */
export async function saleLedger(db: Database, saleId: number): Promise<SaleLedger> {
  const [payments, refunds] = await Promise.all([
    repository.listMoneyPaymentsOfSale(db, saleId),
    repository.findSaleRefunds(db, saleId),
  ]);
  const entries: (LedgerEntry & { order: number })[] = [];
  const gatewayOf = new Map(payments.map((payment) => [payment.id, payment.gateway]));
  for (const payment of payments) {
    const terms = paymentTerms(payment);
    const status: LedgerPaymentStatus = payment.status === 'authorized' ? 'authorized' : 'not_honoured';
    const at = payment.confirmedAt ?? payment.createdAt;
    entries.push({
      order: at.getTime(),
      kind: 'payment',
      id: payment.id,
      purpose: payment.purpose,
      label: paymentLabels[payment.purpose],
      date: at.toISOString(),
      gateway: payment.gateway,
      gatewayName: gatewayName(payment.gateway),
      amountClp: payment.amountClp,
      status,
      statusLabel: paymentStatusLabels[status],
      paymentType: terms.paymentType,
      instalments: terms.instalments,
      instalmentAmountClp: terms.instalmentAmountClp,
      instalmentsText: terms.instalmentsText,
      cardLastDigits: payment.cardLastDigits,
      authorizationCode: payment.authorizationCode,
    });
    // An authorization we could not honour is given back in full, outside the sale refunds (payments.refund_status).
    if (payment.refundStatus !== null) {
      const refunded = payment.refundStatus === 'refunded';
      entries.push({
        order: at.getTime() + 1,
        kind: 'refund',
        id: payment.id,
        reason: 'not_honoured',
        label: refundLabels.not_honoured,
        date: at.toISOString(),
        refundedAt: payment.refundedAt?.toISOString() ?? null,
        paymentId: payment.id,
        gateway: payment.gateway,
        gatewayName: gatewayName(payment.gateway),
        amountClp: payment.refundAmountClp ?? payment.amountClp,
        status: refunded ? 'refunded' : 'pending',
        method: refunded ? 'gateway' : null,
        statusLabel: refunded ? refundStatusLabels.refunded : refundStatusLabels.pending,
      });
    }
  }
  for (const refund of refunds) {
    const status = refundStatusOf(refund);
    const method = status === 'refunded' ? (refund.method ?? 'gateway') : null;
    const gateway = gatewayOf.get(refund.paymentId) ?? '';
    entries.push({
      order: refund.createdAt.getTime(),
      kind: 'refund',
      id: refund.id,
      reason: refund.reason,
      label: refundLabels[refund.reason],
      date: refund.createdAt.toISOString(),
      refundedAt: refund.refundedAt?.toISOString() ?? null,
      paymentId: refund.paymentId,
      gateway,
      gatewayName: gatewayName(gateway),
      amountClp: refund.amountClp,
      status,
      method,
      statusLabel: method === 'manual' ? refundStatusLabels.manual : refundStatusLabels[status],
    });
  }
  entries.sort((a, b) => a.order - b.order || (a.kind === b.kind ? a.id - b.id : a.kind === 'payment' ? -1 : 1));
  const paidClp = sum(entries.filter((entry) => entry.kind === 'payment'));
  const refundedClp = sum(entries.filter((entry) => entry.kind === 'refund' && entry.status === 'refunded'));
  const pendingRefundClp = sum(entries.filter((entry) => entry.kind === 'refund' && entry.status !== 'refunded'));
  return {
    entries: entries.map(({ order: _order, ...entry }) => entry),
    paidClp,
    refundedClp,
    pendingRefundClp,
    netClp: paidClp - refundedClp,
    netAfterPendingClp: paidClp - refundedClp - pendingRefundClp,
  };
}

const sum = (entries: { amountClp: number }[]) => entries.reduce((total, entry) => total + entry.amountClp, 0);

/** «dd-mm-aaaa» of an instant, in Chile's time (what every document prints). */
export function chileDate(iso: string): string {
  return chileDateOf(iso).split('-').reverse().join('-');
}

/** Whether the documents may say «Total pagado»: nothing was ever given back or asked back, so the total is the net. */
export const totalIsNet = (ledger: SaleLedger) => ledger.entries.every((entry) => entry.kind === 'payment');

/** One entry as a line of text (e-mails, the receipt): date, what, gateway, how, state and the signed amount. */
export function ledgerEntryText(entry: LedgerEntry): string {
  if (entry.kind === 'payment') {
    const how = [entry.paymentType, entry.instalmentsText].filter(Boolean).join(', ');
    return `${chileDate(entry.date)} · ${entry.label} · ${entry.gatewayName}${how ? ` (${how})` : ''} · ${entry.statusLabel}: ${formatClp(entry.amountClp)}`;
  }
  const when = entry.refundedAt ? ` el ${chileDate(entry.refundedAt)}` : '';
  return `${chileDate(entry.date)} · ${entry.label} · ${entry.gatewayName} · ${entry.statusLabel}${entry.status === 'refunded' ? when : ''}: -${formatClp(entry.amountClp)}`;
}

/**
 * The ledger's totals as lines of text: «Total pagado» when nothing was given back (it is then the net), otherwise
 * what was paid, given back, still being given back, and «Neto pagado».
 */
export function ledgerTotalsText(ledger: SaleLedger): string[] {
  if (totalIsNet(ledger)) return [`Total pagado: ${formatClp(ledger.netClp)}`];
  const lines = [`Pagado: ${formatClp(ledger.paidClp)}`, `Devuelto: -${formatClp(ledger.refundedClp)}`];
  if (ledger.pendingRefundClp > 0) lines.push(`Devolución en proceso: -${formatClp(ledger.pendingRefundClp)}`);
  lines.push(`Neto pagado: ${formatClp(ledger.netClp)}`);
  if (ledger.pendingRefundClp > 0) {
    lines.push(`Neto pagado cuando se complete la devolución: ${formatClp(ledger.netAfterPendingClp)}`);
  }
  return lines;
}

/**
 * The plan's tax treatment in the words its price used on the store: «IVA 19 % incluido», or «no afecto a IVA» for a
 * plan that carries none (a total never says «impuestos incluidos» of a plan that has none).
 */
export function taxWording(taxBp: number | null): string {
  return taxBp !== null && taxBp > 0 ? `IVA ${taxBp / 100} % incluido` : 'no afecto a IVA';
}

/**
 * The ledger as the buyer's e-mails write it, one paragraph a line: with one payment and nothing given back, its total
 * and how it was paid (instalments of that payment); otherwise every payment and refund, then the totals and the net.
 */
export function ledgerEmailLines(ledger: SaleLedger, amountUsd: number | null, taxBp: number | null): string[] {
  const [single] = ledger.entries;
  if (ledger.entries.length === 1 && single?.kind === 'payment') {
    const usd = amountUsd === null ? '' : ` (${formatUsd(amountUsd)})`;
    const lines = [`Total pagado: ${formatClp(single.amountClp)}${usd}, ${taxWording(taxBp)}.`];
    if (single.paymentType) lines.push(`Forma de pago: ${single.paymentType}.`);
    if (single.instalmentsText) lines.push(`${single.instalmentsText}.`);
    return lines;
  }
  return [
    'Tus pagos y devoluciones:',
    ...ledger.entries.map((entry) => `– ${ledgerEntryText(entry)}`),
    ...ledgerTotalsText(ledger).map((line) => `${line}.`),
  ];
}
