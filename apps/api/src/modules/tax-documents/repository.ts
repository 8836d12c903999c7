import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { taxDocuments } from './tables.ts';

/** The tax-documents module's only reader and writer of its tables (ADR 009). */

export type TaxDocumentRow = typeof taxDocuments.$inferSelect;
export type NewTaxDocument = typeof taxDocuments.$inferInsert;

/** Inserts a pending document unless its source key exists; answers the row (new or existing). */
export async function insertPendingDocument(
  tx: Database,
  values: NewTaxDocument,
): Promise<{ row: TaxDocumentRow; created: boolean }> {
  const [created] = await tx.insert(taxDocuments).values(values).onConflictDoNothing().returning();
  if (created) return { row: created, created: true };
  const [existing] = await tx.select().from(taxDocuments).where(eq(taxDocuments.sourceKey, values.sourceKey));
  if (!existing) throw new Error(`Tax document ${values.sourceKey} neither inserted nor found`);
  return { row: existing, created: false };
}

export async function findDocument(db: Database, id: number): Promise<TaxDocumentRow | undefined> {
  const [row] = await db.select().from(taxDocuments).where(eq(taxDocuments.id, id));
  return row;
}

/** The sale document (not a credit note) of a payment, if any. */
export async function findSaleDocumentOfPayment(db: Database, paymentId: number): Promise<TaxDocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(taxDocuments)
    .where(and(eq(taxDocuments.paymentId, paymentId), ne(taxDocuments.type, 61)));
  return row;
}

export function listDocumentsOfSale(db: Database, saleId: number): Promise<TaxDocumentRow[]> {
  return db.select().from(taxDocuments).where(eq(taxDocuments.saleId, saleId)).orderBy(asc(taxDocuments.id));
}

export async function markIssued(
  db: Database,
  id: number,
  issued: { folio: number; provider: string; providerId: string; pdfKey: string; xmlKey: string },
): Promise<boolean> {
  const rows = await db
    .update(taxDocuments)
    .set({ ...issued, state: 'emitido', lastError: null, issuedAt: new Date(), tries: sql`${taxDocuments.tries} + 1` })
    .where(and(eq(taxDocuments.id, id), ne(taxDocuments.state, 'emitido')))
    .returning({ id: taxDocuments.id });
  return rows.length > 0;
}

/** Records a failed try: its error in words; `failed` marks it fallido (given up until an operator retries). */
export async function markTryFailed(db: Database, id: number, lastError: string, failed: boolean) {
  await db
    .update(taxDocuments)
    .set({ lastError, tries: sql`${taxDocuments.tries} + 1`, ...(failed ? { state: 'fallido' as const } : {}) })
    .where(and(eq(taxDocuments.id, id), ne(taxDocuments.state, 'emitido')));
}

/** fallido → pendiente (an operator's retry); answers the row as it was, or undefined when it was not fallido. */
export async function reopenFailed(tx: Database, id: number): Promise<TaxDocumentRow | undefined> {
  const [before] = await tx
    .select()
    .from(taxDocuments)
    .where(and(eq(taxDocuments.id, id), eq(taxDocuments.state, 'fallido')))
    .for('update');
  if (!before) return undefined;
  await tx.update(taxDocuments).set({ state: 'pendiente' }).where(eq(taxDocuments.id, id));
  return before;
}

/** Documents not issued: fallido, or pending after `minTries` tries (the console's «Hoy»). */
export function listNotIssued(db: Database, minTries: number, limit = 50): Promise<TaxDocumentRow[]> {
  return db
    .select()
    .from(taxDocuments)
    .where(
      sql`${taxDocuments.state} = 'fallido' or (${taxDocuments.state} = 'pendiente' and ${taxDocuments.tries} >= ${minTries})`,
    )
    .orderBy(asc(taxDocuments.createdAt))
    .limit(limit);
}

export async function countNotIssued(db: Database, minTries: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(taxDocuments)
    .where(
      sql`${taxDocuments.state} = 'fallido' or (${taxDocuments.state} = 'pendiente' and ${taxDocuments.tries} >= ${minTries})`,
    );
  return row?.n ?? 0;
}

/** The next folio of the local adapter (a shared sequence: unique across processes and restarts). */
export async function nextLocalFolio(db: Database): Promise<number> {
  const result = await db.execute(sql`select nextval('tax_documents_local_folio') as folio`);
  const folio = Number((result as unknown as { rows: { folio: string }[] }).rows[0]?.folio);
  if (!Number.isInteger(folio)) throw new Error('The local folio sequence answered no number');
  return folio;
}
