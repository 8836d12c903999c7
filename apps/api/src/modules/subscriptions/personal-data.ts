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
