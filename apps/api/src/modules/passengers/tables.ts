import { date, integer, pgTable, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { passengerTypes } from '../catalog/tables.ts';
import { quotations } from '../quotations/tables.ts';

/** The tables the passengers module owns. Only its repository reads or writes them (references from other tables aside). */

/** The people travelling on a quotation, in order (seq 1…n), as the purchase step records them. */
export const travellers = pgTable(
  'travellers',
  {
    id: serial('id').primaryKey(),
    quotationId: uuid('quotation_id')
      .notNull()
      .references(() => quotations.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    passengerTypeId: integer('passenger_type_id')
      .notNull()
      .references(() => passengerTypes.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    gender: text('gender').notNull(),
    birthDate: date('birth_date', { mode: 'string' }).notNull(),
    /** Spec §9: 9 Chile, 38 Otro. */
    nationalityId: integer('nationality_id').notNull(),
    /** Spec §9: 1 RUT, 2 DNI. */
    documentType: integer('document_type').notNull(),
    documentNumber: text('document_number').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    contactFirstName: text('contact_first_name').notNull(),
    contactLastName: text('contact_last_name').notNull(),
    contactPhone: text('contact_phone').notNull(),
    status: text('status').notNull().default('active'),
    /** The add-ons (plans' add_ons ids) chosen for this traveller on the purchase step; priced when the payment starts. */
    addOnIds: integer('add_on_ids').array().notNull().default([]),
  },
  (t) => [uniqueIndex('travellers_quotation_seq').on(t.quotationId, t.seq)],
);
