import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { quotations } from '#app/modules/quotations/tables.ts';
import { payments, sales } from './tables.ts';

/**
 * The one lock of a purchase: the quotation's row. Every write that changes what would be bought (the trip, the
 * plan, the travellers), every payment start, every claim of an attempt and the transaction that makes a sale paid
 * take it first, inside their transaction, so they run one after another on PostgreSQL's parallel connections.
 * With it held, three facts are checked and kept together:
 * - a paid quotation never changes again;
 * - while an attempt is being confirmed with the gateway (`confirming`), nothing it priced can change;
 * - a change voids the attempts still open (`pending`) in the same transaction, so they can never be committed.
 */
export type PurchaseState = {
  quotation: { status: string; version: number };
  sale: { id: number; status: 'pending' | 'paid' } | undefined;
  /** An attempt of the sale is being confirmed with the gateway right now. */
  confirming: boolean;
};

/** Takes the purchase lock (until the transaction ends) and reads its state; undefined for an unknown quotation. */
export async function lockPurchase(tx: Database, quotationId: string): Promise<PurchaseState | undefined> {
  const [quotation] = await tx
    .select({ status: quotations.status, version: quotations.version })
    .from(quotations)
    .where(eq(quotations.id, quotationId))
    .for('no key update');
  if (!quotation) return undefined;
  const [sale] = await tx
    .select({ id: sales.id, status: sales.status })
    .from(sales)
    .where(eq(sales.quotationId, quotationId));
  const [confirming] = sale
    ? await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.saleId, sale.id), eq(payments.status, 'confirming')))
        .limit(1)
    : [];
  return { quotation, sale, confirming: confirming !== undefined };
}

export type Refusal = 'paid' | 'confirming';

/** Why a write to the purchase must be refused, if it must: already paid, or a payment is being confirmed. */
export function refusalToChange(state: PurchaseState): Refusal | null {
  if (state.sale?.status === 'paid' || state.quotation.status === 'paid') return 'paid';
  return state.confirming ? 'confirming' : null;
}

/** What the visitor reads when a change arrives while a payment of the purchase is being confirmed. */
export const confirmingMessage = 'Estamos confirmando un pago de esta compra; espera su resultado antes de modificarla';

/** The change to the purchase's version that every write of the trip, plan or travellers makes with its change. */
export const nextVersion = sql`${quotations.version} + 1`;

/** Voids the sale's open attempts: a return for them is never committed (Webpay reverses what it is not asked to). */
export async function voidOpenAttempts(tx: Database, state: PurchaseState, detail: string) {
  if (!state.sale) return;
  await tx
    .update(payments)
    .set({ status: 'error', detail, confirmedAt: new Date() })
    .where(and(eq(payments.saleId, state.sale.id), eq(payments.status, 'pending')));
}

export const changedAfterStartDetail = 'La compra cambió después de iniciar este pago';
