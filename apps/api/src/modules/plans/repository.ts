import { covidAddOnCode } from '@travesia/domain/add-ons';
import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { covidAddOn } from './covid-add-on.ts';
import { addOns, passengerTypeProducts, productBenefits, productModalities, productRates, products } from './tables.ts';

/** A plan as the module reads it: its row, and its covid upgrade fee from the company's covid add-on. */
export type ProductRow = typeof products.$inferSelect & {
  /** The covid upgrade's price per traveller per day with this plan, USD cents; null: the plan does not offer it. */
  covidFeeCentsPerDay: number | null;
};

/**
 * A plan's covid fee, read from its company's covid add-on (issue 27 §1): the plan's entry in `plan_prices`, else the
 * add-on's price per day (the rule of addOnDailyCentsFor, packages/domain/src/add-ons.ts); null: not offered.
 * `onSale`: only while the add-on is active (what the storefront sells); otherwise what the catalogue holds whether or
 * not it is on sale (what the prices console shows and edits, so a publish never drops a fee it did not see).
 */
const covidFeeOf = (onSale: boolean) =>
  // Written out, names qualified: drizzle leaves columns unqualified in a one-table query, which inside this subquery
  // would name the add-on's own columns.
  sql<
    number | null
  >`(select coalesce((covid.plan_prices ->> "products"."id"::text)::integer, covid.price_cents_per_day) from add_ons covid where covid.company_id = "products"."company_id" and covid.code = ${covidAddOnCode}${onSale ? sql.raw(' and covid.active') : sql``})`;

const productColumns = (onSale: boolean) => ({
  ...getTableColumns(products),
  covidFeeCentsPerDay: covidFeeOf(onSale).as('covid_fee_cents_per_day'),
});

export function listProductsForModality(db: Database, companyId: number, modalityId: number): Promise<ProductRow[]> {
  return db
    .select(productColumns(true))
    .from(products)
    .innerJoin(productModalities, eq(productModalities.productId, products.id))
    .where(
      // A retired plan is not quoted (issue 25); its paid sales keep it.
      and(eq(products.companyId, companyId), eq(productModalities.modalityId, modalityId), eq(products.retired, false)),
    )
    .orderBy(asc(products.sortOrder), asc(products.id));
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

/** Plans by id, each with its covid fee whether or not the covid add-on is on sale (the console's view). */
export function listProductsByIds(db: Database, productIds: number[]): Promise<ProductRow[]> {
  if (productIds.length === 0) return Promise.resolve([]);
  return db.select(productColumns(false)).from(products).where(inArray(products.id, productIds));
}

export async function listProductIdsOfCompany(db: Database, companyId: number) {
  const rows = await db.select({ id: products.id }).from(products).where(eq(products.companyId, companyId));
  return rows.map((row) => row.id);
}

/** The covid upgrade's fee per passenger per day of each plan of the company that offers it (its add-on on sale). */
export async function listCovidFees(db: Database, companyId: number): Promise<number[]> {
  const rows = await db
    .select({ fee: covidFeeOf(true) })
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
export function listProductsOfCompany(db: Database, companyId: number): Promise<ProductRow[]> {
  return db
    .select(productColumns(false))
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

/**
 * Replaces one plan's prices: its rates, its standing discount and its covid fee (in the caller's transaction). The
 * fee is the plan's entry in the company's covid add-on: set (and the plan added to its plans) or, null, removed with
 * the plan. One statement that edits the stored object in place (`||`, `-`), never a value read before: publishes of
 * two plans at once each keep the other's entry (the second waits for the first's row lock, then edits what it wrote).
 * The add-on's version moves on, so a console edit of the add-on begun before is refused rather than undoing this.
 */
export async function replacePrices(
  tx: Database,
  productId: number,
  prices: {
    promotionBp: number;
    covidFeeCentsPerDay: number | null;
    rates: { destinationId: number; passengerTypeId: number; minDays: number; rateCents: number }[];
  },
) {
  const [product] = await tx
    .update(products)
    .set({ promotionBp: prices.promotionBp })
    .where(eq(products.id, productId))
    .returning({ companyId: products.companyId });
  if (product) await setCovidFee(tx, product.companyId, productId, prices.covidFeeCentsPerDay);
  await tx.delete(productRates).where(eq(productRates.productId, productId));
  if (prices.rates.length > 0) {
    await tx.insert(productRates).values(prices.rates.map((rate) => ({ ...rate, productId })));
  }
}

/** Sets (or, null, removes) one plan's covid fee; a company without its covid add-on yet gets it. */
async function setCovidFee(tx: Database, companyId: number, productId: number, fee: number | null) {
  const key = String(productId);
  await tx
    .insert(addOns)
    .values({
      ...covidAddOn,
      benefits: [...covidAddOn.benefits],
      companyId,
      planPrices: fee === null ? {} : { [key]: fee },
      productIds: fee === null ? [] : [productId],
      sortOrder: sql`(select coalesce(max(${addOns.sortOrder}) + 1, 0) from ${addOns} where ${addOns.companyId} = ${companyId})`,
    })
    .onConflictDoUpdate({
      target: [addOns.companyId, addOns.code],
      set: {
        planPrices:
          fee === null
            ? sql`${addOns.planPrices} - ${key}::text`
            : sql`${addOns.planPrices} || jsonb_build_object(${key}::text, ${fee}::integer)`,
        productIds:
          fee === null
            ? sql`array_remove(${addOns.productIds}, ${productId}::integer)`
            : sql`(select array_agg(distinct id order by id) from unnest(array_append(${addOns.productIds}, ${productId}::integer)) as id)`,
        version: sql`${addOns.version} + 1`,
        updatedAt: sql`now()`,
      },
    });
}

/** The company's add-ons (active or not), in the order the store lists them. */
export function listAddOns(db: Database, companyId: number) {
  return db.select().from(addOns).where(eq(addOns.companyId, companyId)).orderBy(asc(addOns.sortOrder), asc(addOns.id));
}
