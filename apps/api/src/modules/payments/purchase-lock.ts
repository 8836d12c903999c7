import { and, eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { lockQuotation, type PurchaseLock } from '#app/modules/quotations/purchase-lock.ts';
import { payments, sales, wasPaid } from './tables.ts';

/**
 * The purchase lock (its rules: modules/quotations/purchase-lock.ts): the quotation's row lock, then the sale's state
 * read under it. Handed out as a `PurchaseLock` to the modules that change a purchase (quotations, passengers, through
 * the purchase workflow) and used by this module's own writers (a payment start, a claim, making a sale paid).
 */
export async function lockPurchase(tx: Database, quotationId: string): Promise<PurchaseLock | undefined> {
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
  return {
    tx,
    quotation: { version: quotation.version },
    sale,
    paid: wasPaid(sale?.status),
    confirming: confirming !== undefined,
    voidOpenAttempts: (detail) => voidOpenAttempts(tx, sale, detail),
  };
}

/** Voids the sale's open attempts: a return for them is never committed (Webpay reverses what it is not asked to). */
export async function voidOpenAttempts(tx: Database, sale: { id: number } | undefined, detail: string) {
  if (!sale) return;
  await tx
    .update(payments)
    .set({ status: 'error', detail, confirmedAt: new Date() })
    .where(and(eq(payments.saleId, sale.id), eq(payments.status, 'pending')));
}
