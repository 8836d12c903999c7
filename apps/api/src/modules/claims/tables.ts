import { date, index, integer, numeric, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../company/tables.ts';

/**
 * The tables the claims module owns. Only its repository reads or writes them (references from other tables aside).
 * A claim («reembolso») is a traveller's expense claim; money given back on a sale is payments' sale refund. The SQL
 * names and these Drizzle exports keep «refund» (no migration; db/schema.ts and the web read them by these names).
 */

/** A refund request (issue 9): the holder's claim, the account to pay it to, and where it stands. */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** What the holder sees and types to track it: `R-` + 8 random Crockford base32 characters. */
    number: text('number').notNull().unique(),
    /** recibida → en_revision | faltan_documentos | aprobada | rechazada → … → pagada (packages/domain/refunds.ts). */
    status: text('status').notNull().default('recibida'),
    holderName: text('holder_name').notNull(),
    documentType: integer('document_type').notNull(),
    documentNumber: text('document_number').notNull(),
    /** The document without dots, dashes, spaces or case: what tracking compares. */
    documentKey: text('document_key').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    certificateNumber: text('certificate_number').notNull(),
    description: text('description').notNull(),
    incidentDate: date('incident_date', { mode: 'string' }).notNull(),
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    currency: text('currency').notNull(),
    bankCode: text('bank_code').notNull(),
    accountType: text('account_type').notNull(),
    accountNumber: text('account_number').notNull(),
    /** Set when approved: the amount that will be paid, in the request's currency. */
    approvedAmount: numeric('approved_amount', { precision: 14, scale: 2 }),
    /** Set when rejected: why, in words for the holder. */
    rejectionReason: text('rejection_reason'),
    /** Set while documents are missing: which, in words for the holder. */
    missingDocuments: text('missing_documents'),
    /** Set when finance records the transfer (the console's «Registrar pago»): what was paid, in whole pesos. */
    paidAmountClp: integer('paid_amount_clp'),
    /** The operator handling it (the console's «Asignarme»): their id, and their e-mail as shown in the inbox. */
    assignedOperatorId: uuid('assigned_operator_id'),
    assignedOperatorLabel: text('assigned_operator_label'),
    /**
     * Grows with every change of the claim (status, amounts, assignee, the holder's documents): a console action
     * names the version it read, so of two operators acting at once one wins and the other is told (409).
     */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('refund_requests_company').on(t.companyId)],
);

/**
 * The supporting documents of a request: what they are here, their bytes in the document store under `storageKey`
 * (integrations/document-store). Rows of before the store had their bytes in a `content` column, moved to the store
 * at start-up (documents-migration.ts).
 */
export const refundFiles = pgTable(
  'refund_files',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => refundRequests.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    /** The type found in the content (application/pdf, image/png, image/jpeg), never the one the name suggests. */
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('refund_files_request').on(t.requestId)],
);

/**
 * Documents uploaded (`POST …/refunds/files`, or the refund pages' forms) and not yet named by a claim. The visitor
 * holds the token; only its SHA-256 is kept. A claim takes an upload by deleting its row (so a token serves once);
 * one nobody claimed by `expiresAt` is deleted with its bytes.
 */
export const refundUploads = pgTable(
  'refund_uploads',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('refund_uploads_expires').on(t.expiresAt)],
);

/**
 * What happened to a claim after it was received (the console's «Historial»): status changes with the words the
 * holder was e-mailed, assignments, payments, and the operators' internal notes (`kind` `note`: never e-mailed).
 * Append-only, like the audit trail that also records each console action.
 */
export const refundEvents = pgTable(
  'refund_events',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => refundRequests.id, { onDelete: 'cascade' }),
    /** status | assign | payment | note */
    kind: text('kind').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Who: the operator's e-mail, an API key's name, `cli` or `admin-api`. */
    actorLabel: text('actor_label').notNull(),
    actorOperatorId: uuid('actor_operator_id'),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    /** A status change's or payment's message to the holder (e-mailed), or an internal note's text (never e-mailed). */
    text: text('text'),
  },
  (t) => [index('refund_events_request').on(t.requestId)],
);
