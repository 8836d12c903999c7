import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import type { PurchaseLock } from '#app/modules/quotations/purchase-lock.ts';
import { type CheckoutValues, recordCheckout } from '#app/modules/quotations/service.ts';
import { travellers } from './tables.ts';

export type TravellerRow = typeof travellers.$inferSelect;
export type TravellerValues = Omit<typeof travellers.$inferInsert, 'id' | 'quotationId' | 'status'>;

export function listTravellers(db: Database, quotationId: string): Promise<TravellerRow[]> {
  return db.select().from(travellers).where(eq(travellers.quotationId, quotationId)).orderBy(asc(travellers.seq));
}

export function listTravellersByIds(db: Database, ids: number[]): Promise<TravellerRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(travellers).where(inArray(travellers.id, ids)).orderBy(asc(travellers.seq));
}

/**
 * Replaces the quotation's travellers and purchase-step columns inside the transaction that holds the purchase lock
 * (the caller checked the purchase may change and voided its open attempts: the certificates name these people). A
 * failure rolls the whole transaction back, leaving the previous ones in place.
 */
export async function replaceTravellers(
  lock: PurchaseLock,
  quotationId: string,
  checkout: CheckoutValues,
  rows: TravellerValues[],
): Promise<void> {
  const { tx } = lock;
  await tx.delete(travellers).where(eq(travellers.quotationId, quotationId));
  await tx.insert(travellers).values(rows.map((row) => ({ ...row, quotationId })));
  await recordCheckout(lock, quotationId, checkout);
}

/** What an operator may correct of a paid sale's traveller (a typo in a name or a document). */
export type TravellerCorrection = { firstName: string; lastName: string; documentType: number; documentNumber: string };

/**
 * Corrects one traveller of a paid purchase inside the caller's transaction (which holds the purchase lock and
 * reissues the certificates); answers the row as it was, or undefined when the quotation has no such traveller.
 */
export async function correctTraveller(
  tx: Database,
  quotationId: string,
  seq: number,
  correction: TravellerCorrection,
) {
  const [before] = await tx
    .select()
    .from(travellers)
    .where(and(eq(travellers.quotationId, quotationId), eq(travellers.seq, seq)))
    .for('update');
  if (!before) return undefined;
  await tx.update(travellers).set(correction).where(eq(travellers.id, before.id));
  return before;
}
