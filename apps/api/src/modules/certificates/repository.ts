import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { travellers } from '#app/modules/passengers/tables.ts';
import { sales } from '#app/modules/payments/tables.ts';
import { certificates, outboxEmails } from './tables.ts';

/**
 * Issues one certificate per traveller of a sale; called inside the transaction that marks the sale paid, so a
 * paid sale always has its certificates (and never twice: unique per sale and traveller).
 */
export async function issueCertificates(tx: Database, saleId: number, quotationId: string, year: number) {
  const people = await tx
    .select({ id: travellers.id, seq: travellers.seq })
    .from(travellers)
    .where(eq(travellers.quotationId, quotationId))
    .orderBy(asc(travellers.seq));
  if (people.length === 0) return;
  await tx
    .insert(certificates)
    .values(
      people.map((person) => ({
        saleId,
        travellerId: person.id,
        number: `TRV-${year}-${String(saleId).padStart(9, '0')}-${person.seq}`,
      })),
    )
    .onConflictDoNothing();
}

export function listCertificatesOfSale(db: Database, saleId: number) {
  return db
    .select({
      number: certificates.number,
      travellerId: travellers.id,
      seq: travellers.seq,
      firstName: travellers.firstName,
      lastName: travellers.lastName,
      documentType: travellers.documentType,
      documentNumber: travellers.documentNumber,
      birthDate: travellers.birthDate,
      email: travellers.email,
    })
    .from(certificates)
    .innerJoin(travellers, eq(travellers.id, certificates.travellerId))
    .where(eq(certificates.saleId, saleId))
    .orderBy(asc(travellers.seq));
}

export async function findSale(db: Database, saleId: number) {
  const [row] = await db.select().from(sales).where(eq(sales.id, saleId));
  return row;
}

export async function findSaleOfQuotation(db: Database, quotationId: string) {
  const [row] = await db.select().from(sales).where(eq(sales.quotationId, quotationId));
  return row;
}

/** Queues an e-mail; with a dedupe key, queuing the same one twice keeps one. */
export async function enqueueEmail(db: Database, values: { kind: string; saleId: number; dedupeKey: string | null }) {
  await db.insert(outboxEmails).values(values).onConflictDoNothing();
}

/**
 * Leases up to `limit` due e-mails: their run_after moves into the future so no other worker takes them while
 * this one sends; SKIP LOCKED lets several API processes share the queue.
 */
export async function leaseDueEmails(db: Database, limit: number, leaseSeconds: number) {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.status, 'pending'), lte(outboxEmails.runAfter, new Date())))
      .orderBy(asc(outboxEmails.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    for (const row of due) {
      await tx
        .update(outboxEmails)
        .set({
          attempts: sql`${outboxEmails.attempts} + 1`,
          runAfter: new Date(Date.now() + leaseSeconds * 1000),
        })
        .where(eq(outboxEmails.id, row.id));
    }
    return due;
  });
}

export async function markEmailSent(db: Database, id: number) {
  await db
    .update(outboxEmails)
    .set({ status: 'sent', sentAt: new Date(), lastError: null })
    .where(eq(outboxEmails.id, id));
}

export async function markEmailFailed(
  db: Database,
  id: number,
  error: string,
  giveUp: boolean,
  retryInSeconds: number,
) {
  await db
    .update(outboxEmails)
    .set({
      status: giveUp ? 'failed' : 'pending',
      lastError: error.slice(0, 500),
      runAfter: new Date(Date.now() + retryInSeconds * 1000),
    })
    .where(eq(outboxEmails.id, id));
}

export function listEmailsOfSale(db: Database, saleId: number) {
  return db.select().from(outboxEmails).where(eq(outboxEmails.saleId, saleId)).orderBy(asc(outboxEmails.id));
}
