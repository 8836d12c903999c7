import { randomInt } from 'node:crypto';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { payments, quotations, sales, sandboxTransactions } from '#app/db/schema.ts';

export type PaymentRow = typeof payments.$inferSelect;
export type SaleRow = typeof sales.$inferSelect;

export async function findSaleOfQuotation(db: Database, quotationId: string) {
  const [row] = await db.select().from(sales).where(eq(sales.quotationId, quotationId));
  return row;
}

/**
 * The quotation's one sale, created on its first payment attempt; while unpaid it takes the amount priced now
 * (passengers may have changed after a declined attempt). A paid sale is never repriced.
 */
export async function upsertPendingSale(
  db: Database,
  values: { companyId: number; quotationId: string; productId: number; amountUsdCents: number; amountClp: number },
): Promise<SaleRow> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const [updated] = await db
      .update(sales)
      .set({ productId: values.productId, amountUsdCents: values.amountUsdCents, amountClp: values.amountClp })
      .where(and(eq(sales.quotationId, values.quotationId), eq(sales.status, 'pending')))
      .returning();
    if (updated) return updated;
    const existing = await findSaleOfQuotation(db, values.quotationId);
    if (existing) return existing; // paid: the caller sees its status
    // A random id can collide with another sale's (or another request may create this one): try again.
    const [inserted] = await db
      .insert(sales)
      .values({ ...values, id: randomInt(10_000_000, 2_147_483_647) })
      .onConflictDoNothing()
      .returning();
    if (inserted) return inserted;
  }
  throw new Error('Could not allocate a sale id');
}

export async function countPayments(db: Database, saleId: number) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(payments)
    .where(eq(payments.saleId, saleId));
  return row?.count ?? 0;
}

/**
 * Records an attempt numbered after those of the sale (buy order `TRV{sale}-{n}`). Two attempts started at once
 * (a double click) may pick the same number: the buy order is unique, so the loser takes the next one.
 */
export async function insertPayment(
  db: Database,
  values: { saleId: number; gateway: string; sessionId: string; amountClp: number },
) {
  const first = (await countPayments(db, values.saleId)) + 1;
  for (let attempt = first; attempt < first + 20; attempt += 1) {
    const [row] = await db
      .insert(payments)
      .values({ ...values, id: randomInt(10_000_000, 2_147_483_647), buyOrder: `TRV${values.saleId}-${attempt}` })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
  }
  throw new Error('Payment not stored');
}

export async function setPaymentExternalId(db: Database, paymentId: number, externalId: string) {
  await db.update(payments).set({ externalId }).where(eq(payments.id, paymentId));
}

export async function failPaymentStart(db: Database, paymentId: number, detail: string) {
  await db.update(payments).set({ status: 'error', detail, confirmedAt: new Date() }).where(eq(payments.id, paymentId));
}

export async function findPaymentByExternalId(db: Database, gateway: string, externalId: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.gateway, gateway), eq(payments.externalId, externalId)));
  return row;
}

export async function findPaymentByBuyOrder(db: Database, gateway: string, buyOrder: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.gateway, gateway), eq(payments.buyOrder, buyOrder)));
  return row;
}

export async function findPayment(db: Database, paymentId: number) {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return row;
}

/**
 * Exactly one caller gets to ask the gateway about a payment: the one whose update moves it from pending to
 * confirming. A claim left by a crashed process expires, and the gateway's status recovers the answer.
 */
export async function claimPayment(db: Database, paymentId: number, staleAfterSeconds: number): Promise<boolean> {
  const staleBefore = new Date(Date.now() - staleAfterSeconds * 1000);
  const claimed = await db
    .update(payments)
    .set({ status: 'confirming', claimedAt: new Date() })
    .where(
      and(
        eq(payments.id, paymentId),
        or(eq(payments.status, 'pending'), and(eq(payments.status, 'confirming'), lt(payments.claimedAt, staleBefore))),
      ),
    )
    .returning({ id: payments.id });
  return claimed.length === 1;
}

export async function recordOutcome(
  tx: Database,
  paymentId: number,
  outcome: {
    status: PaymentRow['status'];
    paymentTypeCode: string | null;
    instalments: number | null;
    authorizationCode: string | null;
    cardLastDigits: string | null;
    responseCode: number | null;
    detail: string;
  },
) {
  await tx
    .update(payments)
    .set({ ...outcome, confirmedAt: new Date() })
    .where(eq(payments.id, paymentId));
}

/** Locks the sale row for the rest of the transaction (no two payments can both make it paid). */
export async function lockSale(tx: Database, saleId: number) {
  const [row] = await tx.select().from(sales).where(eq(sales.id, saleId)).for('update');
  return row;
}

export async function markSalePaid(tx: Database, sale: SaleRow) {
  await tx.update(sales).set({ status: 'paid', paidAt: new Date() }).where(eq(sales.id, sale.id));
  await tx.update(quotations).set({ status: 'paid', updatedAt: new Date() }).where(eq(quotations.id, sale.quotationId));
}

/** Only the status: `updatedAt` tells when the visitor last changed the trip, which payments compare against. */
export async function markQuotationPaymentStarted(db: Database, quotationId: string) {
  await db
    .update(quotations)
    .set({ status: 'payment-started' })
    .where(
      and(eq(quotations.id, quotationId), or(eq(quotations.status, 'quoted'), eq(quotations.status, 'plan-selected'))),
    );
}

export async function findSandboxTransaction(db: Database, token: string) {
  const [row] = await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.token, token));
  return row;
}

export async function decideSandboxTransaction(
  db: Database,
  token: string,
  decision: { status: 'approved' | 'declined' | 'aborted'; instalments: number | null },
) {
  const updated = await db
    .update(sandboxTransactions)
    .set({
      status: decision.status,
      decision: decision.status === 'aborted' ? null : decision.status,
      instalments: decision.instalments,
    })
    .where(and(eq(sandboxTransactions.token, token), eq(sandboxTransactions.status, 'created')))
    .returning();
  return updated[0];
}

export async function findSaleOfQuotationBySaleId(db: Database, saleId: number) {
  const [row] = await db.select().from(sales).where(eq(sales.id, saleId));
  return row;
}

/** A new attempt supersedes the sale's earlier ones: they can no longer be confirmed (never committed, so the
 * gateway reverses any authorization they got). */
export async function supersedePendingPayments(db: Database, saleId: number) {
  await db
    .update(payments)
    .set({ status: 'error', detail: 'Reemplazado por un nuevo intento de pago', confirmedAt: new Date() })
    .where(and(eq(payments.saleId, saleId), eq(payments.status, 'pending')));
}

/** Gives a claim back (the gateway's answer is unknown): a later return or the sweeper asks again. */
export async function releaseClaim(db: Database, paymentId: number, detail: string) {
  await db.update(payments).set({ detail }).where(eq(payments.id, paymentId));
}

/** Claims stuck in `confirming` (a crash, an unreachable gateway) for the sweeper to resolve. */
export function listStaleClaims(db: Database, olderThanSeconds: number) {
  return db
    .select()
    .from(payments)
    .where(
      and(eq(payments.status, 'confirming'), lt(payments.claimedAt, new Date(Date.now() - olderThanSeconds * 1000))),
    )
    .limit(20);
}
