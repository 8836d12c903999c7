import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
    voidedReason: text('voided_reason', { enum: ['withdrawal', 'date_change'] }),
  },
  (t) => [uniqueIndex('certificates_sale_traveller').on(t.saleId, t.travellerId).where(sql`${t.voidedAt} IS NULL`)],
);

/**
 * The public verification code of a paid sale's certificate (printed on the PDF with a QR code that opens
 * /verificar/{code}): 10 characters of Crockford base32 from 50 random bits, so codes cannot be enumerated.
 */
export const certificateVerifications = pgTable('certificate_verifications', {
  saleId: integer('sale_id')
    .primaryKey()
    .references(() => sales.id),
  code: text('code').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

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
  },
  (t) => [
    index('certificate_search_keys_document').on(t.companyId, t.document),
    index('certificate_search_keys_email').on(t.companyId, t.email),
  ],
);
