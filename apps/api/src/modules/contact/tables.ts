import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';
import { subjects } from '../content/tables.ts';

/** The tables the contact module owns. Only its repository reads or writes them (references from other tables aside). */

/**
 * A visitor's message from the contact form (spec §3 contact form payload), kept as it was sent: the subject's
 * label and the address it was mailed to are copied, so a later change of the catalogue leaves it as it was.
 */
export const contactRequests = pgTable('contact_requests', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  subjectId: integer('subject_id').references(() => subjects.id, { onDelete: 'set null' }),
  subjectLabel: text('subject_label').notNull(),
  fullName: text('full_name').notNull(),
  email: text('email').notNull(),
  phone: text('phone').notNull(),
  detail: text('detail').notNull(),
  /** Where its e-mail goes: the company's contact address when it was received. */
  recipient: text('recipient').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
