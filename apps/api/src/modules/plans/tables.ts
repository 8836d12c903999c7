import { boolean, date, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { destinations, modalities, passengerTypes } from '../catalog/tables.ts';
import { companies } from '../company/tables.ts';

/** The tables the plans module owns. Only its repository reads or writes them (references from other tables aside). */

/**
 * Plans on sale. Money is integer USD cents, percentages integer basis points (1 % = 100 bp); see
 * packages/domain/src/pricing.ts for how they combine.
 */
export const products = pgTable('products', {
  id: integer('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  code: text('code').notNull(),
  label: text('label').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  /** 'daily': rate × trip days; 'flat': one price for the whole term (annual multi-trip). */
  rating: text('rating', { enum: ['daily', 'flat'] })
    .notNull()
    .default('daily'),
  image: text('image').notNull().default(''),
  imageSmall: text('image_small').notNull().default(''),
  titleColor: text('title_color').notNull().default('#0b5563'),
  color: text('color').notNull().default('#0b5563'),
  bestOptionLabel: text('best_option_label'),
  bestOptionColor: text('best_option_color'),
  /** '+' marks the plan for passengers over 75 (spec §3 Plan preview). */
  arrowColor: text('arrow_color'),
  isBestSeller: boolean('is_best_seller').notNull().default(false),
  /** Medical expenses limit in USD: what «mejor cobertura» and sorting by coverage compare. */
  medicalLimitUsd: integer('medical_limit_usd').notNull().default(0),
  promotionBp: integer('promotion_bp').notNull().default(0),
  enableTax: boolean('enable_tax').notNull().default(false),
  taxBp: integer('tax_bp').notNull().default(0),
  /** Covid upgrade surcharge per passenger per day; null when the plan does not offer the upgrade. */
  covidFeeCentsPerDay: integer('covid_fee_cents_per_day'),
});

/** The modalities a plan is sold for. */
export const productModalities = pgTable(
  'product_modalities',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    modalityId: integer('modality_id')
      .notNull()
      .references(() => modalities.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.productId, t.modalityId] })],
);

/** A plan's price for one passenger type travelling to one destination region (per day, or flat). */
export const productRates = pgTable(
  'product_rates',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    destinationId: integer('destination_id')
      .notNull()
      .references(() => destinations.id, { onDelete: 'cascade' }),
    passengerTypeId: integer('passenger_type_id')
      .notNull()
      .references(() => passengerTypes.id, { onDelete: 'cascade' }),
    rateCents: integer('rate_cents').notNull(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.destinationId, t.passengerTypeId] })],
);

/** A plan's benefits with their limits, in display order; priority ones are shown on cards. */
export const productBenefits = pgTable('product_benefits', {
  id: serial('id').primaryKey(),
  productId: integer('product_id')
    .notNull()
    .references(() => products.id, { onDelete: 'cascade' }),
  label: text('label').notNull(),
  value: text('value').notNull(),
  isPriority: boolean('is_priority').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** Discount codes, valid between two calendar days (inclusive, Chile's calendar). */
export const discountCodes = pgTable(
  'discount_codes',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Stored upper-case; visitors type codes in any case. */
    code: text('code').notNull(),
    percentBp: integer('percent_bp').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.code] })],
);

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
