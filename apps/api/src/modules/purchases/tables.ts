import { date, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { sales } from '../payments/tables.ts';

/** The tables the purchases module («Mi compra») owns. Only its repository reads or writes them. */

/**
 * A one-time code e-mailed to an address a paid sale holds: 6 digits, stored as an HMAC keyed by the server's
 * secret (a 6-digit hash alone would be reversed in a second), valid 10 minutes, dead after 5 wrong tries.
 */
export const purchaseAccessCodes = pgTable(
  'purchase_access_codes',
  {
    id: serial('id').primaryKey(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    codeHash: text('code_hash').notNull(),
    /** Whom the code was e-mailed to, and so what it opens: `buyer`, or `traveller:{seq}` (docs/my-purchase.md). */
    holder: text('holder').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the code opened the purchase, or when a newer code replaced it. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('purchase_access_codes_sale').on(t.saleId)],
);

/** What a verified code or a followed link gives: a random token, stored as its SHA-256 only, short-lived, revocable. */
export const purchaseAccessTokens = pgTable(
  'purchase_access_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    /** The role the access opens: `buyer` (the whole purchase) or `traveller:{seq}` (that traveller's own trip). */
    holder: text('holder').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('purchase_access_tokens_sale').on(t.saleId)],
);

/**
 * The version the signed «Mi compra» links of a sale carry (1 when the sale has no row): raising it kills every link
 * e-mailed so far, and the revocation that raises it also revokes the sale's access tokens.
 */
export const purchaseAccessVersions = pgTable('purchase_access_versions', {
  saleId: integer('sale_id')
    .primaryKey()
    .references(() => sales.id),
  linkVersion: integer('link_version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What «Mi compra» codes each holder of a sale used up on one day (Chile's calendar): codes issued and wrong tries,
 * each capped per holder, so a traveller (or whoever has her document) cannot lock the buyer out
 * (purchases/service.ts, accessCaps); `capNoticeSentAt` marks the one e-mail telling the buyer a cap was hit.
 */
export const purchaseAccessLimits = pgTable(
  'purchase_access_limits',
  {
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    /** Whose codes these are ('buyer' or 'traveller:{seq}'): a traveller's tries never use up the buyer's. */
    holder: text('holder').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    codesIssued: integer('codes_issued').notNull().default(0),
    failedTries: integer('failed_tries').notNull().default(0),
    capNoticeSentAt: timestamp('cap_notice_sent_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.saleId, t.holder, t.day] })],
);
