import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';

/** The tables the content module owns. Only its repository reads or writes them (references from other tables aside). */

export const faqEntries = pgTable('faq_entries', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  category: text('category').notNull(),
  question: text('question').notNull(),
  answer: text('answer').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const subjects = pgTable('subjects', {
  id: integer('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  label: text('label').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** The short help-modal entries (spec §3 Contact info). */
export const contactInfos = pgTable('contact_infos', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  label: text('label').notNull(),
  phone: text('phone').notNull(),
  whatsapp: text('whatsapp'),
  icon: text('icon').notNull(),
  isEmergency: boolean('is_emergency').notNull().default(false),
  isSaleContact: boolean('is_sale_contact').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** The contact directory of /contactanos (spec §3 Contact). */
export const contacts = pgTable('contacts', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  category: text('category').notNull(),
  label: text('label').notNull(),
  isEmergency: boolean('is_emergency').notNull().default(false),
  isSaleContact: boolean('is_sale_contact').notNull().default(false),
  isPrioritized: boolean('is_prioritized').notNull().default(false),
  phones: text('phones').array().notNull().default(sql`'{}'::text[]`),
  whatsappPhone1: text('whatsapp_phone1'),
  whatsappPhone2: text('whatsapp_phone2'),
  emails: text('emails').array().notNull().default(sql`'{}'::text[]`),
  urlHref: text('url_href'),
  urlLabel: text('url_label'),
  banner: text('banner'),
  sortOrder: integer('sort_order').notNull().default(0),
});
