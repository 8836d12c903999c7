import { eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { isPaidUnderShareLock } from '#app/modules/payments/sale-state.ts';
import { invoiceDetails } from './tables.ts';

export type InvoiceDetailsRow = typeof invoiceDetails.$inferSelect;
export type InvoiceDetailsValues = Omit<typeof invoiceDetails.$inferInsert, 'quotationId' | 'updatedAt'>;

export async function findInvoiceDetails(db: Database, quotationId: string) {
  const [row] = await db.select().from(invoiceDetails).where(eq(invoiceDetails.quotationId, quotationId));
  return row;
}

/**
 * Creates or replaces the quotation's billing data. The sale is read under a share lock in the same transaction, so
 * it cannot become paid while the data changes; answers 'paid' (and writes nothing) when it already is.
 */
export function upsertInvoiceDetails(
  db: Database,
  quotationId: string,
  values: InvoiceDetailsValues,
): Promise<'saved' | 'paid'> {
  return db.transaction(async (tx) => {
    if (await isPaidUnderShareLock(tx as unknown as Database, quotationId)) return 'paid';
    const updatedAt = new Date();
    await tx
      .insert(invoiceDetails)
      .values({ ...values, quotationId, updatedAt })
      .onConflictDoUpdate({ target: invoiceDetails.quotationId, set: { ...values, updatedAt } });
    return 'saved';
  });
}
