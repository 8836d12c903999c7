import type { AddOnPricing } from '@travesia/domain/add-ons';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';
import { products } from '../plans/tables.ts';
import { quotations } from '../quotations/tables.ts';

/** The tables the payments module owns. Only its repository reads or writes them (references from other tables aside). */

/**
 * What a payment attempt charges for, frozen when it starts: the trip, the plan with its benefits, the price and the
 * travellers. When the attempt pays, the sale keeps it, and the certificates say exactly this, whatever changes later.
 */
/** A country inside the destination region (the checkout's countryDestination), with its label as it was sold. */
export type DestinationCountry = { id: number; label: string };

/**
 * One add-on bought for one traveller (issue 27 §1), frozen as sold: what it covers and what it cost that traveller
 * (USD cents net + tax = total; CLP at the purchase's rate). `boughtAfterPurchase`: added from «Mi compra» later.
 */
export type PurchasedAddOn = {
  id: number;
  code: string;
  name: string;
  description: string;
  benefits: { label: string; value: string }[];
  /** The price rule as sold: a date change re-prices the add-on with it for the new days (and the plan's new net). */
  pricing: AddOnPricing;
  netCents: number;
  taxCents: number;
  totalUsdCents: number;
  totalClp: number;
  boughtAfterPurchase?: boolean;
};

export type PurchaseSnapshot = {
  plan: { id: number; label: string; benefits: { label: string; value: string }[] };
  trip: {
    originId: number;
    destinationId: number;
    destination: string;
    modalityId: number;
    modality: string;
    departureDate: string;
    returnDate: string;
    days: number;
    passengers: { passengerTypeId: number; quantity: number }[];
    discountCode: string | null;
    upgradeCovid: boolean;
    /** The country the travellers named at checkout (of the destination region); absent on older sales. */
    destinationCountry?: DestinationCountry | null;
  };
  /**
   * What was charged: `totalUsdCents`/`totalClp` are the whole purchase (the plan plus every traveller's add-ons).
   * `clpPerUsd`: the rate the price was converted at (attempts started before migration 0029 lack it). `plan` and
   * `addOns` split the total (absent on sales before add-ons: the total is the plan's).
   */
  price: {
    totalUsdCents: number;
    totalClp: number;
    clpPerUsd?: string;
    plan?: { totalUsdCents: number; totalClp: number };
    addOns?: { totalUsdCents: number; totalClp: number };
  };
  travellers: {
    seq: number;
    firstName: string;
    lastName: string;
    documentType: number;
    documentNumber: string;
    birthDate: string;
    email: string;
    /** The traveller's age band (passenger type) at departure; absent on sales before add-ons. */
    passengerTypeId?: number;
    /** The add-ons bought for this traveller, as sold (absent on sales before add-ons: none). */
    addOns?: PurchasedAddOn[];
  }[];
  /**
   * What the buyer agreed to when this attempt started, with the version of the texts shown (older sales: none), and
   * the version in force of each legal page it links to (terminos, politicas…; sales before issue 25's versions: none).
   */
  consents?: {
    version: string;
    legalPages?: Record<string, { version: number; publishedAt: string }>;
    recordedAt: string;
    dataProcessing: boolean;
    marketing: boolean;
  };
};

export const saleStatuses = ['pending', 'paid', 'withdrawing', 'withdrawn'] as const;
export type SaleStatus = (typeof saleStatuses)[number];
/** The statuses of a sale that was paid (withdrawn or not): its quotation never changes nor is paid again. */
export const paidSaleStatuses = ['paid', 'withdrawing', 'withdrawn'] as const satisfies readonly SaleStatus[];
export const wasPaid = (status: SaleStatus | undefined) =>
  status !== undefined && (paidSaleStatuses as readonly string[]).includes(status);
/** A sale the buyer withdrew from (its refund pending or done): its certificates are void. */
export const wasWithdrawn = (status: SaleStatus | undefined) => status === 'withdrawing' || status === 'withdrawn';

/**
 * A sale (idVenta): at most one per quotation (unique), priced when a payment starts; what a payment attempt
 * charges, and what becomes paid at most once. Ids are random (not a sequence) because they appear in URLs.
 */
export const sales = pgTable(
  'sales',
  {
    id: integer('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    quotationId: uuid('quotation_id')
      .notNull()
      .unique()
      .references(() => quotations.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    amountUsdCents: integer('amount_usd_cents').notNull(),
    amountClp: integer('amount_clp').notNull(),
    /** CLP per USD the sale was priced at (catalog's rate in force then); null on sales older than migration 0029. */
    clpPerUsd: numeric('clp_per_usd', { precision: 14, scale: 4 }),
    /**
     * pending → paid → withdrawing («retracto en proceso»: certificates voided, its refund requested) → withdrawn
     * (refunded). A withdrawn or withdrawing sale was paid: its quotation stays closed to new payments.
     */
    status: text('status', { enum: saleStatuses }).notNull().default('pending'),
    /**
     * The proof of who asks for the sale's documents (certificates, full payment result): 244 random bits, given only
     * to the browser that started the payment. The sale id is printed on every certificate and opens nothing alone.
     */
    accessToken: text('access_token')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
    /** What was bought, copied from the paying attempt when the sale becomes paid: certificates are issued from it. */
    purchase: jsonb('purchase').$type<PurchaseSnapshot>(),
    /** Paid through the built-in test gateway: its certificates carry no value and say so. */
    testPayment: boolean('test_payment').notNull().default(false),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The console's sale list and search (newest first, keyset on created_at and id).
  (t) => [
    index('sales_company_created').on(t.companyId, t.createdAt, t.id),
    // «Hoy» and the list's date filter (paid from / before).
    index('sales_company_paid').on(t.companyId, t.paidAt),
  ],
);

/** One attempt to pay a sale through a gateway (idTransaction). Terminal once it leaves 'pending'. */
export const payments = pgTable(
  'payments',
  {
    /** Random, like sale ids: the pair appears in result URLs and must not be guessable. */
    id: integer('id').primaryKey(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    gateway: text('gateway').notNull(),
    /** Our order number sent to the gateway (Webpay buy_order, ≤ 26 characters). */
    buyOrder: text('buy_order').notNull().unique(),
    sessionId: text('session_id').notNull(),
    /** The gateway's id of the transaction (Webpay token). */
    externalId: text('external_id').unique(),
    amountClp: integer('amount_clp').notNull(),
    /**
     * What the attempt pays: the sale itself (`purchase`), or the price difference of a date change of a paid sale
     * (`date_change`, see purchases' sale_date_changes), which never makes the sale paid again.
     */
    purpose: text('purpose', { enum: ['purchase', 'date_change'] })
      .notNull()
      .default('purchase'),
    /**
     * The proof handed to the browser that starts this attempt; when the attempt pays, it becomes the sale's access
     * token. Per attempt, so whoever starts another attempt never learns the one that paid.
     */
    accessToken: text('access_token')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
    /** The trip, plan, price and travellers this attempt priced, frozen when it started (null on older rows). */
    purchase: jsonb('purchase').$type<PurchaseSnapshot>(),
    /** pending → confirming (one caller claimed the gateway's answer) → authorized | declined | aborted | timeout | error */
    status: text('status', {
      enum: ['pending', 'confirming', 'authorized', 'declined', 'aborted', 'timeout', 'error'],
    })
      .notNull()
      .default('pending'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    paymentTypeCode: text('payment_type_code'),
    instalments: integer('instalments'),
    authorizationCode: text('authorization_code'),
    cardLastDigits: text('card_last_digits'),
    responseCode: integer('response_code'),
    detail: text('detail'),
    /**
     * An authorization we could not honour (its sale already paid, repriced, or another amount) is given back:
     * pending → refunded, retried by the sweeper while the gateway refuses or cannot be reached.
     */
    refundStatus: text('refund_status', { enum: ['pending', 'refunded'] }),
    refundAmountClp: integer('refund_amount_clp'),
    refundDetail: text('refund_detail'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  // A sale's payments (its ledger, the console's sale page): without it, every look-up read the whole table.
  (t) => [index('payments_sale').on(t.saleId)],
);

/** The built-in sandbox gateway's own ledger (what its payment page decided). */
export const sandboxTransactions = pgTable('sandbox_transactions', {
  token: text('token').primaryKey(),
  buyOrder: text('buy_order').notNull(),
  sessionId: text('session_id').notNull(),
  amountClp: integer('amount_clp').notNull(),
  returnUrl: text('return_url').notNull(),
  status: text('status', { enum: ['created', 'approved', 'declined', 'aborted', 'committed'] })
    .notNull()
    .default('created'),
  decision: text('decision', { enum: ['approved', 'declined'] }),
  instalments: integer('instalments'),
  /** What the store gave back of an approved test payment (gateway refund). */
  refundedClp: integer('refunded_clp'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const saleRefundReasons = ['withdrawal', 'date_change'] as const;
export type SaleRefundReason = (typeof saleRefundReasons)[number];
/** How a sale refund went back: through the gateway (the sweeper), or by bank transfer, recorded by an operator. */
export const saleRefundMethods = ['gateway', 'manual'] as const;
export type SaleRefundMethod = (typeof saleRefundMethods)[number];

/**
 * Money given back of a sale's paid payment after it was honoured (a withdrawal, a cheaper date change), unlike the
 * refund of an authorization we could not honour (payments.refund_status). Requested once per idempotency key
 * (unique), then refunded by the payment sweeper through the gateway that took the payment: pending → refunded,
 * retried with back-off while the gateway refuses or cannot be reached (never given up, never twice: each attempt
 * is claimed by one statement).
 */
export const saleRefunds = pgTable(
  'sale_refunds',
  {
    id: serial('id').primaryKey(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    reason: text('reason', { enum: saleRefundReasons }).notNull(),
    amountClp: integer('amount_clp').notNull(),
    status: text('status', { enum: ['pending', 'refunded'] })
      .notNull()
      .default('pending'),
    /** Attempts started (counted when one is claimed, so an attempt cut short counts too). */
    attempts: integer('attempts').notNull().default(0),
    /** Due from then: now when requested, the back-off after a failure, or the end of the claim of the attempt running. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /** The gateway's words on the refund that went through (Webpay: REVERSED or NULLIFIED). */
    detail: text('detail'),
    /** While an attempt of the sweeper holds the refund (its gateway call may be in flight); null otherwise. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** How it went back once refunded: `gateway`, or `manual` (a bank transfer an operator recorded). */
    method: text('method', { enum: saleRefundMethods }),
    /** A manual refund's bank-transfer reference, as the operator gave it. */
    transferReference: text('transfer_reference'),
    /** Who recorded a manual refund (the operator's name, or the channel: admin API, CLI). */
    markedBy: text('marked_by'),
    /**
     * Set when an operator put the refund on hold to give it back by transfer (after the gateway said it had not
     * refunded it): the sweeper never claims a held row, so the transfer cannot be doubled by a retry.
     */
    heldAt: timestamp('held_at', { withTimezone: true }),
    /** Who put it on hold (the operator's name, or the channel: admin API, CLI). */
    heldBy: text('held_by'),
    /** Why the operator held it, in their words (the console asks for it); null when not held or not given. */
    heldReason: text('held_reason'),
    /**
     * Bumped by every write of the row (the sweeper's claims and outcomes, holds, releases, marks): the console sends
     * the version it showed, and an action on a row that changed since is refused (409), never applied blindly.
     */
    version: integer('version').notNull().default(1),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    index('sale_refunds_sale').on(t.saleId),
    index('sale_refunds_due').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // A bank transfer gives back one refund: its reference is never recorded for two.
    uniqueIndex('sale_refunds_transfer_reference').on(t.transferReference),
  ],
);

/**
 * A date change of a paid sale asked from «Mi compra»: the new trip dates (and destination country inside the same
 * region), repriced on the server, and what was done about the difference. A higher price waits for its difference
 * payment (`awaiting_payment`, payment_id, a payment of purpose `date_change`) and is applied when that payment is
 * authorized; a lower or equal one is applied at once, a lower one with a sale refund of the difference
 * (sale_refunds, reason date_change, key `date-change:{id}`). Declined, aborted or replaced by a newer request:
 * `cancelled`.
 */
export const saleDateChanges = pgTable(
  'sale_date_changes',
  {
    id: serial('id').primaryKey(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    status: text('status', { enum: ['awaiting_payment', 'applied', 'cancelled'] }).notNull(),
    /**
     * What changed: the trip's dates or country (`dates`), or add-ons bought from «Mi compra» after the purchase
     * (`add_ons`, issue 27 §1: same dates, the snapshot gains the add-on lines, the difference is their price).
     */
    kind: text('kind', { enum: ['dates', 'add_ons'] })
      .notNull()
      .default('dates'),
    previousDepartureDate: text('previous_departure_date').notNull(),
    previousReturnDate: text('previous_return_date').notNull(),
    departureDate: text('departure_date').notNull(),
    returnDate: text('return_date').notNull(),
    /** The destination country (of the same region) before and after: null when the sale named none. */
    previousDestinationCountry: jsonb('previous_destination_country').$type<DestinationCountry | null>(),
    destinationCountry: jsonb('destination_country').$type<DestinationCountry | null>(),
    /** The sale's purchase snapshot with the new dates, country and price: what the new certificates say. */
    purchase: jsonb('purchase').$type<PurchaseSnapshot>().notNull(),
    amountClp: integer('amount_clp').notNull(),
    amountUsdCents: integer('amount_usd_cents').notNull(),
    /** New price − price paid so far, in CLP: > 0 paid through payment_id, < 0 refunded. */
    differenceClp: integer('difference_clp').notNull(),
    paymentId: integer('payment_id').references(() => payments.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [index('sale_date_changes_sale').on(t.saleId), uniqueIndex('sale_date_changes_payment').on(t.paymentId)],
);
