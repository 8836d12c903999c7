import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';
import { subjects } from '../content/tables.ts';
import { operators } from '../operators/tables.ts';

/** The tables the contact module owns. Only its repository reads or writes them (references from other tables aside). */

/**
 * A visitor's message from the contact form (spec §3 contact form payload), kept as it was sent: the subject's
 * label and the address it was mailed to are copied, so a later change of the catalogue leaves it as it was.
 */
export const contactRequests = pgTable(
  'contact_requests',
  {
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
    /**
     * The console's state (issue 24 screen 5): `unanswered` until an operator replies by e-mail from the console
     * (`answered`, with `reply`) or marks it dealt with some other way (`handled`). Both are final.
     */
    state: text('state').notNull().default('unanswered'),
    /** The reply e-mailed to the visitor from the console (answered only). */
    reply: text('reply'),
    /** When it was answered or handled, and by whom, as the console's session (or API key) said: never typed. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedByOperatorId: uuid('closed_by_operator_id').references(() => operators.id, { onDelete: 'set null' }),
    /** The operator's name and e-mail (or `api-key:<name>`) then, kept if the operator is later renamed or removed. */
    closedByName: text('closed_by_name'),
    closedByLabel: text('closed_by_label'),
  },
  (t) => [
    check('contact_requests_state', sql`${t.state} IN ('unanswered', 'answered', 'handled')`),
    index('contact_requests_state_id').on(t.state, t.id),
  ],
);
