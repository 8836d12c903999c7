import { eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { sales } from '#app/modules/payments/tables.ts';
import { quotations } from '#app/modules/quotations/tables.ts';
import { invoiceDetails } from './tables.ts';

export type InvoiceDetailsRow = typeof invoiceDetails.$inferSelect;
export type InvoiceDetailsValues = Omit<typeof invoiceDetails.$inferInsert, 'quotationId' | 'updatedAt'>;

/** The quotation and the status of its sale (null before payment starts), or undefined when there is no quotation. */
export async function findQuotationSale(db: Database, quotationId: string) {
  const [row] = await db
    .select({ quotationId: quotations.id, saleStatus: sales.status })
    .from(quotations)
    .leftJoin(sales, eq(sales.quotationId, quotations.id))
    .where(eq(quotations.id, quotationId));
  return row;
}

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
    const [sale] = await tx
      .select({ status: sales.status })
      .from(sales)
      .where(eq(sales.quotationId, quotationId))
      .for('share');
    if (sale?.status === 'paid') return 'paid';
    const updatedAt = new Date();
    await tx
      .insert(invoiceDetails)
      .values({ ...values, quotationId, updatedAt })
      .onConflictDoUpdate({ target: invoiceDetails.quotationId, set: { ...values, updatedAt } });
    return 'saved';
  });
}
