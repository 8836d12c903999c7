import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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
  /** In the Schengen area: a certificate for a trip there carries the statement consulates ask for («Geografía»). */
  schengen: boolean('schengen').notNull().default(false),
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
/** Where a rate came from: the seed, an operator's hand (with a reason), or the worker's fetch from a source. */
export const exchangeRateSources = ['seed', 'manual', 'bcch', 'mindicador'] as const;
export type ExchangeRateSource = (typeof exchangeRateSources)[number];

/**
 * USD→CLP rates, append-only: the one in force is the newest whose validity started (repository
 * findCurrentExchangeRate). A fetched rate is one row per published day (`observed_on`), so two workers fetching at
 * once write it once (the partial unique index); a rate entered by hand records who and why.
 */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    fromCurrency: text('from_currency').notNull(),
    toCurrency: text('to_currency').notNull(),
    rate: numeric('rate', { precision: 14, scale: 4 }).notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
    source: text('source', { enum: exchangeRateSources }).notNull().default('seed'),
    /** The day the source published the rate for (Chile date); for a rate entered by hand, the day it was entered. */
    observedOn: date('observed_on', { mode: 'string' }),
    /** Why an operator entered it (required by the console); null for fetched and seeded rates. */
    reason: text('reason'),
    /** The operator's e-mail or API key's name that entered it; null for fetched and seeded rates. */
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'exchange_rates_source_check',
      sql`${t.source} IN (${sql.raw(exchangeRateSources.map((source) => `'${source}'`).join(', '))})`,
    ),
    check('exchange_rates_rate_positive', sql`${t.rate} > 0`),
    uniqueIndex('exchange_rates_fetched_day')
      .on(t.companyId, t.fromCurrency, t.toCurrency, t.observedOn)
      .where(sql`${t.source} IN ('bcch', 'mindicador')`),
    // The console's history (newest first, keyset on the id) and the rate in force.
    index('exchange_rates_company_valid').on(t.companyId, t.validFrom, t.id),
  ],
);

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
