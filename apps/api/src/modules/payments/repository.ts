import { randomInt } from 'node:crypto';
import type { Rule } from '@travesia/domain/field-errors';
import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { refusalToChange } from '#app/modules/quotations/purchase-lock.ts';
import { markPaymentStarted } from '#app/modules/quotations/service.ts';
import { lockPurchase, voidOpenAttempts } from './purchase-lock.ts';
import {
  type PurchaseSnapshot,
  payments,
  type SaleRefundReason,
  type SaleStatus,
  saleDateChanges,
  saleRefunds,
  sales,
  sandboxTransactions,
  wasPaid,
} from './tables.ts';

export type DateChangeRow = typeof saleDateChanges.$inferSelect;

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
  values: {
    companyId: number;
    quotationId: string;
    productId: number;
    amountUsdCents: number;
    amountClp: number;
    clpPerUsd: string;
  },
): Promise<SaleRow> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const [updated] = await db
      .update(sales)
      .set({
        productId: values.productId,
        amountUsdCents: values.amountUsdCents,
        amountClp: values.amountClp,
        clpPerUsd: values.clpPerUsd,
      })
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
  values: { saleId: number; gateway: string; sessionId: string; amountClp: number; purchase: PurchaseSnapshot },
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
 * Opens a payment attempt for what was priced, in one transaction under the purchase lock: refused when the
 * quotation changed since it was priced (`changed`), is paid, or has a payment being confirmed. The sale takes the
 * new amount, its earlier open attempts are voided (only the newest can pay), and the attempt keeps the snapshot.
 */
export async function openAttempt(
  db: Database,
  input: {
    quotationId: string;
    pricedVersion: number;
    sale: { companyId: number; productId: number; amountUsdCents: number; amountClp: number; clpPerUsd: string };
    gateway: string;
    purchase: PurchaseSnapshot;
    /** Takes the discount code's use (another module's step, in this transaction), or answers why not. */
    reserveDiscount: (tx: Database) => Promise<Rule | null>;
  },
): Promise<
  | { refused: 'changed' | 'paid' | 'confirming' }
  | { refused: 'discount'; rule: Rule }
  | { sale: SaleRow; payment: PaymentRow }
> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const state = await lockPurchase(tx, input.quotationId);
    if (!state || state.quotation.version !== input.pricedVersion) return { refused: 'changed' };
    const refusal = refusalToChange(state);
    if (refusal) return { refused: refusal };
    const discountRefusal = await input.reserveDiscount(tx);
    if (discountRefusal) return { refused: 'discount', rule: discountRefusal };
    const sale = await upsertPendingSale(tx, { ...input.sale, quotationId: input.quotationId });
    if (wasPaid(sale.status)) return { refused: 'paid' };
    await voidOpenAttempts(tx, sale, 'Reemplazado por un nuevo intento de pago');
    // Webpay: buy_order ≤ 26 characters (TRV{sale}-{attempt}), session_id ≤ 61.
    const payment = await insertPayment(tx, {
      saleId: sale.id,
      gateway: input.gateway,
      sessionId: input.quotationId,
      amountClp: sale.amountClp,
      purchase: input.purchase,
    });
    await markPaymentStarted(tx, input.quotationId);
    return { sale, payment };
  });
}

/**
 * Exactly one caller gets to ask the gateway about a payment: the one whose update moves it from pending to
 * confirming, under the purchase lock (so no change of the trip or travellers slips in; changes void pending
 * attempts and wait while one is confirming). A claim left by a crashed process expires, and the gateway's status
 * recovers the answer. An attempt that can no longer pay (its sale paid by another one, or repriced) is recorded as
 * an error in the same step, and the gateway is never asked to commit it.
 */
export async function claimPayment(
  db: Database,
  payment: PaymentRow,
  staleAfterSeconds: number,
  /** Another module's last word on a purchase attempt (its discount code's use still held), or null. */
  holdDiscount?: (tx: Database, quotationId: string) => Promise<string | null>,
): Promise<{ claimedAt: Date } | { refused: string } | null> {
  const sale = await findSaleOfQuotationBySaleId(db, payment.saleId);
  if (!sale) return null;
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    await lockPurchase(tx, sale.quotationId);
    // The database's clock, not this process's: claims of several servers compare on one clock.
    const [claimed] = await tx
      .update(payments)
      .set({ status: 'confirming', claimedAt: sql`date_trunc('milliseconds', now())` })
      .where(
        and(
          eq(payments.id, payment.id),
          or(
            eq(payments.status, 'pending'),
            and(eq(payments.status, 'confirming'), lt(payments.claimedAt, staleBefore(staleAfterSeconds))),
          ),
        ),
      )
      .returning({ claimedAt: payments.claimedAt });
    if (!claimed?.claimedAt) return null;
    const { claimedAt } = claimed;
    const [current] = await tx.select().from(sales).where(eq(sales.id, payment.saleId));
    if (payment.purpose === 'date_change') {
      // A difference payment pays a change of a paid sale: payable while its change still waits for it.
      const [change] = await tx.select().from(saleDateChanges).where(eq(saleDateChanges.paymentId, payment.id));
      const refusal =
        current?.status === 'paid' && change?.status === 'awaiting_payment'
          ? null
          : 'El cambio de fechas ya no está pendiente de pago';
      if (!refusal) return { claimedAt };
      await tx
        .update(payments)
        .set({ status: 'error', detail: refusal, confirmedAt: new Date() })
        .where(eq(payments.id, payment.id));
      return { refused: refusal };
    }
    const refusal =
      !current || wasPaid(current.status)
        ? 'La venta ya había sido pagada con otra transacción'
        : current.amountClp !== payment.amountClp
          ? 'El monto de la venta cambió después de iniciar este pago'
          : ((await holdDiscount?.(tx, sale.quotationId)) ?? null);
    if (refusal) {
      await tx
        .update(payments)
        .set({ status: 'error', detail: refusal, confirmedAt: new Date() })
        .where(eq(payments.id, payment.id));
      return { refused: refusal };
    }
    return { claimedAt };
  });
}

/** Records the outcome of a claimed attempt; false (nothing written) when the claim is no longer this caller's. */
export async function recordOutcome(
  tx: Database,
  paymentId: number,
  claimedAt: Date,
  outcome: {
    status: PaymentRow['status'];
    paymentTypeCode: string | null;
    instalments: number | null;
    authorizationCode: string | null;
    cardLastDigits: string | null;
    responseCode: number | null;
    detail: string;
    refundStatus?: 'pending';
    refundAmountClp?: number;
  },
): Promise<boolean> {
  const updated = await tx
    .update(payments)
    .set({ ...outcome, confirmedAt: new Date() })
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'confirming'), eq(payments.claimedAt, claimedAt)))
    .returning({ id: payments.id });
  return updated.length === 1;
}

/** Locks the sale row for the rest of the transaction (no two payments can both make it paid). */
export async function lockSale(tx: Database, saleId: number) {
  const [row] = await tx.select().from(sales).where(eq(sales.id, saleId)).for('update');
  return row;
}

/**
 * The sale becomes paid with what its paying attempt bought (under the purchase lock). The quotation reads paid from
 * this row alone (docs/decisions/010-one-owner-of-paid.md): nothing else is written.
 */
export async function markSalePaid(
  tx: Database,
  sale: SaleRow,
  bought: { purchase: PurchaseSnapshot | null; testPayment: boolean; accessToken: string },
) {
  await tx
    .update(sales)
    .set({
      status: 'paid',
      paidAt: new Date(),
      purchase: bought.purchase,
      testPayment: bought.testPayment,
      // The paying attempt's token opens the sale's documents; tokens of other attempts open nothing.
      accessToken: bought.accessToken,
    })
    .where(eq(sales.id, sale.id));
}

/** Takes the purchase lock of the sale's quotation (modules/quotations/purchase-lock.ts) inside the caller's transaction. */
export async function lockPurchaseOfSale(tx: Database, sale: { quotationId: string }) {
  await lockPurchase(tx, sale.quotationId);
}

/** The purchase lock of the sale's quotation, then the sale's row lock: the order every writer of a purchase follows. */
export async function lockSaleOfPurchase(tx: Database, saleId: number) {
  const sale = await findSaleOfQuotationBySaleId(tx, saleId);
  if (!sale) return undefined;
  await lockPurchaseOfSale(tx, sale);
  return lockSale(tx, saleId);
}

/** lockPurchaseOfSale, answering the purchase's state (whether an attempt is being confirmed). */
export function lockPurchaseOfSaleState(tx: Database, sale: { quotationId: string }) {
  return lockPurchase(tx, sale.quotationId);
}

export async function findSandboxTransaction(db: Database, token: string) {
  const [row] = await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.token, token));
  return row;
}

export async function insertSandboxTransaction(db: Database, values: typeof sandboxTransactions.$inferInsert) {
  await db.insert(sandboxTransactions).values(values);
}

export async function commitSandboxTransaction(db: Database, token: string) {
  await db.update(sandboxTransactions).set({ status: 'committed' }).where(eq(sandboxTransactions.token, token));
}

/**
 * Records a refund of an approved test payment, added to what it already gave back; false when the ledger has no
 * such approved payment or the refund would give back more than was paid (as Webpay refuses beyond the balance).
 */
export async function refundSandboxTransaction(db: Database, token: string, amountClp: number) {
  const given = sql`coalesce(${sandboxTransactions.refundedClp}, 0)`;
  const refunded = await db
    .update(sandboxTransactions)
    .set({ refundedClp: sql`${given} + ${amountClp}` })
    .where(
      and(
        eq(sandboxTransactions.token, token),
        eq(sandboxTransactions.decision, 'approved'),
        sql`${given} + ${amountClp} <= ${sandboxTransactions.amountClp}`,
      ),
    )
    .returning({ token: sandboxTransactions.token });
  return refunded.length === 1;
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

/** Several sales by id in one query (unknown ids are simply absent). */
export function findSalesByIds(db: Database, saleIds: readonly number[]): Promise<SaleRow[]> {
  if (saleIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(sales)
    .where(inArray(sales.id, [...saleIds]));
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
    .where(and(eq(payments.status, 'confirming'), lt(payments.claimedAt, staleBefore(olderThanSeconds))))
    .limit(20);
}

/** A moment `seconds` before now on the database's clock. */
const staleBefore = (seconds: number) => sql`now() - make_interval(secs => ${seconds})`;

/** Records a refund's answer: refunded for good, or still pending (tried again by the sweeper) with the reason. */
export async function recordRefund(
  db: Database,
  paymentId: number,
  answer: { status: 'refunded' | 'failed'; detail: string },
) {
  await db
    .update(payments)
    .set(
      answer.status === 'refunded'
        ? { refundStatus: 'refunded', refundDetail: answer.detail, refundedAt: new Date() }
        : { refundDetail: answer.detail },
    )
    .where(and(eq(payments.id, paymentId), eq(payments.refundStatus, 'pending')));
}

/** Authorizations we did not honour whose refund has not gone through yet. */
export function listPendingRefunds(db: Database) {
  return db.select().from(payments).where(eq(payments.refundStatus, 'pending')).limit(20);
}

/** The attempt that paid a sale (authorized), if any: how it was paid (gateway, card type, instalments). */
export async function findAuthorizedPaymentOfSale(db: Database, saleId: number) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.saleId, saleId), eq(payments.status, 'authorized'), eq(payments.purpose, 'purchase')))
    .limit(1);
  return row;
}

/** Every honoured payment of a sale, oldest first: the purchase and any date change's difference. */
export function listAuthorizedPaymentsOfSale(db: Database, saleId: number) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.saleId, saleId), eq(payments.status, 'authorized')))
    .orderBy(asc(payments.createdAt));
}

/**
 * Takes the row lock of every honoured payment of a sale, newest first, for the rest of `tx`: what each can still give
 * back is then read and drawn from with no other refund request of these payments in between (every writer of a sale
 * refund takes these locks first).
 */
export function lockAuthorizedPaymentsOfSale(tx: Database, saleId: number) {
  return tx
    .select()
    .from(payments)
    .where(and(eq(payments.saleId, saleId), eq(payments.status, 'authorized')))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .for('update');
}

/** What was already asked back (pending or refunded) of each payment of a sale, in CLP, by payment id. */
export async function refundedOrPendingByPayment(tx: Database, saleId: number): Promise<Map<number, number>> {
  const rows = await tx
    .select({ paymentId: saleRefunds.paymentId, total: sql<number>`coalesce(sum(${saleRefunds.amountClp}), 0)::int` })
    .from(saleRefunds)
    .where(eq(saleRefunds.saleId, saleId))
    .groupBy(saleRefunds.paymentId);
  return new Map(rows.map((row) => [row.paymentId, Number(row.total)]));
}

/**
 * The payments that moved money of a sale, oldest first: those honoured, and the authorizations we could not honour
 * (given back through payments.refund_status). Declined, aborted or abandoned attempts took nothing and are left out.
 */
export function listMoneyPaymentsOfSale(db: Database, saleId: number) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.saleId, saleId), or(eq(payments.status, 'authorized'), isNotNull(payments.refundStatus))))
    .orderBy(asc(payments.createdAt), asc(payments.id));
}

// ─── Date changes of paid sales ───────────────────────────────────────────────────────────────────────────────────

export async function insertDateChange(tx: Database, values: typeof saleDateChanges.$inferInsert) {
  const [row] = await tx.insert(saleDateChanges).values(values).returning();
  if (!row) throw new Error('Date change not stored');
  return row;
}

export async function findDateChangeOfPayment(db: Database, paymentId: number) {
  const [row] = await db.select().from(saleDateChanges).where(eq(saleDateChanges.paymentId, paymentId));
  return row;
}

export async function findDateChange(db: Database, id: number) {
  const [row] = await db.select().from(saleDateChanges).where(eq(saleDateChanges.id, id));
  return row;
}

/** The sale's date changes, newest first. */
export function listDateChanges(db: Database, saleId: number) {
  return db
    .select()
    .from(saleDateChanges)
    .where(eq(saleDateChanges.saleId, saleId))
    .orderBy(sql`${saleDateChanges.id} desc`);
}

/**
 * A newer request replaces the sale's change still waiting for its payment (inside the caller's transaction, under
 * the purchase lock): the change is cancelled and its payment, if not yet being confirmed, can never be committed.
 */
export async function cancelAwaitingDateChanges(tx: Database, saleId: number, detail: string) {
  const cancelled = await tx
    .update(saleDateChanges)
    .set({ status: 'cancelled' })
    .where(and(eq(saleDateChanges.saleId, saleId), eq(saleDateChanges.status, 'awaiting_payment')))
    .returning({ paymentId: saleDateChanges.paymentId });
  const paymentIds = cancelled.flatMap((row) => (row.paymentId === null ? [] : [row.paymentId]));
  if (paymentIds.length > 0) {
    await tx
      .update(payments)
      .set({ status: 'error', detail, confirmedAt: new Date() })
      .where(and(inArray(payments.id, paymentIds), eq(payments.status, 'pending')));
  }
}

/** Moves a change from awaiting_payment to `status`; false when it was no longer waiting (applied once only). */
export async function settleDateChange(tx: Database, id: number, status: 'applied' | 'cancelled') {
  const updated = await tx
    .update(saleDateChanges)
    .set(status === 'applied' ? { status, appliedAt: new Date() } : { status })
    .where(and(eq(saleDateChanges.id, id), eq(saleDateChanges.status, 'awaiting_payment')))
    .returning({ id: saleDateChanges.id });
  return updated.length === 1;
}

/** The sale takes the changed trip: its snapshot (what the certificates say) and the total paid for it. */
export async function applyDateChangeToSale(tx: Database, change: DateChangeRow) {
  await tx
    .update(sales)
    .set({
      purchase: change.purchase,
      amountClp: change.amountClp,
      amountUsdCents: change.amountUsdCents,
      // The rate the new price was converted at; a change that kept the price keeps the sale's.
      ...(change.purchase.price.clpPerUsd ? { clpPerUsd: change.purchase.price.clpPerUsd } : {}),
    })
    .where(eq(sales.id, change.saleId));
}

/** A payment of a date change's difference (purpose date_change), numbered after the sale's other attempts. */
export async function insertDateChangePayment(
  tx: Database,
  values: { saleId: number; gateway: string; sessionId: string; amountClp: number; purchase: PurchaseSnapshot },
) {
  const payment = await insertPayment(tx, values);
  const [row] = await tx
    .update(payments)
    .set({ purpose: 'date_change' })
    .where(eq(payments.id, payment.id))
    .returning();
  return row ?? payment;
}

// ─── Sale refunds (money given back of an honoured payment: withdrawal, date change) ─────────────────────────────

export type SaleRefundRow = typeof saleRefunds.$inferSelect;

/** What every write of a sale refund sets besides its change: when, and the next version (see saleRefunds.version). */
const touched = () => ({ updatedAt: sql`now()`, version: sql`${saleRefunds.version} + 1` });

/** Sets a sale's status, only from the one it is expected to be in; answers whether it changed (in `tx`). */
export async function moveSaleStatus(tx: Database, saleId: number, from: SaleStatus, to: SaleStatus) {
  const moved = await tx
    .update(sales)
    .set({ status: to })
    .where(and(eq(sales.id, saleId), eq(sales.status, from)))
    .returning({ id: sales.id });
  return moved.length === 1;
}

/** Inserts a refund unless one with its idempotency key exists; answers the row of that key either way. */
export async function insertSaleRefund(
  tx: Database,
  values: Pick<typeof saleRefunds.$inferInsert, 'saleId' | 'paymentId' | 'reason' | 'amountClp' | 'idempotencyKey'>,
): Promise<{ refund: SaleRefundRow; created: boolean }> {
  const [inserted] = await tx.insert(saleRefunds).values(values).onConflictDoNothing().returning();
  if (inserted) return { refund: inserted, created: true };
  const [existing] = await tx.select().from(saleRefunds).where(eq(saleRefunds.idempotencyKey, values.idempotencyKey));
  if (!existing) throw new Error('A refund idempotency key clashed with a row that is not there');
  return { refund: existing, created: false };
}

export async function findSaleRefunds(db: Database, saleId: number) {
  return db.select().from(saleRefunds).where(eq(saleRefunds.saleId, saleId)).orderBy(asc(saleRefunds.id));
}

/**
 * Claims the oldest due pending refund for one attempt, in one statement: counts the attempt and moves its next
 * attempt to the end of the claim, so no other process (SKIP LOCKED) or later sweep takes it meanwhile. A refund an
 * operator holds (to give it back by transfer) is never claimed.
 */
export async function claimDueSaleRefund(db: Database, claimSeconds: number): Promise<SaleRefundRow | undefined> {
  const next = db
    .select({ id: saleRefunds.id })
    .from(saleRefunds)
    .where(
      and(eq(saleRefunds.status, 'pending'), isNull(saleRefunds.heldAt), lte(saleRefunds.nextAttemptAt, sql`now()`)),
    )
    .orderBy(asc(saleRefunds.nextAttemptAt), asc(saleRefunds.id))
    .limit(1)
    .for('update', { skipLocked: true });
  const [claimed] = await db
    .update(saleRefunds)
    .set({
      attempts: sql`${saleRefunds.attempts} + 1`,
      nextAttemptAt: sql`now() + make_interval(secs => ${claimSeconds})`,
      claimedUntil: sql`now() + make_interval(secs => ${claimSeconds})`,
      ...touched(),
    })
    .where(eq(saleRefunds.id, sql`(${next})`))
    .returning();
  return claimed;
}

/**
 * Pending → refunded (once), the gateway's way or by hand: what both completions set, plus `how` (the method and what
 * it records). Answers the row when this call moved it.
 */
async function completeSaleRefund(
  tx: Database,
  refundId: number,
  how: Pick<typeof saleRefunds.$inferInsert, 'method' | 'detail' | 'lastError' | 'transferReference' | 'markedBy'>,
) {
  const [row] = await tx
    .update(saleRefunds)
    .set({ ...how, status: 'refunded', claimedUntil: null, refundedAt: sql`now()`, ...touched() })
    .where(and(eq(saleRefunds.id, refundId), eq(saleRefunds.status, 'pending')))
    .returning();
  return row;
}

/** The gateway gave the money back: pending → refunded (once); answers the row when this call moved it. */
export function markSaleRefunded(tx: Database, refundId: number, detail: string) {
  return completeSaleRefund(tx, refundId, { method: 'gateway', detail, lastError: null });
}

export async function findSaleRefund(db: Database, refundId: number) {
  const [row] = await db.select().from(saleRefunds).where(eq(saleRefunds.id, refundId));
  return row;
}

/**
 * Takes a refund's row lock for the rest of `tx`, the way the sweeper's claim does (`FOR UPDATE SKIP LOCKED`):
 * undefined when another transaction holds it (a claim being made, another manual mark) or when there is no such row.
 * `wait: true` (a console step that names the version it saw) waits for that transaction instead, then reads the row
 * as it left it: the step is judged against what the other one did, never refused only for having met it.
 */
export async function lockSaleRefund(tx: Database, refundId: number, options: { wait?: boolean } = {}) {
  const [row] = await tx
    .select({ refund: saleRefunds, claimed: sql<boolean>`coalesce(${saleRefunds.claimedUntil} > now(), false)` })
    .from(saleRefunds)
    .where(eq(saleRefunds.id, refundId))
    .for('update', options.wait ? {} : { skipLocked: true });
  return row;
}

/** An operator recorded a bank transfer: pending → refunded by hand (in `tx`, with the row locked). */
export function markSaleRefundedByHand(
  tx: Database,
  refundId: number,
  manual: { reference: string; by: string },
): Promise<SaleRefundRow | undefined> {
  return completeSaleRefund(tx, refundId, {
    method: 'manual',
    transferReference: manual.reference,
    markedBy: manual.by,
    detail: `Transferencia ${manual.reference}`,
  });
}

/**
 * An operator holds a pending refund to transfer it: the sweeper no longer claims it (in `tx`, row locked). `reason`:
 * why, as the operator wrote it (the console asks for it).
 */
export async function holdSaleRefund(tx: Database, refundId: number, by: string, reason: string | null = null) {
  const [row] = await tx
    .update(saleRefunds)
    .set({ heldAt: sql`now()`, heldBy: by, heldReason: reason, ...touched() })
    .where(and(eq(saleRefunds.id, refundId), eq(saleRefunds.status, 'pending')))
    .returning();
  return row;
}

/** A held refund back in the sweeper's queue, due now (in `tx`, row locked); undefined unless pending and held. */
export async function releaseSaleRefund(tx: Database, refundId: number) {
  const [row] = await tx
    .update(saleRefunds)
    .set({ heldAt: null, heldBy: null, heldReason: null, nextAttemptAt: sql`now()`, ...touched() })
    .where(and(eq(saleRefunds.id, refundId), eq(saleRefunds.status, 'pending'), isNotNull(saleRefunds.heldAt)))
    .returning();
  return row;
}

export type StuckSaleRefundFilter = {
  /** Attempts above this count (or a last error set) make a pending refund one that needs a hand. */
  minAttempts: number;
  reason?: SaleRefundReason;
  saleId?: number;
  gateway?: string;
  limit: number;
};

/** Sale refunds, each with the payment it gives back: its gateway and order number (what an operator looks up). */
const withTheirPayments = (db: Database) =>
  db
    .select({ refund: saleRefunds, gateway: payments.gateway, buyOrder: payments.buyOrder })
    .from(saleRefunds)
    .innerJoin(payments, eq(payments.id, saleRefunds.paymentId));

/** Pending refunds the gateway has not made (attempts above the filter's, or a last error), oldest first. */
export async function listStuckSaleRefunds(db: Database, filter: StuckSaleRefundFilter) {
  return withTheirPayments(db)
    .where(
      and(
        eq(saleRefunds.status, 'pending'),
        or(gt(saleRefunds.attempts, filter.minAttempts), isNotNull(saleRefunds.lastError)),
        filter.reason ? eq(saleRefunds.reason, filter.reason) : undefined,
        filter.saleId ? eq(saleRefunds.saleId, filter.saleId) : undefined,
        filter.gateway ? eq(payments.gateway, filter.gateway) : undefined,
      ),
    )
    .orderBy(asc(saleRefunds.createdAt), asc(saleRefunds.id))
    .limit(filter.limit);
}

/**
 * The console's states of a sale refund (screen «Reembolsos de ventas»), each a condition on the row: `pending` (the
 * sweeper will try it), `failing` (pending, its last attempt failed), `held` (for a bank transfer), `transferred`
 * (refunded by hand), `refunded` (by the gateway). The filters add `waiting` (pending or failing: the «Hoy» figure of
 * refunds pending), `open` (every one not refunded yet) and `all`.
 */
export const saleRefundStates = ['pending', 'failing', 'held', 'transferred', 'refunded'] as const;
export type SaleRefundState = (typeof saleRefundStates)[number];
export const saleRefundStateFilters = ['open', 'waiting', ...saleRefundStates, 'all'] as const;
export type SaleRefundStateFilter = (typeof saleRefundStateFilters)[number];

const notHeld = and(eq(saleRefunds.status, 'pending'), isNull(saleRefunds.heldAt));
const stateConditions: Record<SaleRefundStateFilter, SQL | undefined> = {
  pending: and(notHeld, isNull(saleRefunds.lastError)),
  failing: and(notHeld, isNotNull(saleRefunds.lastError)),
  held: and(eq(saleRefunds.status, 'pending'), isNotNull(saleRefunds.heldAt)),
  transferred: and(eq(saleRefunds.status, 'refunded'), eq(saleRefunds.method, 'manual')),
  refunded: and(eq(saleRefunds.status, 'refunded'), or(isNull(saleRefunds.method), eq(saleRefunds.method, 'gateway'))),
  waiting: notHeld,
  open: eq(saleRefunds.status, 'pending'),
  all: undefined,
};

/** The state of one refund row (one of saleRefundStates). */
export function saleRefundState(refund: SaleRefundRow): SaleRefundState {
  if (refund.status === 'refunded') return refund.method === 'manual' ? 'transferred' : 'refunded';
  if (refund.heldAt) return 'held';
  return refund.lastError ? 'failing' : 'pending';
}

/**
 * One page of the console's queue of sale refunds in `state`, oldest first (by id: the keyset), after the id `after`,
 * with the payment each gives back (its gateway and order number).
 */
export function listSaleRefundsPage(
  db: Database,
  filter: { state: SaleRefundStateFilter; after?: number | undefined; id?: number; limit: number },
) {
  return withTheirPayments(db)
    .where(
      and(
        stateConditions[filter.state],
        filter.after !== undefined ? gt(saleRefunds.id, filter.after) : undefined,
        filter.id !== undefined ? eq(saleRefunds.id, filter.id) : undefined,
      ),
    )
    .orderBy(asc(saleRefunds.id))
    .limit(filter.limit);
}

/** A failed attempt: due again after `retryInSeconds` with the reason kept. */
export async function markSaleRefundFailed(db: Database, refundId: number, error: string, retryInSeconds: number) {
  await db
    .update(saleRefunds)
    .set({
      lastError: error.slice(0, 500),
      claimedUntil: null,
      nextAttemptAt: sql`now() + make_interval(secs => ${retryInSeconds})`,
      ...touched(),
    })
    .where(and(eq(saleRefunds.id, refundId), eq(saleRefunds.status, 'pending')));
}

/** The console's «Hoy» (issue 24): sales paid in [from, to) and their amount in CLP. */
export async function paidSalesBetween(
  db: Database,
  from: Date,
  to: Date,
): Promise<{ count: number; amountClp: number }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, amountClp: sql<number>`coalesce(sum(${sales.amountClp}), 0)::bigint` })
    .from(sales)
    .where(and(isNotNull(sales.paidAt), sql`${sales.paidAt} >= ${from}`, lt(sales.paidAt, to)));
  return { count: Number(row?.count ?? 0), amountClp: Number(row?.amountClp ?? 0) };
}

/** Payments left «en confirmación» since before `before` (the sweeper resolves them; many means trouble). */
export async function countPaymentsConfirmingSince(db: Database, before: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(payments)
    .where(
      and(eq(payments.status, 'confirming'), lt(sql`coalesce(${payments.claimedAt}, ${payments.createdAt})`, before)),
    );
  return row?.count ?? 0;
}

/** Sale refunds still owed: pending at the gateway, and held for a bank transfer. */
export async function countOpenSaleRefunds(db: Database): Promise<{ pending: number; held: number }> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${saleRefunds.heldAt} is null)::int`,
      held: sql<number>`count(*) filter (where ${saleRefunds.heldAt} is not null)::int`,
    })
    .from(saleRefunds)
    .where(eq(saleRefunds.status, 'pending'));
  return { pending: row?.pending ?? 0, held: row?.held ?? 0 };
}

/** What the console's sale search filters by (every part optional; they all apply). */
export type SaleSearchFilter = {
  companyId: number;
  saleId?: number;
  /** A subquery answering sale ids (a certificate number, a holder's document, e-mail or name); with saleId, either. */
  saleIdsIn?: SQLWrapper;
  /** Paid from / before these instants. */
  paidFrom?: Date;
  paidBefore?: Date;
  status?: SaleStatus;
  /** Only sales with a payment «en confirmación» since before this instant. */
  confirmingSince?: Date;
  /** Keyset: the page after this row (newest first). */
  after?: { createdAt: Date; id: number };
};

/** One page of the console's sale list, newest first (sales_company_created serves the order). */
export function searchSales(db: Database, filter: SaleSearchFilter, limit: number) {
  const conditions: SQL[] = [eq(sales.companyId, filter.companyId)];
  const byId = filter.saleId === undefined ? undefined : eq(sales.id, filter.saleId);
  const inSubquery = filter.saleIdsIn ? inArray(sales.id, filter.saleIdsIn) : undefined;
  if (byId || inSubquery) conditions.push((byId && inSubquery ? or(byId, inSubquery) : (byId ?? inSubquery)) as SQL);
  if (filter.paidFrom) conditions.push(gte(sales.paidAt, filter.paidFrom));
  if (filter.paidBefore) conditions.push(lt(sales.paidAt, filter.paidBefore));
  if (filter.status) conditions.push(eq(sales.status, filter.status));
  if (filter.confirmingSince) {
    conditions.push(
      inArray(
        sales.id,
        db
          .select({ saleId: payments.saleId })
          .from(payments)
          .where(
            and(
              eq(payments.status, 'confirming'),
              lt(sql`coalesce(${payments.claimedAt}, ${payments.createdAt})`, filter.confirmingSince),
            ),
          ),
      ),
    );
  }
  if (filter.after) {
    const { createdAt, id } = filter.after;
    conditions.push(or(lt(sales.createdAt, createdAt), and(eq(sales.createdAt, createdAt), lt(sales.id, id))) as SQL);
  }
  return db
    .select({
      id: sales.id,
      status: sales.status,
      amountClp: sales.amountClp,
      testPayment: sales.testPayment,
      createdAt: sales.createdAt,
      paidAt: sales.paidAt,
      holderFirstName: sql<string | null>`${sales.purchase}->'travellers'->0->>'firstName'`,
      holderLastName: sql<string | null>`${sales.purchase}->'travellers'->0->>'lastName'`,
      travellers: sql<number | null>`jsonb_array_length(${sales.purchase}->'travellers')`,
      plan: sql<string | null>`${sales.purchase}->'plan'->>'label'`,
      departureDate: sql<string | null>`${sales.purchase}->'trip'->>'departureDate'`,
    })
    .from(sales)
    .where(and(...conditions))
    .orderBy(desc(sales.createdAt), desc(sales.id))
    .limit(limit);
}

/** A sale's row for the console (any status), or undefined. */
export async function findSaleForConsole(db: Database, saleId: number) {
  const [row] = await db.select().from(sales).where(eq(sales.id, saleId));
  return row;
}

/** A sale's payments (every attempt), oldest first. */
export function listPaymentsOfSale(db: Database, saleId: number) {
  return db
    .select()
    .from(payments)
    .where(eq(payments.saleId, saleId))
    .orderBy(asc(payments.createdAt), asc(payments.id));
}

/** A sale's date changes, oldest first. */
export function listDateChangesOfSale(db: Database, saleId: number) {
  return db.select().from(saleDateChanges).where(eq(saleDateChanges.saleId, saleId)).orderBy(asc(saleDateChanges.id));
}

/**
 * Writes a corrected traveller into the paid sale's purchase snapshot (what certificates, receipts and «Mi compra»
 * print), inside the caller's transaction; answers whether the snapshot named that traveller.
 */
export async function correctPurchaseTraveller(
  tx: Database,
  saleId: number,
  seq: number,
  correction: { firstName: string; lastName: string; documentType: number; documentNumber: string },
): Promise<boolean> {
  const [row] = await tx.select({ purchase: sales.purchase }).from(sales).where(eq(sales.id, saleId));
  const purchase = row?.purchase;
  if (!purchase?.travellers.some((person) => person.seq === seq)) return false;
  const travellers = purchase.travellers.map((person) => (person.seq === seq ? { ...person, ...correction } : person));
  await tx
    .update(sales)
    .set({ purchase: { ...purchase, travellers } })
    .where(eq(sales.id, saleId));
  return true;
}
