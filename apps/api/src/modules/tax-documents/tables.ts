import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  pgSequence,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { payments, sales } from '../payments/tables.ts';

/** The tables the tax-documents module owns (ADR 009). */

/** SII document types (DTE): boleta 39, boleta exenta 41, factura 33, factura exenta 34, nota de crédito 61. */
export const taxDocumentTypes = [39, 41, 33, 34, 61] as const;
export type TaxDocumentType = (typeof taxDocumentTypes)[number];

export const taxDocumentStates = ['pendiente', 'emitido', 'fallido'] as const;
export type TaxDocumentState = (typeof taxDocumentStates)[number];

/**
 * One electronic tax document. A sale document (39/41/33/34) belongs to exactly one payment and no payment ever gets
 * two (partial unique index); a credit note (61) is keyed by the refund it answers (`source_key`) and points at the
 * document it corrects. Amounts are whole pesos, equal to the ledger's entry for the same money.
 */
export const taxDocuments = pgTable(
  'tax_documents',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    /** The sale the payment belongs to («Mi compra» and the receipt list a sale's documents). */
    saleId: integer('sale_id')
      .notNull()
      .references(() => sales.id),
    /**
     * What this document answers, unique: `payment:<id>` for a sale document, `refund:<kind>:<id>` for a credit note.
     * It is also the provider's idempotency key, so a retried job asks for the same document, never a second one.
     */
    sourceKey: text('source_key').notNull().unique(),
    type: integer('type').$type<TaxDocumentType>().notNull(),
    /** Assigned by the provider when issued (null while pending). */
    folio: integer('folio'),
    netClp: integer('net_clp').notNull(),
    ivaClp: integer('iva_clp').notNull(),
    exemptClp: integer('exempt_clp').notNull(),
    totalClp: integer('total_clp').notNull(),
    /** For a credit note: the document it corrects. */
    correctsId: integer('corrects_id').references((): AnyPgColumn => taxDocuments.id),
    state: text('state', { enum: taxDocumentStates }).notNull().default('pendiente'),
    tries: integer('tries').notNull().default(0),
    /** The provider's last refusal or failure, in words (Spanish), for the console. */
    lastError: text('last_error'),
    /** Which adapter issued it (local, openfactura) and its id there (OpenFactura's TOKEN). */
    provider: text('provider'),
    providerId: text('provider_id'),
    pdfKey: text('pdf_key'),
    xmlKey: text('xml_key'),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // No payment ever gets two sale documents; credit notes are many per payment (one per refund).
    uniqueIndex('tax_documents_one_per_payment').on(t.paymentId).where(sql`type <> 61`),
    index('tax_documents_state').on(t.state, t.createdAt),
    index('tax_documents_sale').on(t.saleId),
    check('tax_documents_type', sql`${t.type} in (39, 41, 33, 34, 61)`),
    check('tax_documents_corrects', sql`(${t.type} = 61) = (${t.correctsId} is not null)`),
    check('tax_documents_total', sql`${t.totalClp} = ${t.netClp} + ${t.ivaClp} + ${t.exemptClp}`),
  ],
);

/** The local adapter's folios (test range, never a real one), shared by every process so no two documents share one. */
export const localTaxFolios = pgSequence('tax_documents_local_folio', { startWith: 900_000_001 });
