import { and, desc, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { contactRequests } from './tables.ts';

export type ContactRequestRow = typeof contactRequests.$inferSelect;
export type NewContactRequest = typeof contactRequests.$inferInsert;

/** Stores a request and, in the same transaction, whatever `andThen` queues for it: both or neither. */
export function insertContactRequest(
  db: Database,
  values: NewContactRequest,
  andThen: (tx: Database, id: number) => Promise<unknown>,
): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(contactRequests).values(values).returning({ id: contactRequests.id });
    if (!row) throw new Error('The contact request was not stored');
    await andThen(tx, row.id);
    return row.id;
  });
}

export async function findContactRequest(db: Database, id: number): Promise<ContactRequestRow | undefined> {
  const [row] = await db.select().from(contactRequests).where(eq(contactRequests.id, id));
  return row;
}

/** The console's states of a request (issue 24 screen 5): `answered` and `handled` are final. */
export const contactRequestStates = ['unanswered', 'answered', 'handled'] as const;
export type ContactRequestState = (typeof contactRequestStates)[number];

export type ContactRequestFilter = {
  state?: ContactRequestState;
  /** Received before this instant (the inbox's «age» filter). */
  receivedBefore?: Date;
  /** The id of the last request of the previous page: requests older than it. */
  afterId?: number;
};

/** The console's inbox: newest first, `limit` at most, keyset pagination on the id. */
export function listContactRequests(db: Database, filter: ContactRequestFilter, limit: number) {
  const conditions: SQL[] = [];
  if (filter.state) conditions.push(eq(contactRequests.state, filter.state));
  if (filter.receivedBefore) conditions.push(lt(contactRequests.createdAt, filter.receivedBefore));
  if (filter.afterId !== undefined) conditions.push(lt(contactRequests.id, filter.afterId));
  return db
    .select()
    .from(contactRequests)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(contactRequests.id))
    .limit(limit);
}

export type Closing = {
  state: Exclude<ContactRequestState, 'unanswered'>;
  reply: string | null;
  at: Date;
  operatorId: string | null;
  name: string | null;
  label: string;
};

/**
 * Answers or handles an unanswered request, in one conditional UPDATE: of two operators at once, the second finds it
 * no longer unanswered (PostgreSQL re-reads the row after the first commits) and gets nothing back.
 */
export async function closeContactRequest(db: Database, id: number, closing: Closing) {
  const [row] = await db
    .update(contactRequests)
    .set({
      state: closing.state,
      reply: closing.reply,
      closedAt: closing.at,
      closedByOperatorId: closing.operatorId,
      closedByName: closing.name,
      closedByLabel: closing.label,
    })
    .where(and(eq(contactRequests.id, id), eq(contactRequests.state, 'unanswered')))
    .returning();
  return row;
}

/** The console's «Hoy» (issue 24): unanswered contact requests received before `before`. */
export async function countUnansweredBefore(db: Database, before: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(contactRequests)
    .where(and(eq(contactRequests.state, 'unanswered'), lt(contactRequests.createdAt, before)));
  return row?.count ?? 0;
}
