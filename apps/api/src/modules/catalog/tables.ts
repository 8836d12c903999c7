import { boolean, integer, numeric, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';

/** The tables the catalog module owns. Only its repository reads or writes them (references from other tables aside). */

export const origins = pgTable('origins', {
  id: integer('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  label: text('label').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const modalities = pgTable('modalities', {
  id: integer('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  code: text('code').notNull(),
  label: text('label').notNull(),
  /** Default trip length offered when the visitor picks a departure date. */
  addDays: integer('add_days').notNull(),
  /** Whether the visitor chooses the return date (single trip) or it is fixed (annual: departure + 364). */
  returnDateEnabled: boolean('return_date_enabled').notNull(),
  returnAddDays: integer('return_add_days').notNull(),
  minDays: integer('min_days').notNull(),
  maxDays: integer('max_days').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** Destinations are regions (Europa, Norteamérica…); each groups countries and is offered for some modalities. */
export const destinations = pgTable('destinations', {
  id: integer('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  code: text('code').notNull(),
  label: text('label').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const destinationModalities = pgTable(
  'destination_modalities',
  {
    destinationId: integer('destination_id')
      .notNull()
      .references(() => destinations.id, { onDelete: 'cascade' }),
    modalityId: integer('modality_id')
      .notNull()
      .references(() => modalities.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.destinationId, t.modalityId] })],
);

export const countries = pgTable('countries', {
  id: integer('id').primaryKey(),
  isoCode: text('iso_code').notNull().unique(),
  label: text('label').notNull(),
});

export const destinationCountries = pgTable(
  'destination_countries',
  {
    destinationId: integer('destination_id')
      .notNull()
      .references(() => destinations.id, { onDelete: 'cascade' }),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.destinationId, t.countryId] })],
);

/** Passenger types are age bands (spec §3: id, label, ageFrom, ageTo). */
export const passengerTypes = pgTable('passenger_types', {
  id: integer('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  label: text('label').notNull(),
  ageFrom: integer('age_from').notNull(),
  ageTo: integer('age_to').notNull(),
});

/** CLP per USD. The newest row whose validFrom has passed is the one in force. */
export const exchangeRates = pgTable('exchange_rates', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  fromCurrency: text('from_currency').notNull(),
  toCurrency: text('to_currency').notNull(),
  rate: numeric('rate', { precision: 14, scale: 4 }).notNull(),
  validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
});

export const paymentGateways = pgTable(
  'payment_gateways',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    name: text('name').notNull(),
    logo: text('logo').notNull(),
    url: text('url').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);
