import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { quotations } from '../quotations/tables.ts';

/** The tables the invoices module owns. Only its repository reads or writes them (references from other tables aside). */

/** Billing step (spec §3 Invoice details), one per quotation. */
export const invoiceDetails = pgTable('invoice_details', {
  quotationId: uuid('quotation_id')
    .primaryKey()
    .references(() => quotations.id, { onDelete: 'cascade' }),
  address: text('address').notNull(),
  streetNumber: text('street_number').notNull(),
  apartment: text('apartment'),
  locality: text('locality').notNull(),
  province: text('province').notNull(),
  generateInvoice: boolean('generate_invoice').notNull().default(false),
  companyName: text('company_name'),
  companyRut: text('company_rut'),
  companyBusiness: text('company_business'),
  companyAddress: text('company_address'),
  companyEmail: text('company_email'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
