import { sql } from 'drizzle-orm';
import { boolean, check, date, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { countries, destinations, modalities, origins, passengerTypes } from '../catalog/tables.ts';
import { companies } from '../company/tables.ts';
import { products } from '../plans/tables.ts';
import { quotationProgress } from './status.ts';

/** The tables the quotations module owns. Only its repository reads or writes them (references from other tables aside). */

/**
 * A visitor's trip: what they asked for and, later, who travels. The id is a random UUID so a quotation's URL,
 * shared or not, cannot be guessed from another's.
 */
export const quotations = pgTable(
  'quotations',
  {
    id: uuid('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    originId: integer('origin_id')
      .notNull()
      .references(() => origins.id),
    destinationId: integer('destination_id')
      .notNull()
      .references(() => destinations.id),
    modalityId: integer('modality_id')
      .notNull()
      .references(() => modalities.id),
    departureDate: date('departure_date', { mode: 'string' }).notNull(),
    returnDate: date('return_date', { mode: 'string' }).notNull(),
    discountCode: text('discount_code'),
    upgradeCovid: boolean('upgrade_covid').notNull().default(false),
    status: text('status', { enum: quotationProgress }).notNull().default('quoted'),
    planId: integer('plan_id').references(() => products.id),
    referralCode: text('referral_code'),
    pantalla: text('pantalla'),
    name: text('name'),
    lastName: text('last_name'),
    phone: text('phone'),
    email: text('email'),
    rut: text('rut'),
    domicilio: text('domicilio'),
    /** Purchase step: one emergency contact for everybody, or one per traveller. */
    shareEmergencyContact: boolean('share_emergency_contact'),
    emergencyFirstName: text('emergency_first_name'),
    emergencyLastName: text('emergency_last_name'),
    emergencyPhone: text('emergency_phone'),
    countryDestinationId: integer('country_destination_id').references(() => countries.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Counts the changes to what would be bought (trip, plan, travellers): a payment opens only for the version it
     * priced (an integer, never a clock, so two changes in one millisecond still differ).
     */
    version: integer('version').notNull().default(0),
  },
  (t) => [
    check(
      'quotations_status_check',
      sql`${t.status} IN (${sql.raw(quotationProgress.map((status) => `'${status}'`).join(', '))})`,
    ),
  ],
);

export const quotationPassengers = pgTable(
  'quotation_passengers',
  {
    quotationId: uuid('quotation_id')
      .notNull()
      .references(() => quotations.id, { onDelete: 'cascade' }),
    passengerTypeId: integer('passenger_type_id')
      .notNull()
      .references(() => passengerTypes.id),
    quantity: integer('quantity').notNull(),
  },
  (t) => [primaryKey({ columns: [t.quotationId, t.passengerTypeId] })],
);
