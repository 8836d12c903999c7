import { eq, lt, sql } from 'drizzle-orm';
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

/** The console's «Hoy» (issue 24): contact requests received before `before` (no reply is recorded yet). */
export async function countContactRequestsBefore(db: Database, before: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(contactRequests)
    .where(lt(contactRequests.createdAt, before));
  return row?.count ?? 0;
}
