import { asc, eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { quotations, sales, travellers } from '#app/db/schema.ts';

export type TravellerRow = typeof travellers.$inferSelect;
export type TravellerValues = Omit<typeof travellers.$inferInsert, 'id' | 'quotationId' | 'status'>;

/** The purchase-step columns of a quotation: one emergency contact for everybody (or none), and the country. */
export type CheckoutValues = {
  shareEmergencyContact: boolean;
  emergencyFirstName: string | null;
  emergencyLastName: string | null;
  emergencyPhone: string | null;
  countryDestinationId: number;
};

/** The quotation's company, purchase-step columns and sale (if payment has started), or undefined when unknown. */
export async function findCheckout(db: Database, quotationId: string) {
  const [row] = await db
    .select({
      companyId: quotations.companyId,
      shareEmergencyContact: quotations.shareEmergencyContact,
      emergencyFirstName: quotations.emergencyFirstName,
      emergencyLastName: quotations.emergencyLastName,
      emergencyPhone: quotations.emergencyPhone,
      countryDestinationId: quotations.countryDestinationId,
      saleId: sales.id,
      saleStatus: sales.status,
    })
    .from(quotations)
    .leftJoin(sales, eq(sales.quotationId, quotations.id))
    .where(eq(quotations.id, quotationId));
  return row;
}

export function listTravellers(db: Database, quotationId: string): Promise<TravellerRow[]> {
  return db.select().from(travellers).where(eq(travellers.quotationId, quotationId)).orderBy(asc(travellers.seq));
}

/**
 * Replaces the quotation's travellers and purchase-step columns in one transaction: a failure leaves the previous
 * ones in place. The sale is read under a share lock so it cannot become paid while the travellers change, and the
 * quotation row is locked so two writes never interleave. Answers 'paid' (and writes nothing) when it already is.
 */
export async function replaceTravellers(
  db: Database,
  quotationId: string,
  checkout: CheckoutValues,
  rows: TravellerValues[],
): Promise<'saved' | 'paid'> {
  return db.transaction(async (tx) => {
    // Sale first, then quotation: the order in which the payment step locks them, so the two never deadlock.
    const [sale] = await tx
      .select({ status: sales.status })
      .from(sales)
      .where(eq(sales.quotationId, quotationId))
      .for('share');
    if (sale?.status === 'paid') return 'paid';
    await tx.select({ id: quotations.id }).from(quotations).where(eq(quotations.id, quotationId)).for('no key update');
    await tx.delete(travellers).where(eq(travellers.quotationId, quotationId));
    await tx.insert(travellers).values(rows.map((row) => ({ ...row, quotationId })));
    await tx
      .update(quotations)
      .set({ ...checkout, updatedAt: new Date() })
      .where(eq(quotations.id, quotationId));
    return 'saved';
  });
}
