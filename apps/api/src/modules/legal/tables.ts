import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';

/** The tables the legal module owns. Only its repository reads or writes them (references from other tables aside). */

/**
 * The legal texts of /terminos, /politicas and /informacion-legal, one row per page. `bodyHtml` is stored HTML:
 * the storefront sanitises it before it renders it.
 */
export const legalPages = pgTable(
  'legal_pages',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    bodyHtml: text('body_html').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.slug] })],
);
