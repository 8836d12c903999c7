import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { subscriptions } from './tables.ts';

/** The newsletter subscription of the e-mail (stored lower case), if any. */
export async function subscriptionsOfEmail(db: Database, companyId: number, email: string) {
  return db
    .select({
      id: subscriptions.id,
      email: subscriptions.email,
      createdAt: subscriptions.createdAt,
      confirmedAt: subscriptions.confirmedAt,
    })
    .from(subscriptions)
    .where(and(eq(subscriptions.companyId, companyId), eq(subscriptions.email, email)));
}

/** An erased subscription is deleted: a subscription is nothing but the address. */
export async function deleteSubscriptions(db: Database, ids: number[]) {
  if (ids.length === 0) return;
  await db.delete(subscriptions).where(inArray(subscriptions.id, ids));
}

/**
 * A subscription's address corrected (a rectification): the row before and after; none when it does not exist;
 * `taken` when the company already has the new address.
 */
export async function rectifySubscriptionEmail(db: Database, companyId: number, id: number, email: string) {
  const [before] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, id), eq(subscriptions.companyId, companyId)))
    .for('update');
  if (!before) return undefined;
  const [other] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.companyId, companyId), eq(subscriptions.email, email)));
  if (other && other.id !== id) return 'taken' as const;
  const [after] = await db.update(subscriptions).set({ email }).where(eq(subscriptions.id, id)).returning();
  return after ? { before: { id, email: before.email }, after: { id, email: after.email } } : undefined;
}
