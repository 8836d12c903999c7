import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import {
  changedAfterStartDetail,
  lockPurchase,
  nextVersion,
  type Refusal,
  refusalToChange,
  voidOpenAttempts,
} from '#app/modules/payments/purchase-lock.ts';
import { sales } from '#app/modules/payments/tables.ts';
import { quotations } from '#app/modules/quotations/tables.ts';
import { travellers } from './tables.ts';

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
    await tx
      .update(quotations)
      .set({ ...checkout, updatedAt: new Date(), version: nextVersion })
      .where(eq(quotations.id, quotationId));
    return 'saved';
  });
}

/**
 * Travellers by identity, for the certificate search: the document compared without dots, dashes, whitespace or
 * case (a RUT in any of its forms), or the e-mail compared without case. `cleanDocument` must be cleaned alike.
 */
export function findTravellersByIdentity(db: Database, identity: { cleanDocument?: string; email?: string }) {
  const condition =
    identity.email !== undefined
      ? sql`lower(${travellers.email}) = ${identity.email.toLowerCase()}`
      : sql`upper(regexp_replace(${travellers.documentNumber}, '[-.[:space:]]', '', 'g')) = ${identity.cleanDocument ?? ''}`;
  return db
    .select({
      id: travellers.id,
      quotationId: travellers.quotationId,
      seq: travellers.seq,
      firstName: travellers.firstName,
      lastName: travellers.lastName,
      email: travellers.email,
    })
    .from(travellers)
    .where(condition)
    .limit(200);
}
