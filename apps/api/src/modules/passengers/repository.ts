import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import {
  changedAfterStartDetail,
  lockPurchase,
  type Refusal,
  refusalToChange,
  voidOpenAttempts,
} from '#app/modules/payments/purchase-lock.ts';
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
 * Replaces the quotation's travellers and purchase-step columns in one transaction, under the purchase lock: a
 * failure leaves the previous ones in place, and the attempts still open are voided with the change (the
 * certificates name these people). Answers the refusal (and writes nothing) once paid or while a payment is being
 * confirmed.
 */
export async function replaceTravellers(
  db: Database,
  quotationId: string,
  checkout: CheckoutValues,
  rows: TravellerValues[],
): Promise<'saved' | { refused: Refusal }> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const state = await lockPurchase(tx, quotationId);
    if (!state) return { refused: 'paid' as const };
    const refusal = refusalToChange(state);
    if (refusal) return { refused: refusal };
    await voidOpenAttempts(tx, state, changedAfterStartDetail);
    await tx.delete(travellers).where(eq(travellers.quotationId, quotationId));
    await tx.insert(travellers).values(rows.map((row) => ({ ...row, quotationId })));
    await recordCheckout(tx, quotationId, checkout);
    return 'saved';
  });
}
