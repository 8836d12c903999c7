import { and, type Column, eq, getTableName, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { lockQuotation } from '#app/modules/quotations/service.ts';
import { paidSaleStatuses, payments, type SaleStatus, sales, wasPaid } from './tables.ts';

/**
 * The one lock of a purchase: the quotation's row. Every write that changes what would be bought (the trip, the
 * plan, the travellers), every payment start, every claim of an attempt and the transaction that makes a sale paid
 * take it first, inside their transaction, so they run one after another on PostgreSQL's parallel connections.
 * The quotations module takes the row lock (lockQuotation, in the caller's transaction); the sale, the one owner of
 * «paid» (docs/decisions/010-one-owner-of-paid.md), is read here under it. With it held, three facts are checked and
 * kept together:
 * - a paid quotation never changes again;
 * - while an attempt is being confirmed with the gateway (`confirming`), nothing it priced can change;
 * - a change voids the attempts still open (`pending`) in the same transaction, so they can never be committed.
 */
export type PurchaseState = {
  quotation: { version: number };
  sale: { id: number; status: SaleStatus } | undefined;
  /** An attempt of the sale is being confirmed with the gateway right now. */
  confirming: boolean;
};

/** Takes the purchase lock (until the transaction ends) and reads its state; undefined for an unknown quotation. */
export async function lockPurchase(tx: Database, quotationId: string): Promise<PurchaseState | undefined> {
  const quotation = await lockQuotation(tx, quotationId);
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
  return { quotation: { version: quotation.version }, sale, confirming: confirming !== undefined };
}

export type Refusal = 'paid' | 'confirming';

/** Why a write to the purchase must be refused, if it must: already paid, or a payment is being confirmed. */
export function refusalToChange(state: PurchaseState): Refusal | null {
  if (wasPaid(state.sale?.status)) return 'paid';
  return state.confirming ? 'confirming' : null;
}

/** What the visitor reads when a change arrives while a payment of the purchase is being confirmed. */
export const confirmingMessage = 'Estamos confirmando un pago de esta compra; espera su resultado antes de modificarla';

/** Voids the sale's open attempts: a return for them is never committed (Webpay reverses what it is not asked to). */
export async function voidOpenAttempts(tx: Database, state: PurchaseState, detail: string) {
  if (!state.sale) return;
  await tx
    .update(payments)
    .set({ status: 'error', detail, confirmedAt: new Date() })
    .where(and(eq(payments.saleId, state.sale.id), eq(payments.status, 'pending')));
}

export const changedAfterStartDetail = 'La compra cambió después de iniciar este pago';

/**
 * The sale of a quotation as columns of the owner's own query (the quotations module selects them beside the
 * quotation's columns, in the same statement): its id (null before the first payment attempt) and whether it is
 * paid. The one answer to «is this quotation paid?».
 */
export function saleColumnsOf(quotationId: Column) {
  // Spelled with their tables: drizzle leaves a one-table select's columns bare, and a bare "id" would be the sale's.
  const outer = qualified(quotationId);
  const ofQuotation = sql`${qualified(sales.quotationId)} = ${outer}`;
  return {
    saleId: sql<number | null>`(select ${qualified(sales.id)} from ${sales} where ${ofQuotation})`,
    paid: sql<boolean>`exists (select 1 from ${sales} where ${ofQuotation} and ${qualified(sales.status)} in (${sql.raw(paidSaleStatuses.map((s) => `'${s}'`).join(', '))}))`,
  };
}

const qualified = (column: Column) => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * Whether the quotation's sale is paid, read under a share lock inside the caller's transaction: the sale cannot
 * become paid until that transaction ends (the billing data is written under it).
 */
export async function isPaidUnderShareLock(tx: Database, quotationId: string): Promise<boolean> {
  const [sale] = await tx
    .select({ status: sales.status })
    .from(sales)
    .where(eq(sales.quotationId, quotationId))
    .for('share');
  return wasPaid(sale?.status);
}
