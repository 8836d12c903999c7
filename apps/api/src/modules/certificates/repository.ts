import { asc, eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { travellers } from '#app/modules/passengers/tables.ts';
import { sales } from '#app/modules/payments/tables.ts';
import { certificates } from './tables.ts';

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
