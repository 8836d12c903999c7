import { and, eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { passengerTypes } from '#app/modules/catalog/tables.ts';
import {
  changedAfterStartDetail,
  lockPurchase,
  nextVersion,
  type Refusal,
  refusalToChange,
  voidOpenAttempts,
} from '#app/modules/payments/purchase-lock.ts';
import { quotationPassengers, quotations } from './tables.ts';

export type QuotationValues = Omit<
  typeof quotations.$inferInsert,
  'id' | 'companyId' | 'createdAt' | 'updatedAt' | 'version'
>;
export type PassengerCount = { passengerTypeId: number; quantity: number };

export async function findQuotation(db: Database, companyId: number | undefined, quotationId: string) {
  const [row] = await db
    .select()
    .from(quotations)
    .where(
      companyId === undefined
        ? eq(quotations.id, quotationId)
        : and(eq(quotations.id, quotationId), eq(quotations.companyId, companyId)),
    );
  return row;
}

export function listQuotationPassengers(db: Database, quotationId: string) {
  return db
    .select({
      passengerTypeId: quotationPassengers.passengerTypeId,
      quantity: quotationPassengers.quantity,
      ageFrom: passengerTypes.ageFrom,
      ageTo: passengerTypes.ageTo,
    })
    .from(quotationPassengers)
    .innerJoin(passengerTypes, eq(passengerTypes.id, quotationPassengers.passengerTypeId))
    .where(eq(quotationPassengers.quotationId, quotationId))
    .orderBy(passengerTypes.ageFrom);
}

/** Creates the quotation and its passenger counts in one transaction. */
export async function insertQuotation(
  db: Database,
  row: QuotationValues & { id: string; companyId: number },
  passengers: PassengerCount[],
) {
  await db.transaction(async (tx) => {
    await tx.insert(quotations).values(row);
    await tx.insert(quotationPassengers).values(passengers.map((p) => ({ ...p, quotationId: row.id })));
  });
}

/**
 * Replaces the quotation's fields and passenger counts in one transaction, under the purchase lock: refused (nothing
 * written) once paid or while a payment is being confirmed, and the attempts still open are voided with the change.
 */
export async function updateQuotation(
  db: Database,
  id: string,
  values: QuotationValues,
  passengers: PassengerCount[],
): Promise<{ refused: Refusal } | undefined> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const state = await lockPurchase(tx, id);
    if (!state) return { refused: 'paid' as const };
    const refusal = refusalToChange(state);
    if (refusal) return { refused: refusal };
    await voidOpenAttempts(tx, state, changedAfterStartDetail);
    await tx
      .update(quotations)
      .set({ ...values, updatedAt: new Date(), version: nextVersion })
      .where(eq(quotations.id, id));
    await tx.delete(quotationPassengers).where(eq(quotationPassengers.quotationId, id));
    await tx.insert(quotationPassengers).values(passengers.map((p) => ({ ...p, quotationId: id })));
    return undefined;
  });
}
