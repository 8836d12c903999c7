import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';

/** The tables the privacy module owns (issue 24, screen 7: personal-data requests under Ley 19.628 / Ley 21.719). */

export const personalDataRequestKinds = ['access', 'rectification', 'erasure'] as const;
export const personalDataRequestStates = ['open', 'answered'] as const;

/**
 * A data subject's request, as received and as answered: who asked (the identifier as given: a RUT, DNI or passport
 * number, or an e-mail), what for, the operator who handled it and what they answered.
 */
export const personalDataRequests = pgTable(
  'personal_data_requests',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The identifier as the person gave it. */
    subject: text('subject').notNull(),
    kind: text('kind', { enum: personalDataRequestKinds }).notNull(),
    state: text('state', { enum: personalDataRequestStates }).notNull().default('open'),
    /** Who registered it (operator e-mail or API key label). */
    openedBy: text('opened_by').notNull(),
    /** Who answered it. */
    handledBy: text('handled_by'),
    answer: text('answer'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [index('personal_data_requests_company').on(t.companyId, t.createdAt)],
);
