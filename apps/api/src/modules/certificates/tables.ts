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
