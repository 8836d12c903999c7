import { and, desc, eq, gt, isNotNull, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { subscriptions } from './tables.ts';

/** At most one confirmation e-mail per address in this many seconds, however often it subscribes. */
export const confirmationResendSeconds = 60 * 60;

/**
 * Stores the address as pending with `token` (or keeps it as it is when confirmed). Answers the row's id when a
 * confirmation e-mail is due: a new address, or a pending one whose last e-mail is over an hour old. A pending
 * address whose link is still alive keeps its token (the link already sent keeps working); an expired one gets
 * `token`.
 */
export async function storePending(
  db: Database,
  values: { companyId: number; email: string; token: string; expiresAt: Date },
): Promise<number | undefined> {
  const stillAlive = sql`${subscriptions.confirmationExpiresAt} > now()`;
  const [row] = await db
    .insert(subscriptions)
    .values({
      companyId: values.companyId,
      email: values.email,
      confirmationToken: values.token,
      confirmationExpiresAt: values.expiresAt,
      confirmationSentAt: sql`now()`,
    })
    .onConflictDoUpdate({
      target: [subscriptions.companyId, subscriptions.email],
      set: {
        confirmationToken: sql`CASE WHEN ${stillAlive} THEN ${subscriptions.confirmationToken} ELSE excluded.confirmation_token END`,
        confirmationExpiresAt: sql`CASE WHEN ${stillAlive} THEN ${subscriptions.confirmationExpiresAt} ELSE excluded.confirmation_expires_at END`,
        confirmationSentAt: sql`now()`,
      },
      setWhere: and(
        isNull(subscriptions.confirmedAt),
        or(
          isNull(subscriptions.confirmationSentAt),
          lte(subscriptions.confirmationSentAt, sql`now() - make_interval(secs => ${confirmationResendSeconds})`),
        ),
      ),
    })
    .returning({ id: subscriptions.id });
  return row?.id;
}

/** The pending subscription a confirmation e-mail is for (none once confirmed, or without a token). */
export async function findPending(db: Database, id: number) {
  const [row] = await db
    .select({ companyId: subscriptions.companyId, email: subscriptions.email, token: subscriptions.confirmationToken })
    .from(subscriptions)
    .where(
      and(eq(subscriptions.id, id), isNull(subscriptions.confirmedAt), isNotNull(subscriptions.confirmationToken)),
    );
  return row?.token ? { companyId: row.companyId, email: row.email, token: row.token } : undefined;
}

/**
 * Confirms the company's subscription whose link carries `token`, while the link is alive; a confirmed one answers
 * again to its own link. Answers whether the token named one.
 */
export async function confirm(db: Database, companyId: number, token: string): Promise<boolean> {
  const updated = await db
    .update(subscriptions)
    .set({ confirmedAt: sql`coalesce(${subscriptions.confirmedAt}, now())` })
    .where(
      and(
        eq(subscriptions.companyId, companyId),
        eq(subscriptions.confirmationToken, token),
        or(isNotNull(subscriptions.confirmedAt), gt(subscriptions.confirmationExpiresAt, sql`now()`)),
      ),
    )
    .returning({ id: subscriptions.id });
  return updated.length > 0;
}

/** The company's subscribers: confirmed addresses only, oldest first. */
export async function listConfirmed(db: Database, companyId: number): Promise<string[]> {
  const rows = await db
    .select({ email: subscriptions.email })
    .from(subscriptions)
    .where(and(eq(subscriptions.companyId, companyId), isNotNull(subscriptions.confirmedAt)))
    .orderBy(subscriptions.id);
  return rows.map((row) => row.email);
}

export type SubscriberFilter = {
  state?: 'confirmed' | 'pending';
  /** Part of the address (addresses are stored lower-cased). */
  email?: string;
  /** The id of the last subscriber of the previous page: older ones. */
  afterId?: number;
};

/** The console's list of subscribers (issue 24 screen 6): newest first, `limit` at most, keyset pagination on the id. */
export function listSubscriptions(db: Database, filter: SubscriberFilter, limit: number) {
  const conditions: SQL[] = [];
  if (filter.state === 'confirmed') conditions.push(isNotNull(subscriptions.confirmedAt));
  if (filter.state === 'pending') conditions.push(isNull(subscriptions.confirmedAt));
  if (filter.email) conditions.push(sql`strpos(${subscriptions.email}, ${filter.email.toLowerCase()}) > 0`);
  if (filter.afterId !== undefined) conditions.push(lt(subscriptions.id, filter.afterId));
  return db
    .select({
      id: subscriptions.id,
      companyId: subscriptions.companyId,
      email: subscriptions.email,
      createdAt: subscriptions.createdAt,
      confirmedAt: subscriptions.confirmedAt,
    })
    .from(subscriptions)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(subscriptions.id))
    .limit(limit);
}

export type SubscriptionSummary = Awaited<ReturnType<typeof listSubscriptions>>[number];

/** Removes a subscription (an unsubscribe from the console): answers the row as it was, or nothing if already gone. */
export async function deleteSubscription(db: Database, id: number): Promise<SubscriptionSummary | undefined> {
  const [row] = await db.delete(subscriptions).where(eq(subscriptions.id, id)).returning({
    id: subscriptions.id,
    companyId: subscriptions.companyId,
    email: subscriptions.email,
    createdAt: subscriptions.createdAt,
    confirmedAt: subscriptions.confirmedAt,
  });
  return row;
}
