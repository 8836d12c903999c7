import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';

/** The tables the subscriptions module owns. Only its repository reads or writes them (references from other tables aside). */

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Stored lower-cased so the same address subscribes once. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Double opt-in: null while pending; set when the link e-mailed to the address was opened. Only confirmed
     * addresses are subscribers (rows from before the double opt-in were confirmed by migration 0013).
     */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** The unguessable token of the confirmation link (base64url of 32 random bytes). */
    confirmationToken: text('confirmation_token'),
    /** The link stops confirming then (a confirmed address keeps answering «confirmed» to its own link). */
    confirmationExpiresAt: timestamp('confirmation_expires_at', { withTimezone: true }),
    /** When the last confirmation e-mail was queued: at most one an hour per address. */
    confirmationSentAt: timestamp('confirmation_sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('subscriptions_company_email').on(t.companyId, t.email),
    uniqueIndex('subscriptions_confirmation_token').on(t.confirmationToken),
  ],
);
