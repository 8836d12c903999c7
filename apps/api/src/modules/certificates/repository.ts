import { eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { listTravellerRows, listTravellersByIds } from '#app/modules/passengers/service.ts';
import { certificates } from './tables.ts';

/**
 * Issues one certificate per traveller of a sale; called inside the transaction that marks the sale paid, so a
 * paid sale always has its certificates (and never twice: unique per sale and traveller).
 */
export async function issueCertificates(tx: Database, saleId: number, quotationId: string, year: number) {
  const people = await listTravellerRows(tx, quotationId);
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

/** The sale's certificates with the travellers they name (from the passengers module), in seq order. */
export async function listCertificatesOfSale(db: Database, saleId: number) {
  const issued = await db
    .select({ number: certificates.number, travellerId: certificates.travellerId })
    .from(certificates)
    .where(eq(certificates.saleId, saleId));
  const numberOf = new Map(issued.map((certificate) => [certificate.travellerId, certificate.number]));
  const people = await listTravellersByIds(db, [...numberOf.keys()]);
  return people.map((person) => ({
    number: numberOf.get(person.id) ?? '',
    travellerId: person.id,
    seq: person.seq,
    firstName: person.firstName,
    lastName: person.lastName,
    documentType: person.documentType,
    documentNumber: person.documentNumber,
    birthDate: person.birthDate,
    email: person.email,
  }));
}
