import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
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
  /** «Para quién»: the one line the comparator shows under the plan's name (issue 25; plain text). */
  audience: text('audience').notNull().default(''),
  /** Why the plan carries IVA or not, in the buyer's words (issue 27 §2; plain text); '': not said. */
  taxReason: text('tax_reason').notNull().default(''),
  /** A retired plan is not quoted (its paid sales keep it); the console's «Planes» retires and reactivates. */
  retired: boolean('retired').notNull().default(false),
  /** The document store's key of the plan's general conditions (a PDF uploaded in the console); null: none. */
  conditionsKey: text('conditions_key'),
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
    /**
     * The length of trip from which this rate applies (issue 25, «por duración»): a trip of `days` days takes the
     * rate with the largest `min_days` ≤ days, so 1 alone is one price for every length. Every region × band priced
     * has its rate from day 1 (plans/prices.ts validates it). Meaningless for a flat-rated plan (always 1).
     */
    minDays: integer('min_days').notNull().default(1),
    rateCents: integer('rate_cents').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.destinationId, t.passengerTypeId, t.minDays] }),
    check('product_rates_min_days', sql`${t.minDays} between 1 and 366`),
  ],
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

/**
 * Discount codes (issue 25 item 3, docs/pricing.md): a percent or a fixed amount in USD cents, valid between two
 * calendar days (inclusive, Chile's calendar), with optional use limits in total and per buyer, for all the company's
 * plans or a list of them; deactivated by an operator. `version` counts the console's edits (optimistic check).
 */
export const discountCodes = pgTable(
  'discount_codes',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Stored upper-case; visitors type codes in any case. */
    code: text('code').notNull(),
    kind: text('kind', { enum: ['percent', 'amount'] })
      .notNull()
      .default('percent'),
    /** The percent of a `percent` code; 0 for an `amount` code. */
    percentBp: integer('percent_bp').notNull(),
    /** The amount of an `amount` code, in USD cents (prices are USD; the CLP follows at the day's rate). */
    amountUsdCents: integer('amount_usd_cents'),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
    /** Paid sales (and payments under way) the code may have in all; null: no limit. */
    maxUses: integer('max_uses'),
    /** Uses per buyer (same e-mail or same document); null: no limit. */
    maxUsesPerBuyer: integer('max_uses_per_buyer'),
    /** The plans it applies to; null: every plan of the company. */
    productIds: integer('product_ids').array(),
    active: boolean('active').notNull().default(true),
    /** What the operator wrote about it (campaign, partner); never shown to visitors. */
    note: text('note').notNull().default(''),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.code] })],
);

/**
 * The uses of a discount code, one per quotation (a quotation has at most one sale). Taken (`reserved`) when a
 * payment starts, under the code's row lock, so a limit can never be passed by payments started at once; `used`
 * when the sale is paid (in the transaction that marks it paid), with what the sale paid and what the code gave;
 * `released` when the attempt fails. A reservation lapses at `reserved_until` (an abandoned payment page), and the
 * claim of the gateway's answer takes it again before anything is charged. No foreign key to quotations: that
 * module's tables import this one.
 */
export const discountCodeUses = pgTable(
  'discount_code_uses',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    quotationId: uuid('quotation_id').notNull().unique(),
    productId: integer('product_id').notNull(),
    status: text('status', { enum: ['reserved', 'used', 'released'] }).notNull(),
    reservedUntil: timestamp('reserved_until', { withTimezone: true }).notNull(),
    /** The buyer as the sale names them (certificates' saleBuyer): e-mail lower-case, `type:NUMBER` document. */
    buyerEmail: text('buyer_email').notNull(),
    buyerDocument: text('buyer_document').notNull(),
    /** What the code takes off this purchase, and what the purchase pays, as priced when the payment started. */
    discountUsdCents: integer('discount_usd_cents').notNull(),
    discountClp: integer('discount_clp').notNull(),
    revenueUsdCents: integer('revenue_usd_cents').notNull(),
    revenueClp: integer('revenue_clp').notNull(),
    /**
     * The code's terms this purchase was priced with (percent in bp, or a fixed amount in USD cents): a paid sale keeps
     * them whatever the code says later (a date change reprices with them). Null for uses recorded before 0031.
     */
    percentBp: integer('percent_bp'),
    amountUsdCents: integer('amount_usd_cents'),
    saleId: integer('sale_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('discount_code_uses_code').on(t.companyId, t.code, t.status)],
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

/**
 * Add-ons («adicionales», issue 27 §1): options a traveller buys on top of the plan, priced per traveller either per
 * day of the trip (USD cents) or as a percent of what the plan costs that traveller (packages/domain/src/add-ons.ts).
 * Eligibility lists (age bands = passenger types, modalities, destination regions, plans) are empty for «all».
 * A 'daily' add-on may be priced per plan (`plan_prices`, `{ "<productId>": cents }`): a plan's entry overrides
 * `price_cents_per_day`, and with no price per day only the plans with an entry are priced. The covid upgrade is the
 * add-on `covid` of every company (migration 0043), priced that way: its plan prices are the plans' covid fees, edited
 * with the plan's prices (plans/prices.ts), and it is chosen trip-wide by the search's `upgradeCovid` (docs/pricing.md).
 * `version` counts the console's edits (optimistic check, issue 17).
 */
export const addOns = pgTable(
  'add_ons',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** The one line the purchase step shows under its name (plain text). */
    description: text('description').notNull().default(''),
    /** What it covers, with limits, in display order (like a plan's benefits). */
    benefits: jsonb('benefits').$type<{ label: string; value: string }[]>().notNull().default([]),
    /** 'daily': `price_cents_per_day` per traveller per day; 'percent': `plan_percent_bp` of the traveller's plan net. */
    pricing: text('pricing', { enum: ['daily', 'percent'] }).notNull(),
    priceCentsPerDay: integer('price_cents_per_day'),
    planPercentBp: integer('plan_percent_bp'),
    /** A 'daily' add-on's price per plan, USD cents per traveller per day: `{ "<productId>": cents }`. */
    planPrices: jsonb('plan_prices').$type<Record<string, number>>().notNull().default({}),
    passengerTypeIds: integer('passenger_type_ids').array().notNull().default([]),
    modalityIds: integer('modality_ids').array().notNull().default([]),
    destinationIds: integer('destination_ids').array().notNull().default([]),
    productIds: integer('product_ids').array().notNull().default([]),
    /** Can be added to a paid purchase until the departure day. */
    buyableAfterPurchase: boolean('buyable_after_purchase').notNull().default(false),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('add_ons_company_code').on(t.companyId, t.code),
    // The price of its kind only: a daily add-on has a price per day, or plan prices, or both (covid may be left
    // with none: no plan offers the upgrade); a percent one has its percent and no daily price of either sort.
    check(
      'add_ons_price',
      sql`coalesce((${t.pricing} = 'daily' and (${t.priceCentsPerDay} >= 0 or (${t.priceCentsPerDay} is null and (${t.planPrices} <> '{}'::jsonb or ${t.code} = 'covid'))) and ${t.planPercentBp} is null) or (${t.pricing} = 'percent' and ${t.planPercentBp} between 0 and 10000 and ${t.priceCentsPerDay} is null and ${t.planPrices} = '{}'::jsonb), false)`,
    ),
    // Plan prices: an object of plan ids to whole, non-negative cents (at most USD 100 000 a day, as a plan's rate).
    check(
      'add_ons_plan_prices',
      sql`jsonb_typeof(${t.planPrices}) = 'object' and not jsonb_path_exists(${t.planPrices}, '$.keyvalue() ? (!(@.key like_regex "^[1-9][0-9]{0,8}$") || @.value.type() != "number" || @.value < 0 || @.value > 10000000 || @.value.floor() != @.value)')`,
    ),
  ],
);
