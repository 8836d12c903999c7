import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * What a payment attempt charges for, frozen when it starts: the trip, the plan with its benefits, the price and the
 * travellers. When the attempt pays, the sale keeps it, and the certificates say exactly this, whatever changes later.
 */
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
  };
  price: { totalUsdCents: number; totalClp: number };
  travellers: {
    seq: number;
    firstName: string;
    lastName: string;
    documentType: number;
    documentNumber: string;
    birthDate: string;
    email: string;
  }[];
};

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

/**
 * A visitor's trip: what they asked for and, later, who travels. The id is a random UUID so a quotation's URL,
 * shared or not, cannot be guessed from another's.
 */
export const quotations = pgTable('quotations', {
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
  status: text('status').notNull().default('quoted'),
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
});

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
  },
  (t) => [uniqueIndex('travellers_quotation_seq').on(t.quotationId, t.seq)],
);

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

/**
 * A sale (idVenta): at most one per quotation (unique), priced when a payment starts; what a payment attempt
 * charges, and what becomes paid at most once. Ids are random (not a sequence) because they appear in URLs.
 */
export const sales = pgTable('sales', {
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
  status: text('status', { enum: ['pending', 'paid'] })
    .notNull()
    .default('pending'),
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
});

/** One attempt to pay a sale through a gateway (idTransaction). Terminal once it leaves 'pending'. */
export const payments = pgTable('payments', {
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
});

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

/** One certificate per traveller of a paid sale. */
export const certificates = pgTable(
  'certificates',
  {
    id: serial('id').primaryKey(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    travellerId: integer('traveller_id')
      .notNull()
      .references(() => travellers.id),
    number: text('number').notNull().unique(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('certificates_sale_traveller').on(t.saleId, t.travellerId)],
);

/**
 * E-mails to send, written in the same transaction as what causes them (a paid sale) and sent by a worker:
 * none is lost if the process stops, and `dedupeKey` keeps the automatic one from going out twice.
 */
export const outboxEmails = pgTable('outbox_emails', {
  id: serial('id').primaryKey(),
  kind: text('kind').notNull(),
  saleId: integer('sale_id')
    .notNull()
    .references(() => sales.id),
  dedupeKey: text('dedupe_key').unique(),
  status: text('status', { enum: ['pending', 'sent', 'failed'] })
    .notNull()
    .default('pending'),
  attempts: integer('attempts').notNull().default(0),
  runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
  lastError: text('last_error'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
