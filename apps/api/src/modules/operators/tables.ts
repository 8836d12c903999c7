import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The tables the operators module owns (the people who run the store, their factors, sessions and API keys; issue
 * 24). Only its repository reads or writes them. Every secret is stored as a hash (SHA-256 of a random token, or
 * Argon2id for passwords); the TOTP secret, which the server must read back, is encrypted (AES-256-GCM).
 */

/** A named operator. The e-mail is unique whatever its case; `roles` ⊆ admin, support, finance, content, pricing. */
export const operators = pgTable(
  'operators',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    roles: text('roles').array().notNull(),
    /** `invited` (enrolment pending), `active`, `deactivated`. */
    state: text('state').notNull(),
    /** Argon2id PHC string; null until enrolment. */
    passwordHash: text('password_hash'),
    /** The TOTP secret, AES-256-GCM under OPERATOR_SECRETS_KEY (`iv.tag.ciphertext`, base64url); null until enrolment. */
    totpSecret: text('totp_secret'),
    /** The last TOTP time step accepted: a code is never accepted twice (RFC 6238 §5.2). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** Bumped by every change: two administrators changing one operator at once cannot both win silently. */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('operators_email_lower').on(sql`lower(${t.email})`),
    check('operators_state', sql`${t.state} IN ('invited', 'active', 'deactivated')`),
  ],
);

/** A one-time enrolment link (24 h): its token's SHA-256, and the TOTP secret the enrolment page shows. */
export const operatorEnrolments = pgTable(
  'operator_enrolments',
  {
    tokenHash: text('token_hash').primaryKey(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id),
    totpSecret: text('totp_secret').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when used, or when a newer link for the same operator replaced it. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('operator_enrolments_operator').on(t.operatorId)],
);

/** Ten single-use recovery codes per enrolment, as SHA-256 hashes (each code carries 50 random bits). */
export const operatorRecoveryCodes = pgTable(
  'operator_recovery_codes',
  {
    id: uuid('id').primaryKey(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('operator_recovery_codes_hash').on(t.operatorId, t.codeHash)],
);

/** The step between a right password and the second factor: an opaque challenge, 5 minutes, single use. */
export const operatorChallenges = pgTable('operator_challenges', {
  tokenHash: text('token_hash').primaryKey(),
  operatorId: uuid('operator_id')
    .notNull()
    .references(() => operators.id),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** A server-side session: the cookie holds a random token, the row its SHA-256. Idle 30 min, absolute 12 h. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: uuid('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
  },
  (t) => [index('operator_sessions_operator').on(t.operatorId)],
);

/** An API key for automation: named, scoped to roles, its secret's SHA-256 only, with an expiry and its last use. */
export const operatorApiKeys = pgTable('operator_api_keys', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  roles: text('roles').array().notNull(),
  secretHash: text('secret_hash').notNull().unique(),
  /** The secret's first characters, to recognise a key in a list without holding it. */
  prefix: text('prefix').notNull(),
  createdBy: uuid('created_by').references(() => operators.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

/**
 * Failed sign-ins counted per account (`account:` + the e-mail's SHA-256, whether the account exists or not, so a
 * lockout tells nothing) and per client (`client:` + address), in a window; past the limit, locked until a time.
 */
export const operatorSignInThrottles = pgTable('operator_sign_in_throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});
