import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { saleColumnsOf } from '#app/modules/payments/sale-state.ts';
import type { PurchaseLock } from './purchase-lock.ts';
import { quotationPassengers, quotations } from './tables.ts';

export type QuotationValues = Omit<
  typeof quotations.$inferInsert,
  'id' | 'companyId' | 'createdAt' | 'updatedAt' | 'version'
>;
export type PassengerCount = { passengerTypeId: number; quantity: number };

/**
 * The quotation's row with its sale's id and paid state, read in the same statement from the payments module's
 * columns (saleColumnsOf): the one answer to «is this quotation paid?».
 */
export async function findQuotation(db: Database, companyId: number | undefined, quotationId: string) {
  const [row] = await db
    .select({ ...getTableColumns(quotations), ...saleColumnsOf(quotations.id) })
    .from(quotations)
    .where(
      companyId === undefined
        ? eq(quotations.id, quotationId)
        : and(eq(quotations.id, quotationId), eq(quotations.companyId, companyId)),
    );
  return row;
}

/**
 * What a kept comparator page is checked against (service.ts quotationPageStamp), on every request for it: only the
 * columns its writes move and the sale's paid state, one statement prepared once per database handle.
 */
export function findPageStamp(db: Database, quotationId: string) {
  let prepared = pageStampQueries.get(db);
  if (!prepared) {
    prepared = pageStampQuery(db);
    pageStampQueries.set(db, prepared);
  }
  return prepared.execute({ quotationId }).then(([row]) => row);
}

const pageStampQuery = (db: Database) =>
  db
    .select({
      companyId: quotations.companyId,
      version: quotations.version,
      status: quotations.status,
      updatedAt: quotations.updatedAt,
      discountCode: quotations.discountCode,
      paid: saleColumnsOf(quotations.id).paid,
    })
    .from(quotations)
    .where(eq(quotations.id, sql.placeholder('quotationId')))
    .prepare('quotation_page_stamp');
const pageStampQueries = new WeakMap<Database, ReturnType<typeof pageStampQuery>>();

/**
 * findQuotation with the quotation's passenger counts, in the same statement (a plan call prices a stored quotation
 * on every request: one round trip instead of two).
 */
export async function findQuotationWithPassengers(db: Database, companyId: number | undefined, quotationId: string) {
  const [row] = await db
    .select({
      ...getTableColumns(quotations),
      ...saleColumnsOf(quotations.id),
      passengers: sql<
        PassengerCount[]
      >`(select coalesce(json_agg(json_build_object('passengerTypeId', ${quotationPassengers.passengerTypeId}, 'quantity', ${quotationPassengers.quantity})), '[]'::json) from ${quotationPassengers} where ${quotationPassengers.quotationId} = ${quotations.id})`,
    })
    .from(quotations)
    .where(
      companyId === undefined
        ? eq(quotations.id, quotationId)
        : and(eq(quotations.id, quotationId), eq(quotations.companyId, companyId)),
    );
  return row;
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

/** The change to the purchase's version that every write of the trip, plan or travellers makes with its change. */
const nextVersion = sql`${quotations.version} + 1`;

/**
 * Replaces the quotation's fields and passenger counts inside the transaction that holds the purchase lock (the
 * caller checked it may change and voided the open attempts: quotations/purchase-lock.ts changeUnderPurchaseLock).
 */
export async function updateQuotation(
  lock: PurchaseLock,
  id: string,
  values: QuotationValues,
  passengers: PassengerCount[],
): Promise<void> {
  const { tx } = lock;
  await tx
    .update(quotations)
    .set({ ...values, updatedAt: new Date(), version: nextVersion })
    .where(eq(quotations.id, id));
  await tx.delete(quotationPassengers).where(eq(quotationPassengers.quotationId, id));
  await tx.insert(quotationPassengers).values(passengers.map((p) => ({ ...p, quotationId: id })));
}

/** The purchase-step columns of a quotation: one emergency contact for everybody (or none), and the country. */
export type CheckoutValues = {
  shareEmergencyContact: boolean;
  emergencyFirstName: string | null;
  emergencyLastName: string | null;
  emergencyPhone: string | null;
  countryDestinationId: number;
};

/**
 * Writes the purchase-step columns with a new version, inside the transaction that holds the purchase lock: the
 * travellers changed, so an attempt priced before must not open.
 */
export async function recordCheckout(lock: PurchaseLock, quotationId: string, checkout: CheckoutValues) {
  await lock.tx
    .update(quotations)
    .set({ ...checkout, updatedAt: new Date(), version: nextVersion })
    .where(eq(quotations.id, quotationId));
}

/**
 * A payment attempt opened (inside its transaction). Only the status: `updatedAt` tells when the visitor last
 * changed the trip, which payments compare against.
 */
export async function markPaymentStarted(tx: Database, quotationId: string) {
  await tx
    .update(quotations)
    .set({ status: 'payment-started' })
    .where(and(eq(quotations.id, quotationId), inArray(quotations.status, ['quoted', 'plan-selected'])));
}

/**
 * A paid purchase's trip dates (and destination country) changed from «Mi compra» (inside the date change's
 * transaction, under the purchase lock): the quotation says them too, and its version moves like any change of what
 * was bought. Without a country the quotation keeps its own.
 */
export async function recordDateChange(
  tx: Database,
  quotationId: string,
  change: { departureDate: string; returnDate: string; countryDestinationId?: number },
) {
  const { countryDestinationId, ...dates } = change;
  await tx
    .update(quotations)
    .set({
      ...dates,
      ...(countryDestinationId === undefined ? {} : { countryDestinationId }),
      updatedAt: sql`now()`,
      version: sql`${quotations.version} + 1`,
    })
    .where(eq(quotations.id, quotationId));
}
