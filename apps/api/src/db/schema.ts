import { sql } from 'drizzle-orm';
import {
  boolean,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** The insurer. Spec §1: one storefront sells for one company, chosen by COMPANY_ID. */
export const companies = pgTable('companies', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  legalName: text('legal_name').notNull(),
  rut: text('rut').notNull(),
  address: text('address').notNull(),
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

/** Plans on sale. Prices and benefits arrive with the quoting issue; here the catalogue identity. */
export const products = pgTable('products', {
  id: integer('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  code: text('code').notNull(),
  label: text('label').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** Which passenger types a plan may be sold to (spec §3 Passenger-type product). */
export const passengerTypeProducts = pgTable(
  'passenger_type_products',
  {
    id: serial('id').primaryKey(),
    passengerTypeId: integer('passenger_type_id')
      .notNull()
      .references(() => passengerTypes.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('passenger_type_products_unique').on(t.passengerTypeId, t.productId)],
);

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

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Stored lower-cased so the same address subscribes once. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscriptions_company_email').on(t.companyId, t.email)],
);
