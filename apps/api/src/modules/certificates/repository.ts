import { randomBytes } from 'node:crypto';
import { cleanRut } from '@travesia/domain/rut';
import { and, desc, eq, isNull, like, or, sql } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { listTravellerRows, listTravellersByIds } from '#app/modules/passengers/service.ts';
import { certificateSearchKeys, certificates, certificateVerifications } from './tables.ts';

/**
 * A document number as the search compares it: without dots, dashes or whitespace, in upper case (a RUT in any of
 * its forms). Migration 0012 backfilled the keys of older certificates with the same rule written in SQL.
 */
export const documentSearchKey = (document: string) => cleanRut(document);
/** An e-mail as the search compares it: trimmed, in lower case. */
export const emailSearchKey = (email: string) => email.trim().toLowerCase();
/**
 * A name as the console's sale search compares it: lower case, accents and «ñ» folded (NFD without marks), single
 * spaces. Migration 0023 backfilled older certificates with the same rule written in SQL (translate).
 */
export const nameSearchKey = (name: string) =>
  name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Issues one certificate per traveller of a sale, with the keys the certificate search finds it by; called inside
 * the transaction that marks the sale paid, so a paid sale always has its certificates (and never twice: unique per
 * sale and traveller).
 */
export async function issueCertificates(
  tx: Database,
  sale: { id: number; quotationId: string; companyId: number },
  year: number,
  /**
   * Replacements carry what made them, so numbers stay unique: a date change (…-{seq}-C{change}), a correction of a
   * traveller (…-{seq}-R{version}).
   */
  replacementOf?: `C${number}` | `R${number}`,
) {
  const saleId = sale.id;
  const people = await listTravellerRows(tx, sale.quotationId);
  if (people.length === 0) return;
  const issued = await tx
    .insert(certificates)
    .values(
      people.map((person) => ({
        saleId,
        travellerId: person.id,
        number: `TRV-${year}-${String(saleId).padStart(9, '0')}-${person.seq}${replacementOf ? `-${replacementOf}` : ''}`,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: certificates.id, travellerId: certificates.travellerId });
  const personById = new Map(people.map((person) => [person.id, person]));
  const keys = issued.flatMap((certificate) => {
    const person = personById.get(certificate.travellerId);
    return person
      ? [
          {
            certificateId: certificate.id,
            companyId: sale.companyId,
            document: documentSearchKey(person.documentNumber),
            email: emailSearchKey(person.email),
            name: nameSearchKey(`${person.firstName} ${person.lastName}`),
            surname: nameSearchKey(`${person.lastName} ${person.firstName}`),
          },
        ]
      : [];
  });
  if (keys.length > 0) await tx.insert(certificateSearchKeys).values(keys).onConflictDoNothing();
  // The code of the certificates as paid (version 1); a replacement's comes from replaceVerificationCode. A code
  // clash (50 random bits: practically never) leaves the version without one; its first PDF makes it then.
  if (!replacementOf) {
    await tx
      .insert(certificateVerifications)
      .values({ saleId, version: 1, code: newVerificationCode() })
      .onConflictDoNothing();
  }
}

/**
 * A date change replaced the sale's certificates (inside its transaction): the current code is marked replaced,
 * keeping the dates it certified, and the new version gets a code of its own. Answers the new code.
 */
export async function replaceVerificationCode(
  tx: Database,
  saleId: number,
  certified: { departureDate: string; returnDate: string },
) {
  await tx
    .update(certificateVerifications)
    .set({ replacedAt: sql`now()`, departureDate: certified.departureDate, returnDate: certified.returnDate })
    .where(and(eq(certificateVerifications.saleId, saleId), isNull(certificateVerifications.replacedAt)));
  return currentVerificationCode(tx, saleId);
}

/**
 * Voids the sale's valid certificates (a withdrawal, or their replacement by a date change), inside the caller's
 * transaction; they stay, marked, so their numbers and verification code answer «anulado». Answers how many.
 */
export async function voidCertificatesOfSale(
  tx: Database,
  saleId: number,
  reason: 'withdrawal' | 'date_change' | 'correction',
) {
  const voided = await tx
    .update(certificates)
    .set({ voidedAt: sql`now()`, voidedReason: reason })
    .where(and(eq(certificates.saleId, saleId), isNull(certificates.voidedAt)))
    .returning({ id: certificates.id });
  return voided.length;
}

/**
 * The sale's valid certificates with the travellers they name (from the passengers module), in seq order; with
 * `includeVoided`, voided ones too (each with its voidedAt).
 */
export async function listCertificatesOfSale(db: Database, saleId: number, options: { includeVoided?: boolean } = {}) {
  const issued = await db
    .select({ number: certificates.number, travellerId: certificates.travellerId, voidedAt: certificates.voidedAt })
    .from(certificates)
    .where(
      options.includeVoided
        ? eq(certificates.saleId, saleId)
        : and(eq(certificates.saleId, saleId), isNull(certificates.voidedAt)),
    );
  const numberOf = new Map(issued.map((certificate) => [certificate.travellerId, certificate.number]));
  const voidedOf = new Map(issued.map((certificate) => [certificate.travellerId, certificate.voidedAt]));
  const people = await listTravellersByIds(db, [...numberOf.keys()]);
  return people.map((person) => ({
    number: numberOf.get(person.id) ?? '',
    voidedAt: voidedOf.get(person.id) ?? null,
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

/** Crockford's base32: digits and letters without I, L, O and U, which read alike or spell words. */
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const verificationCodeLength = 10;

/** 10 characters of Crockford base32 from 50 random bits (crypto): a code nobody can guess or enumerate. */
export function newVerificationCode(): string {
  const bytes = randomBytes(verificationCodeLength);
  return Array.from(bytes, (byte) => crockford[byte & 31]).join('');
}

/** A typed code as stored: upper case, without spaces or hyphens, with O read as 0 and I or L as 1 (Crockford). */
export function normaliseVerificationCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/**
 * The code of the sale's current certificates: made now when they have none yet (a sale paid before codes existed, a
 * clash, or the current certificates of a sale whose only code migration 0019 marked replaced), as the next version.
 */
export async function currentVerificationCode(db: Database, saleId: number): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const [row] = await db
      .select({ code: certificateVerifications.code })
      .from(certificateVerifications)
      .where(and(eq(certificateVerifications.saleId, saleId), isNull(certificateVerifications.replacedAt)));
    if (row) return row.code;
    // Unique per sale and version, and one current per sale: two requests making it at once keep one.
    await db
      .insert(certificateVerifications)
      .values({
        saleId,
        version: sql`(select coalesce(max(${certificateVerifications.version}), 0) + 1 from ${certificateVerifications} where ${certificateVerifications.saleId} = ${saleId})`,
        code: newVerificationCode(),
      })
      .onConflictDoNothing();
  }
  throw new Error('No verification code could be stored');
}

/** A verification code: its sale and version, and, once replaced, when and the dates it certified. */
export async function findVerificationCode(db: Database, code: string) {
  const [row] = await db
    .select({
      saleId: certificateVerifications.saleId,
      version: certificateVerifications.version,
      createdAt: certificateVerifications.createdAt,
      replacedAt: certificateVerifications.replacedAt,
      departureDate: certificateVerifications.departureDate,
      returnDate: certificateVerifications.returnDate,
    })
    .from(certificateVerifications)
    .where(eq(certificateVerifications.code, code));
  return row;
}

/** The most certificates one search answers: the newest, of paid sales only (nothing else has search keys). */
export const searchLimit = 100;

/**
 * The company's issued certificates whose holder has this document number or e-mail (normalised here), newest
 * first. Reads the search keys written at issue only: travellers of unpaid quotations are never looked at.
 */
export function findCertificatesByIdentity(
  db: Database,
  companyId: number,
  identity: { document: string } | { email: string },
) {
  const match =
    'email' in identity
      ? eq(certificateSearchKeys.email, emailSearchKey(identity.email))
      : eq(certificateSearchKeys.document, documentSearchKey(identity.document));
  return (
    db
      .select({ number: certificates.number, saleId: certificates.saleId, travellerId: certificates.travellerId })
      .from(certificateSearchKeys)
      .innerJoin(certificates, eq(certificates.id, certificateSearchKeys.certificateId))
      // A voided certificate is no longer valid: the search never offers it.
      .where(and(eq(certificateSearchKeys.companyId, companyId), match, isNull(certificates.voidedAt)))
      .orderBy(desc(certificates.issuedAt), desc(certificates.id))
      .limit(searchLimit)
  );
}

/** One certificate by its number (voided or not: see voidedAt), or undefined. */
export async function findCertificate(db: Database, number: string) {
  const [row] = await db
    .select({
      number: certificates.number,
      saleId: certificates.saleId,
      travellerId: certificates.travellerId,
      voidedAt: certificates.voidedAt,
    })
    .from(certificates)
    .where(eq(certificates.number, number));
  return row;
}

/** Every certificate of a sale, voided ones included (a claim may name the sale rather than a certificate). */
export function findCertificatesOfSale(db: Database, saleId: number) {
  return db
    .select({
      number: certificates.number,
      saleId: certificates.saleId,
      travellerId: certificates.travellerId,
      voidedAt: certificates.voidedAt,
    })
    .from(certificates)
    .where(eq(certificates.saleId, saleId))
    .orderBy(certificates.id);
}

/** What the console's sale search matches a holder by (normalised here as the keys were at issue). */
export type HolderMatch = { document: string } | { email: string } | { name: string };

/**
 * The ids of the company's sales with a certificate (valid or voided) whose holder matches, as a subquery for the
 * sale search (payments' searchSales): the keys' indexes answer it whatever the number of sales. A name matches as
 * a prefix of «given names surname» or of «surname given names».
 */
export function salesOfHolder(db: Database, companyId: number, match: HolderMatch) {
  const byCompany = eq(certificateSearchKeys.companyId, companyId);
  const condition =
    'document' in match
      ? eq(certificateSearchKeys.document, documentSearchKey(match.document))
      : 'email' in match
        ? eq(certificateSearchKeys.email, emailSearchKey(match.email))
        : or(
            like(certificateSearchKeys.name, `${likePrefix(nameSearchKey(match.name))}%`),
            like(certificateSearchKeys.surname, `${likePrefix(nameSearchKey(match.name))}%`),
          );
  return db
    .select({ saleId: certificates.saleId })
    .from(certificateSearchKeys)
    .innerJoin(certificates, eq(certificates.id, certificateSearchKeys.certificateId))
    .where(and(byCompany, condition));
}

/** The sale of a certificate number (any version), as a subquery for the sale search. */
export function saleOfCertificate(db: Database, number: string) {
  return db
    .select({ saleId: certificates.saleId })
    .from(certificates)
    .where(eq(certificates.number, number.trim().toUpperCase()));
}

/** A LIKE pattern's literal part: %, _ and \ match themselves. */
const likePrefix = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** Every certificate a sale ever had (replaced and voided ones too) and its verification codes, oldest first. */
export async function certificateHistoryOfSale(db: Database, saleId: number) {
  const [issued, codes] = await Promise.all([
    db
      .select({
        number: certificates.number,
        travellerId: certificates.travellerId,
        issuedAt: certificates.issuedAt,
        voidedAt: certificates.voidedAt,
        voidedReason: certificates.voidedReason,
      })
      .from(certificates)
      .where(eq(certificates.saleId, saleId))
      .orderBy(certificates.id),
    db
      .select()
      .from(certificateVerifications)
      .where(eq(certificateVerifications.saleId, saleId))
      .orderBy(certificateVerifications.version),
  ]);
  const people = await listTravellersByIds(db, [...new Set(issued.map((certificate) => certificate.travellerId))]);
  const seqOf = new Map(people.map((person) => [person.id, person.seq]));
  return {
    issued: issued.map((certificate) => ({ ...certificate, seq: seqOf.get(certificate.travellerId) ?? null })),
    codes,
  };
}

/** The version of the sale's current verification code (made now when there is none). */
export async function currentVerificationVersion(db: Database, saleId: number): Promise<number> {
  const code = await currentVerificationCode(db, saleId);
  const [row] = await db
    .select({ version: certificateVerifications.version })
    .from(certificateVerifications)
    .where(eq(certificateVerifications.code, code));
  return row?.version ?? 1;
}
