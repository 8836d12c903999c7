import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { travellers } from '../passengers/tables.ts';
import { sales } from '../payments/tables.ts';

/** The tables the certificates module owns. Only its repository reads or writes them (references from other tables aside). */

/** One certificate per traveller of a paid sale. */
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
  },
  (t) => [uniqueIndex('certificates_sale_traveller').on(t.saleId, t.travellerId)],
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
