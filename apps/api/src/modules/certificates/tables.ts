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
 * E-mails to send, written in the same transaction as what causes them (a paid sale) and sent by a worker:
 * none is lost if the process stops, and `dedupeKey` keeps the automatic one from going out twice.
 */
export const outboxEmails = pgTable('outbox_emails', {
  id: serial('id').primaryKey(),
  kind: text('kind').notNull(),
  saleId: integer('sale_id')
    .notNull()
    .references(() => sales.id),
  dedupeKey: text('dedupe_key').unique(),
  status: text('status', { enum: ['pending', 'sent', 'failed'] })
    .notNull()
    .default('pending'),
  attempts: integer('attempts').notNull().default(0),
  runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
  lastError: text('last_error'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
