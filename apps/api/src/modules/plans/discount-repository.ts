import { and, asc, eq, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { discountCodes, discountCodeUses } from './tables.ts';

/** The discount codes' queries (plans module; issue 25 item 3). */

export type DiscountCodeRow = typeof discountCodes.$inferSelect;
export type DiscountCodeUseRow = typeof discountCodeUses.$inferSelect;
export type NewDiscountCode = typeof discountCodes.$inferInsert;

const ofCode = (companyId: number, code: string) =>
  and(eq(discountCodes.companyId, companyId), eq(discountCodes.code, code));

export async function findCode(db: Database, companyId: number, code: string) {
  const [row] = await db.select().from(discountCodes).where(ofCode(companyId, code));
  return row;
}

/** The code's row, locked for the caller's transaction: every taker of a use of it waits here, one at a time. */
export async function lockCode(tx: Database, companyId: number, code: string) {
  const [row] = await tx.select().from(discountCodes).where(ofCode(companyId, code)).for('update');
  return row;
}

/** A use that counts: paid, or reserved by a payment under way whose reservation has not lapsed. */
const counting = or(
  eq(discountCodeUses.status, 'used'),
  and(eq(discountCodeUses.status, 'reserved'), sql`${discountCodeUses.reservedUntil} > now()`),
);

/**
 * How many uses of the code count, in all and by the buyer (the same e-mail or the same document, whichever are
 * known), but the quotation's own.
 */
export async function countUses(
  db: Database,
  companyId: number,
  code: string,
  options: {
    excludeQuotationId?: string | undefined;
    buyer?: { email?: string | null | undefined; document?: string | null | undefined } | undefined;
  },
): Promise<{ total: number; buyer: number }> {
  const conditions: (SQL | undefined)[] = [
    eq(discountCodeUses.companyId, companyId),
    eq(discountCodeUses.code, code),
    counting,
  ];
  if (options.excludeQuotationId) conditions.push(ne(discountCodeUses.quotationId, options.excludeQuotationId));
  const sameBuyer = [
    options.buyer?.email ? eq(discountCodeUses.buyerEmail, options.buyer.email) : undefined,
    options.buyer?.document ? eq(discountCodeUses.buyerDocument, options.buyer.document) : undefined,
  ].filter((condition) => condition !== undefined);
  const buyer = sameBuyer.length > 0 ? sql<number>`count(*) filter (where ${or(...sameBuyer)})::int` : sql<number>`0`;
  const [row] = await db
    .select({ total: sql<number>`count(*)::int`, buyer })
    .from(discountCodeUses)
    .where(and(...conditions));
  return { total: row?.total ?? 0, buyer: Number(row?.buyer ?? 0) };
}

export async function findUseOfQuotation(db: Database, quotationId: string) {
  const [row] = await db.select().from(discountCodeUses).where(eq(discountCodeUses.quotationId, quotationId));
  return row;
}

const until = (minutes: number) => sql`now() + make_interval(mins => ${minutes})`;

/** Takes (or takes again) the quotation's one use, reserved for `minutes`. */
export async function reserveUse(
  tx: Database,
  values: Omit<
    typeof discountCodeUses.$inferInsert,
    'id' | 'status' | 'reservedUntil' | 'createdAt' | 'usedAt' | 'saleId'
  >,
  minutes: number,
) {
  const fresh = { ...values, status: 'reserved' as const, reservedUntil: until(minutes), usedAt: null, saleId: null };
  await tx
    .insert(discountCodeUses)
    .values(fresh)
    .onConflictDoUpdate({
      target: discountCodeUses.quotationId,
      set: fresh,
      setWhere: ne(discountCodeUses.status, 'used'),
    });
}

/** Keeps a live reservation for `minutes` more; false when it lapsed or is not reserved. */
export async function extendReservation(tx: Database, quotationId: string, minutes: number): Promise<boolean> {
  const rows = await tx
    .update(discountCodeUses)
    .set({ reservedUntil: until(minutes) })
    .where(
      and(
        eq(discountCodeUses.quotationId, quotationId),
        eq(discountCodeUses.status, 'reserved'),
        sql`${discountCodeUses.reservedUntil} > now()`,
      ),
    )
    .returning({ id: discountCodeUses.id });
  return rows.length === 1;
}

/** The quotation's reservation stops counting (its payment failed or no longer carries the code). */
export async function releaseUse(db: Database, quotationId: string) {
  await db
    .update(discountCodeUses)
    .set({ status: 'released' })
    .where(and(eq(discountCodeUses.quotationId, quotationId), eq(discountCodeUses.status, 'reserved')));
}

/** The quotation's use becomes a paid one, with what the sale paid. */
export async function markUsed(
  tx: Database,
  quotationId: string,
  paid: { saleId: number; revenueUsdCents: number; revenueClp: number },
) {
  await tx
    .update(discountCodeUses)
    .set({ status: 'used', usedAt: sql`now()`, ...paid })
    .where(and(eq(discountCodeUses.quotationId, quotationId), ne(discountCodeUses.status, 'used')));
}

export function listCodes(db: Database, companyId: number) {
  return db.select().from(discountCodes).where(eq(discountCodes.companyId, companyId)).orderBy(asc(discountCodes.code));
}

/** Per code: paid sales, the discount they were given and what they paid; and the payments under way. */
export function usageByCode(db: Database, companyId: number) {
  const used = sql`${discountCodeUses.status} = 'used'`;
  return db
    .select({
      code: discountCodeUses.code,
      paidSales: sql<number>`count(*) filter (where ${used})::int`,
      discountUsdCents: sql<number>`coalesce(sum(${discountCodeUses.discountUsdCents}) filter (where ${used}), 0)::int`,
      discountClp: sql<number>`coalesce(sum(${discountCodeUses.discountClp}) filter (where ${used}), 0)::int`,
      revenueUsdCents: sql<number>`coalesce(sum(${discountCodeUses.revenueUsdCents}) filter (where ${used}), 0)::int`,
      revenueClp: sql<number>`coalesce(sum(${discountCodeUses.revenueClp}) filter (where ${used}), 0)::int`,
      reserved: sql<number>`count(*) filter (where ${discountCodeUses.status} = 'reserved' and ${discountCodeUses.reservedUntil} > now())::int`,
    })
    .from(discountCodeUses)
    .where(eq(discountCodeUses.companyId, companyId))
    .groupBy(discountCodeUses.code);
}

export async function insertCode(tx: Database, values: NewDiscountCode) {
  const [row] = await tx.insert(discountCodes).values(values).onConflictDoNothing().returning();
  return row;
}

/** Writes a code the caller locked and whose version it checked; bumps the version. */
export async function updateCode(
  tx: Database,
  companyId: number,
  code: string,
  values: Partial<Omit<NewDiscountCode, 'companyId' | 'code' | 'version' | 'createdAt'>>,
) {
  const [row] = await tx
    .update(discountCodes)
    .set({ ...values, version: sql`${discountCodes.version} + 1`, updatedAt: sql`now()` })
    .where(ofCode(companyId, code))
    .returning();
  return row;
}
