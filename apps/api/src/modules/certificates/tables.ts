import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';
import { travellers } from '../passengers/tables.ts';
import { sales } from '../payments/tables.ts';

/** The tables the certificates module owns. Only its repository reads or writes them (references from other tables aside). */

/**
 * One valid certificate per traveller of a paid sale. A voided one (withdrawal, or replaced by a date change) stays,
 * marked, so its number and verification code still answer «anulado»; only non-voided rows are unique per traveller.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: serial('id').primaryKey(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    travellerId: integer('traveller_id')
      .notNull()
      .references(() => travellers.id),
    number: text('number').notNull().unique(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    /** withdrawal; date_change or correction (of a traveller's name or document): replaced by new certificates. */
    voidedReason: text('voided_reason', { enum: ['withdrawal', 'date_change', 'correction'] }),
  },
  (t) => [
    uniqueIndex('certificates_sale_traveller').on(t.saleId, t.travellerId).where(sql`${t.voidedAt} IS NULL`),
    // Every certificate of a sale, voided ones too (the console's sale page, a claim naming a sale).
    index('certificates_sale').on(t.saleId),
  ],
);

/**
 * The public verification codes of a paid sale's certificates (printed on the PDF with a QR code that opens
 * /verificar/{code}): 10 characters of Crockford base32 from 50 random bits, so codes cannot be enumerated. One per
 * version of the certificates: version 1 as paid, one more for each date change that replaced them. Only the current
 * version (replaced_at null) answers with the sale's trip; a replaced one answers «reemplazado» with the date it was
 * replaced and the dates it certified, frozen then (docs/certificates.md).
 */
export const certificateVerifications = pgTable(
  'certificate_verifications',
  {
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    version: integer('version').notNull().default(1),
    code: text('code').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a date change replaced this version's certificates; null while they are the sale's current ones. */
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    /** The trip dates this version certified, kept when it is replaced (the current version reads the sale's). */
    departureDate: text('departure_date'),
    returnDate: text('return_date'),
  },
  (t) => [
    primaryKey({ columns: [t.saleId, t.version] }),
    uniqueIndex('certificate_verifications_current').on(t.saleId).where(sql`${t.replacedAt} IS NULL`),
  ],
);

/**
 * What the certificate search looks for, written when a certificate is issued (one row per certificate): the
 * holder's document number as the search normalises it (no dots, dashes or whitespace, upper case) and e-mail in
 * lower case, with the sale's company. The search reads this table only, so travellers of unpaid quotations never
 * enter it (docs/decisions/011).
 */
export const certificateSearchKeys = pgTable(
  'certificate_search_keys',
  {
    certificateId: integer('certificate_id')
      .primaryKey()
      .references(() => certificates.id),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    document: text('document').notNull(),
    email: text('email').notNull(),
    /**
     * The holder's name as the console's sale search compares it (nameSearchKey: lower case, no accents, single
     * spaces), given name first and surname first, each matched as a prefix (text_pattern_ops: LIKE 'pér%' uses
     * the index whatever the database's collation).
     */
    name: text('name').notNull().default(''),
    surname: text('surname').notNull().default(''),
  },
  (t) => [
    index('certificate_search_keys_document').on(t.companyId, t.document),
    index('certificate_search_keys_email').on(t.companyId, t.email),
    index('certificate_search_keys_name').on(t.companyId, t.name.op('text_pattern_ops')),
    index('certificate_search_keys_surname').on(t.companyId, t.surname.op('text_pattern_ops')),
  ],
);
