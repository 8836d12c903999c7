import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** The tables the company module owns. Only its repository reads or writes them (references from other tables aside). */

/** The insurer. Spec §1: one storefront sells for one company, chosen by COMPANY_ID. */
export const companies = pgTable('companies', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  legalName: text('legal_name').notNull(),
  rut: text('rut').notNull(),
  address: text('address').notNull(),
  /** The seller's contact for consumers (Ley 19.496: /informacion-legal names it); null until configured. */
  contactEmail: text('contact_email'),
  contactPhone: text('contact_phone'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Editorial configuration that the storefront renders as it is (navigation bar, footer, home, about-us texts…).
 * Kept as one validated JSON document per kind: it is edited as a whole and never queried inside.
 */
export const companyDocuments = pgTable(
  'company_documents',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    body: jsonb('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind] })],
);
