import { documentKey } from '@travesia/domain/refunds';
import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { anonymised, type Person } from '#app/lib/personal-data.ts';
import { refundFiles, refundRequests } from './tables.ts';

/** Claims in these states are closed: nothing more will be paid or asked. */
export const closedClaimStatuses = ['pagada', 'rechazada'] as const;

/** The personal fields and free text of a closed claim, replaced (amounts, dates and its number stay for the books). */
const claimAnonymised = {
  holderName: anonymised,
  documentNumber: anonymised,
  documentKey: anonymised,
  email: anonymised,
  phone: anonymised,
  description: anonymised,
  accountNumber: anonymised,
  rejectionReason: null,
  missingDocuments: null,
} as const;

/** The person's claims (by e-mail, or document key) with their documents' names. */
export async function claimsOfPerson(db: Database, companyId: number, person: Person) {
  const rows = await db
    .select()
    .from(refundRequests)
    .where(
      and(
        eq(refundRequests.companyId, companyId),
        'email' in person
          ? sql`lower(trim(${refundRequests.email})) = ${person.email}`
          : eq(refundRequests.documentKey, documentKey(person.document)),
      ),
    )
    .orderBy(desc(refundRequests.id))
    .limit(500);
  const files = rows.length
    ? await db
        .select({ id: refundFiles.id, requestId: refundFiles.requestId, fileName: refundFiles.fileName })
        .from(refundFiles)
        .where(
          inArray(
            refundFiles.requestId,
            rows.map((row) => row.id),
          ),
        )
    : [];
  return rows.map((row) => ({
    ...row,
    closed: (closedClaimStatuses as readonly string[]).includes(row.status),
    documents: files.filter((file) => file.requestId === row.id).map(({ id, fileName }) => ({ id, fileName })),
  }));
}

/** Deletes the claims' document rows; answers their store keys (for the caller to delete after commit). */
async function deleteClaimDocuments(db: Database, claimIds: number[]) {
  if (claimIds.length === 0) return [];
  const removed = await db
    .delete(refundFiles)
    .where(inArray(refundFiles.requestId, claimIds))
    .returning({ storageKey: refundFiles.storageKey });
  return removed.map((row) => row.storageKey);
}

/** Anonymises the given closed claims and deletes their document rows; answers the store keys to delete. */
export async function anonymiseClosedClaims(db: Database, ids: number[]) {
  if (ids.length === 0) return [];
  await db
    .update(refundRequests)
    .set(claimAnonymised)
    .where(and(inArray(refundRequests.id, ids), inArray(refundRequests.status, [...closedClaimStatuses])));
  return deleteClaimDocuments(db, ids);
}

/** The retention rule: closed claims last changed before `before`, not yet anonymised. */
export async function anonymiseClosedClaimsBefore(db: Database, before: Date) {
  const rows = await db
    .update(refundRequests)
    .set(claimAnonymised)
    .where(
      and(
        lt(refundRequests.updatedAt, before),
        inArray(refundRequests.status, [...closedClaimStatuses]),
        ne(refundRequests.email, anonymised),
      ),
    )
    .returning({ id: refundRequests.id });
  const ids = rows.map((row) => row.id);
  return { ids, keys: await deleteClaimDocuments(db, ids) };
}
