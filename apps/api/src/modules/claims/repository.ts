import { and, asc, eq, gt, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { refundEvents, refundFiles, refundRequests } from './tables.ts';

export type ClaimRow = typeof refundRequests.$inferSelect;
export type NewClaim = typeof refundRequests.$inferInsert;
/** A document of a request: what it is, and where its bytes are in the document store. */
export type StoredFile = { fileName: string; contentType: string; size: number; storageKey: string };

/**
 * Stores a request and its files in one transaction: both are there, or neither is. A request number that is taken
 * already (40 random bits: it practically never happens) fails with a unique violation; the service tries another.
 */
export async function insertRequestWithFiles(
  db: Database,
  request: NewClaim,
  /** The request's documents, found in the same transaction (uploads are taken there: modules/claims/uploads.ts). */
  filesFor: (tx: Database) => Promise<StoredFile[]>,
  /** More work of the same transaction (queuing the e-mails). */
  alsoInTransaction: (tx: Database, row: ClaimRow) => Promise<void>,
): Promise<ClaimRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(refundRequests).values(request).returning();
    if (!row) throw new Error('The refund request was not stored');
    await insertFiles(tx, row.id, await filesFor(tx));
    await alsoInTransaction(tx, row);
    return row;
  });
}

export async function findRequestById(db: Database, id: number): Promise<ClaimRow | undefined> {
  const [row] = await db.select().from(refundRequests).where(eq(refundRequests.id, id));
  return row;
}

async function insertFiles(tx: Database, requestId: number, files: StoredFile[]) {
  if (files.length === 0) return;
  await tx.insert(refundFiles).values(files.map((file) => ({ requestId, ...file })));
}

export async function findRequest(db: Database, companyId: number, number: string): Promise<ClaimRow | undefined> {
  const [row] = await db
    .select()
    .from(refundRequests)
    .where(and(eq(refundRequests.companyId, companyId), eq(refundRequests.number, number)));
  return row;
}

export async function findRequestByNumber(db: Database, number: string): Promise<ClaimRow | undefined> {
  const [row] = await db.select().from(refundRequests).where(eq(refundRequests.number, number));
  return row;
}

/** The request's row locked for the rest of the transaction, so two changes of its status happen one after the other. */
export async function lockRequest(tx: Database, id: number): Promise<ClaimRow | undefined> {
  const [row] = await tx.select().from(refundRequests).where(eq(refundRequests.id, id)).for('update');
  return row;
}

export async function updateStatus(
  tx: Database,
  id: number,
  change: Pick<ClaimRow, 'status' | 'approvedAmount' | 'rejectionReason' | 'missingDocuments'> &
    Partial<Pick<ClaimRow, 'paidAmountClp'>>,
) {
  await tx
    .update(refundRequests)
    .set({ ...change, version: sql`${refundRequests.version} + 1`, updatedAt: sql`now()` })
    .where(eq(refundRequests.id, id));
}

/** Sets who handles the request; its version grows. */
export async function updateAssignee(tx: Database, id: number, operatorId: string | null, label: string | null) {
  await tx
    .update(refundRequests)
    .set({
      assignedOperatorId: operatorId,
      assignedOperatorLabel: label,
      version: sql`${refundRequests.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(refundRequests.id, id));
}

export type ClaimEvent = typeof refundEvents.$inferSelect;

export async function insertEvent(tx: Database, event: typeof refundEvents.$inferInsert) {
  await tx.insert(refundEvents).values(event);
}

/** The request's history, oldest first. */
export async function listEvents(db: Database, requestId: number): Promise<ClaimEvent[]> {
  return db.select().from(refundEvents).where(eq(refundEvents.requestId, requestId)).orderBy(asc(refundEvents.id));
}

export async function countNotes(db: Database, requestId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(refundEvents)
    .where(and(eq(refundEvents.requestId, requestId), eq(refundEvents.kind, 'note')));
  return row?.count ?? 0;
}

/** The console's inbox filters (issue 24): statuses, the assignee, received before an instant, after a cursor. */
export type InboxFilter = {
  statuses?: readonly string[];
  /** An operator's id, or `null` for the unassigned ones. */
  assignedTo?: string | null;
  receivedBefore?: Date;
  /** The id of the last request of the previous page: the oldest come first, so the next page has greater ids. */
  after?: number;
};

/** The inbox, oldest request first (those waiting longest), `limit` at most: keyset pagination on the id. */
export async function searchRequests(db: Database, filter: InboxFilter, limit: number) {
  const conditions: SQL[] = [];
  if (filter.statuses && filter.statuses.length > 0)
    conditions.push(inArray(refundRequests.status, [...filter.statuses]));
  if (filter.assignedTo === null) conditions.push(isNull(refundRequests.assignedOperatorId));
  else if (filter.assignedTo !== undefined) conditions.push(eq(refundRequests.assignedOperatorId, filter.assignedTo));
  if (filter.receivedBefore) conditions.push(lte(refundRequests.createdAt, filter.receivedBefore));
  if (filter.after !== undefined) conditions.push(gt(refundRequests.id, filter.after));
  return db
    .select({
      id: refundRequests.id,
      number: refundRequests.number,
      status: refundRequests.status,
      holderName: refundRequests.holderName,
      certificateNumber: refundRequests.certificateNumber,
      amount: refundRequests.amount,
      currency: refundRequests.currency,
      assignedOperatorLabel: refundRequests.assignedOperatorLabel,
      createdAt: refundRequests.createdAt,
      updatedAt: refundRequests.updatedAt,
    })
    .from(refundRequests)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(asc(refundRequests.id))
    .limit(limit);
}

/** One document of a request by its id, with where its bytes are (the console's signed links). */
export async function findStoredFile(db: Database, fileId: number) {
  const [row] = await db
    .select({
      id: refundFiles.id,
      requestId: refundFiles.requestId,
      fileName: refundFiles.fileName,
      contentType: refundFiles.contentType,
      size: refundFiles.size,
      storageKey: refundFiles.storageKey,
    })
    .from(refundFiles)
    .where(eq(refundFiles.id, fileId));
  return row;
}

export { insertFiles };

export async function listFiles(db: Database, requestId: number) {
  return db
    .select({
      id: refundFiles.id,
      fileName: refundFiles.fileName,
      contentType: refundFiles.contentType,
      size: refundFiles.size,
      createdAt: refundFiles.createdAt,
    })
    .from(refundFiles)
    .where(eq(refundFiles.requestId, requestId))
    .orderBy(asc(refundFiles.id));
}

/** The request's documents with where their bytes are (the operator's export reads them from the store). */
export async function listStoredFiles(db: Database, requestId: number) {
  return db
    .select({
      fileName: refundFiles.fileName,
      contentType: refundFiles.contentType,
      size: refundFiles.size,
      storageKey: refundFiles.storageKey,
    })
    .from(refundFiles)
    .where(eq(refundFiles.requestId, requestId))
    .orderBy(asc(refundFiles.id));
}

/** The statuses a claim waits for the insurer in: «Hoy»'s figure and the console inbox's `waiting` filter. */
export const waitingStatuses = ['recibida', 'en_revision'] as const;

/** The console's «Hoy» (issue 24): claims waiting for the insurer (received or under review). */
export async function countClaimsWaiting(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(refundRequests)
    .where(inArray(refundRequests.status, [...waitingStatuses]));
  return row?.count ?? 0;
}
