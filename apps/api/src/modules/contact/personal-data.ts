import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { anonymised } from '#app/lib/personal-data.ts';
import { contactRequests } from './tables.ts';

/** The personal fields of a contact request, replaced. */
const contactAnonymised = { fullName: anonymised, email: anonymised, phone: anonymised, detail: anonymised } as const;

/** The contact requests sent from the e-mail (trimmed, lower case). */
export async function contactRequestsOfEmail(db: Database, companyId: number, email: string) {
  return db
    .select()
    .from(contactRequests)
    .where(and(eq(contactRequests.companyId, companyId), sql`lower(trim(${contactRequests.email})) = ${email}`))
    .orderBy(desc(contactRequests.id))
    .limit(500);
}

export async function anonymiseContactRequests(db: Database, ids: number[]) {
  if (ids.length === 0) return;
  await db.update(contactRequests).set(contactAnonymised).where(inArray(contactRequests.id, ids));
}

/**
 * The retention rule: contact requests received before `before`, closed (answered or handled) and not yet
 * anonymised, are anonymised.
 */
export async function anonymiseContactRequestsBefore(db: Database, before: Date) {
  // Only closed requests (answered or handled): one nobody answered yet is kept, whatever its age, until someone does.
  const retainedCondition = and(
    lt(contactRequests.createdAt, before),
    ne(contactRequests.email, anonymised),
    inArray(contactRequests.state, ['answered', 'handled']),
  );
  return db
    .update(contactRequests)
    .set(contactAnonymised)
    .where(retainedCondition)
    .returning({ id: contactRequests.id });
}

/** A contact request's name and/or e-mail corrected (a rectification): the row before and after, or none. */
export async function rectifyContactRequest(
  db: Database,
  companyId: number,
  id: number,
  change: { fullName?: string | undefined; email?: string | undefined },
) {
  const [before] = await db
    .select()
    .from(contactRequests)
    .where(and(eq(contactRequests.id, id), eq(contactRequests.companyId, companyId)))
    .for('update');
  if (!before) return undefined;
  const [after] = await db
    .update(contactRequests)
    .set({
      ...(change.fullName ? { fullName: change.fullName } : {}),
      ...(change.email ? { email: change.email } : {}),
    })
    .where(eq(contactRequests.id, id))
    .returning();
  return after ? { before, after } : undefined;
}
