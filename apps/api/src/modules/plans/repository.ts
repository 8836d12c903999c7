import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { addOns, passengerTypeProducts, productBenefits, productModalities, productRates, products } from './tables.ts';

export type ProductRow = typeof products.$inferSelect;

export function listProductsForModality(db: Database, companyId: number, modalityId: number) {
  return db
    .select({ product: products })
    .from(products)
    .innerJoin(productModalities, eq(productModalities.productId, products.id))
    .where(
      // A retired plan is not quoted (issue 25); its paid sales keep it.
      and(eq(products.companyId, companyId), eq(productModalities.modalityId, modalityId), eq(products.retired, false)),
    )
    .orderBy(asc(products.sortOrder), asc(products.id))
    .then((rows) => rows.map((row) => row.product));
}

export function listRates(db: Database, productIds: number[], destinationId: number) {
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(productRates)
    .where(and(inArray(productRates.productId, productIds), eq(productRates.destinationId, destinationId)));
}

export function listBenefits(db: Database, productIds: number[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(productBenefits)
    .where(inArray(productBenefits.productId, productIds))
    .orderBy(asc(productBenefits.productId), asc(productBenefits.sortOrder), asc(productBenefits.id));
}

export function listProductsByIds(db: Database, productIds: number[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return db.select().from(products).where(inArray(products.id, productIds));
}

export async function listProductIdsOfCompany(db: Database, companyId: number) {
  const rows = await db.select({ id: products.id }).from(products).where(eq(products.companyId, companyId));
  return rows.map((row) => row.id);
}

/** The covid upgrade's fee per passenger per day of each plan of the company that offers it. */
export async function listCovidFees(db: Database, companyId: number): Promise<number[]> {
  const rows = await db
    .select({ fee: products.covidFeeCentsPerDay })
    .from(products)
    .where(eq(products.companyId, companyId));
  return rows.map((row) => row.fee).filter((fee): fee is number => fee !== null);
}

/** Which passenger types each of the products may carry. */
export function listPassengerTypeProducts(db: Database, productIds: number[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      idPassangerTypeProducto: passengerTypeProducts.id,
      idPassangerType: passengerTypeProducts.passengerTypeId,
      idProducto: passengerTypeProducts.productId,
    })
    .from(passengerTypeProducts)
    .where(inArray(passengerTypeProducts.productId, productIds))
    .orderBy(asc(passengerTypeProducts.productId), asc(passengerTypeProducts.passengerTypeId));
}

/** The company's plans in display order (the console's «Precios» list). */
export function listProductsOfCompany(db: Database, companyId: number) {
  return db
    .select()
    .from(products)
    .where(eq(products.companyId, companyId))
    .orderBy(asc(products.sortOrder), asc(products.id));
}

/** Every rate of one plan (all regions and passenger types). */
export function listRatesOfProduct(db: Database, productId: number) {
  return db
    .select({
      destinationId: productRates.destinationId,
      passengerTypeId: productRates.passengerTypeId,
      minDays: productRates.minDays,
      rateCents: productRates.rateCents,
    })
    .from(productRates)
    .where(eq(productRates.productId, productId))
    .orderBy(asc(productRates.minDays), asc(productRates.destinationId), asc(productRates.passengerTypeId));
}

/** The modalities one plan is sold for. */
export async function listModalityIdsOfProduct(db: Database, productId: number): Promise<number[]> {
  const rows = await db
    .select({ modalityId: productModalities.modalityId })
    .from(productModalities)
    .where(eq(productModalities.productId, productId))
    .orderBy(asc(productModalities.modalityId));
  return rows.map((row) => row.modalityId);
}

/** Replaces one plan's prices: its rates, its standing discount and its covid fee (in the caller's transaction). */
export async function replacePrices(
  tx: Database,
  productId: number,
  prices: {
    promotionBp: number;
    covidFeeCentsPerDay: number | null;
    rates: { destinationId: number; passengerTypeId: number; minDays: number; rateCents: number }[];
  },
) {
  await tx
    .update(products)
    .set({ promotionBp: prices.promotionBp, covidFeeCentsPerDay: prices.covidFeeCentsPerDay })
    .where(eq(products.id, productId));
  await tx.delete(productRates).where(eq(productRates.productId, productId));
  if (prices.rates.length > 0) {
    await tx.insert(productRates).values(prices.rates.map((rate) => ({ ...rate, productId })));
  }
}

/** The company's add-ons (active or not), in the order the store lists them. */
export function listAddOns(db: Database, companyId: number) {
  return db.select().from(addOns).where(eq(addOns.companyId, companyId)).orderBy(asc(addOns.sortOrder), asc(addOns.id));
}
