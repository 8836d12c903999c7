import { eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { quotations } from './tables.ts';

/**
 * The one lock of a purchase: the quotation's row (this module's half, lockQuotation below). Every write that
 * changes what would be bought (the trip, the plan, the travellers), every payment start, every claim of an attempt
 * and the transaction that makes a sale paid take it first, inside their transaction, so they run one after another
 * on PostgreSQL's parallel connections. The payments module completes it with the sale's state (the one owner of
 * «paid», docs/decisions/010-one-owner-of-paid.md) and hands it out as a `PurchaseLock`
 * (modules/payments/purchase-lock.ts); the modules below payments receive that handle, never the lock's code
 * (docs/decisions/015-purchase-workflow.md). With it held, three facts are checked and kept together:
 * - a paid quotation never changes again;
 * - while an attempt is being confirmed with the gateway (`confirming`), nothing it priced can change;
 * - a change voids the attempts still open (`pending`) in the same transaction, so they can never be committed.
 */
export type PurchaseLock = {
  /** The transaction that holds the lock: every write of the change goes through it. */
  tx: Database;
  quotation: { version: number };
  /** The quotation's sale (none before the first payment attempt). */
  sale: { id: number } | undefined;
  paid: boolean;
  /** An attempt of the sale is being confirmed with the gateway right now. */
  confirming: boolean;
  /** Voids the sale's open attempts: a return for them is never committed (Webpay reverses what it is not asked). */
  voidOpenAttempts: (detail: string) => Promise<void>;
};

/** Takes the purchase lock inside `tx` (until the transaction ends); undefined for an unknown quotation. */
export type LockPurchase = (tx: Database, quotationId: string) => Promise<PurchaseLock | undefined>;

export type Refusal = 'paid' | 'confirming';

/** Why a write to the purchase must be refused, if it must: already paid, or a payment is being confirmed. */
export function refusalToChange(lock: Pick<PurchaseLock, 'paid' | 'confirming'>): Refusal | null {
  if (lock.paid) return 'paid';
  return lock.confirming ? 'confirming' : null;
}

/** What the visitor reads when a change arrives while a payment of the purchase is being confirmed. */
export const confirmingMessage = 'Estamos confirmando un pago de esta compra; espera su resultado antes de modificarla';

export const changedAfterStartDetail = 'La compra cambió después de iniciar este pago';

/**
 * A change of what would be bought, in one transaction under the purchase lock: refused (nothing written) once paid
 * or while a payment is being confirmed (an unknown quotation reads as paid: nothing to change); otherwise the
 * attempts still open are voided and `write` runs with the lock held.
 */
export async function changeUnderPurchaseLock(
  db: Database,
  lockPurchase: LockPurchase,
  quotationId: string,
  write: (lock: PurchaseLock) => Promise<void>,
): Promise<{ refused: Refusal } | undefined> {
  return db.transaction(async (txn) => {
    const lock = await lockPurchase(txn as unknown as Database, quotationId);
    if (!lock) return { refused: 'paid' as const };
    const refusal = refusalToChange(lock);
    if (refusal) return { refused: refusal };
    await lock.voidOpenAttempts(changedAfterStartDetail);
    await write(lock);
    return undefined;
  });
}

/**
 * The quotation's half of the purchase lock: its row, locked until the caller's transaction ends; undefined for an
 * unknown quotation.
 */
export async function lockQuotation(tx: Database, quotationId: string) {
  const [row] = await tx
    .select({ version: quotations.version })
    .from(quotations)
    .where(eq(quotations.id, quotationId))
    .for('no key update');
  return row;
}
