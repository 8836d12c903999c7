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
    /** The version in force (legal_page_versions): what a buyer accepting the page now accepts. */
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.slug] })],
);

/**
 * Every published version of a legal page, never changed nor deleted (issue 25 item 7): a buyer's consent names the
 * version of the terms it accepted, and «Mi compra» opens that text years later. Version 1 is the seeded text.
 */
export const legalPageVersions = pgTable(
  'legal_page_versions',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    bodyHtml: text('body_html').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.slug, t.version] })],
);
