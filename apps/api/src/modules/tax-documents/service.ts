import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { todayInChile } from '@travesia/domain/dates';
import { formatClp } from '@travesia/domain/money';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { DocumentNotFoundError, type DocumentStore } from '#app/integrations/document-store/index.ts';
import { emailHtml } from '#app/integrations/mail/email-html.ts';
import { type Mailer, mailFailureFields } from '#app/integrations/mail/mailer.ts';
import type { IssueDocument, Receiver, TaxDocumentProvider } from '#app/integrations/tax-documents/provider.ts';
import { TaxDocumentRefused } from '#app/integrations/tax-documents/provider.ts';
import { requireCompany } from '#app/modules/company/service.ts';
import { findInvoiceDetails } from '#app/modules/invoices/service.ts';
import { defaultMaxAttempts, enqueue, type JobHandler } from '#app/modules/jobs/service.ts';
import { addOnLinesOf } from '#app/modules/payments/add-ons.ts';
import { saleLedger } from '#app/modules/payments/ledger.ts';
import { findPaidAttempt, findSale } from '#app/modules/payments/service.ts';
import { planTaxBp } from '#app/modules/plans/service.ts';
import { documentLines, saleDocumentType, splitTotal, taxDocumentTypeNames } from './amounts.ts';
import * as repository from './repository.ts';
import type { TaxDocumentType } from './tables.ts';

export type TaxDocument = repository.TaxDocumentRow;
export { taxDocumentTypeNames };

/** The job that issues one document through the configured provider, and the one that e-mails it to the buyer. */
export const taxDocumentIssueKind = 'tax-document.issue';
export const taxDocumentEmailKind = 'tax-document.email';

/** Tries after which a document not yet issued shows on the console's «Hoy» (the job keeps retrying up to its last). */
export const notIssuedAfterTries = 3;

/** The SII's generic receiver of a boleta to a consumer. */
const consumer: Receiver = { rut: '66666666-6', name: 'Consumidor final' };

const documentItem = 'Asistencia en viaje';

/** Queues the issue job of a pending document in the caller's transaction (a retry gets a key of its own). */
async function queueIssue(tx: Database, row: repository.TaxDocumentRow, retry?: number) {
  const dedupe = `${taxDocumentIssueKind}:${row.sourceKey}${retry ? `:retry:${retry}` : ''}`;
  await enqueue(tx, taxDocumentIssueKind, { documentId: row.id, saleId: row.saleId }, dedupe);
}

/**
 * One sale document per authorised payment of the sale that has none yet (the purchase, a dearer date change's
 * difference), queued in the caller's transaction: the job issues it later, so nothing waits for the provider.
 * Amounts are the ledger's payment amounts split at the plan's IVA; a factura when the buyer asked for one.
 */
export async function queueSaleDocuments(tx: Database, sale: { id: number; productId: number; quotationId: string }) {
  const ledger = await saleLedger(tx, sale.id);
  const taxBp = await planTaxBp(tx, sale.productId);
  const factura = (await findInvoiceDetails(tx, sale.quotationId))?.generateInvoice === true;
  for (const entry of ledger.entries) {
    if (entry.kind !== 'payment' || entry.status !== 'authorized') continue;
    const { row, created } = await repository.insertPendingDocument(tx, {
      paymentId: entry.id,
      saleId: sale.id,
      sourceKey: `payment:${entry.id}`,
      type: saleDocumentType(taxBp !== null && taxBp > 0, factura),
      ...splitTotal(entry.amountClp, taxBp),
    });
    if (created) await queueIssue(tx, row);
  }
}

/**
 * A nota de crédito for money given back of a payment (a withdrawal, a cheaper date change, an operator's refund by
 * transfer), queued in the refund's transaction when it went back: the ledger's refunded amount, split as the
 * document it corrects. A payment without a sale document (the store issued none then) gets none.
 */
export async function queueCreditNote(
  tx: Database,
  refund: { id: number; saleId: number; paymentId: number; amountClp: number; reason: string },
) {
  const corrected = await repository.findSaleDocumentOfPayment(tx, refund.paymentId);
  if (!corrected) return;
  const sale = corrected.ivaClp > 0 ? await findSale(tx, refund.saleId) : undefined;
  const amounts = splitTotal(refund.amountClp, sale ? await planTaxBp(tx, sale.productId) : null);
  const { row, created } = await repository.insertPendingDocument(tx, {
    paymentId: refund.paymentId,
    saleId: refund.saleId,
    sourceKey: `refund:${refund.reason}:${refund.id}`,
    type: 61,
    correctsId: corrected.id,
    ...amounts,
  });
  if (created) await queueIssue(tx, row);
}

const reasons: Record<string, string> = {
  withdrawal: 'Retracto de la compra',
  date_change: 'Cambio de fechas: devolución de la diferencia',
};

/** The provider's failure in words for the console (Spanish), never a stack. */
export function failureInWords(error: unknown): string {
  if (error instanceof TaxDocumentRefused) return `El proveedor rechazó el documento: ${error.message}`;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return 'El proveedor no respondió a tiempo; se reintentará';
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/ECONNREFUSED|fetch failed/i.test(message)) return 'No se pudo conectar con el proveedor; se reintentará';
  return `El proveedor falló (${message.slice(0, 200)}); se reintentará`;
}

async function receiverOf(
  db: Database,
  sale: { quotationId: string },
  type: TaxDocumentType | number,
  factura: boolean,
) {
  if (!factura && type !== 33 && type !== 34) return consumer;
  const company = (await findInvoiceDetails(db, sale.quotationId))?.companyDetails;
  if (!company) return consumer;
  return { rut: company.id, name: company.name, giro: company.business, address: company.address };
}

const isFactura = (type: number) => type === 33 || type === 34;

const storeBytes = (store: DocumentStore, key: string, bytes: Uint8Array, contentType: string) =>
  store.put(key, Readable.from([Buffer.from(bytes)]), contentType);

/**
 * The issue job: asks the provider for the document under its source key (`find` first, so a retry after a crash
 * between the provider's answer and our commit never issues a second one; the provider's idempotency key too),
 * keeps its PDF and XML in the document store and marks it emitido, then queues its e-mail. A refusal (folios
 * exhausted, bad RUT) marks it fallido at once with the provider's words; other failures are retried with the
 * queue's back-off and marked fallido after the last try. Nothing else waits for it.
 */
export function taxDocumentIssueJob(
  db: Database,
  provider: TaxDocumentProvider,
  store: DocumentStore,
  options: { maxAttempts?: number } = {},
): JobHandler<{ documentId: number; saleId: number }> {
  const maxAttempts = options.maxAttempts ?? defaultMaxAttempts;
  return {
    payload: z.object({ documentId: z.number().int().positive(), saleId: z.number().int().positive() }),
    logFields: ({ documentId, saleId }) => ({ documentId, saleId }),
    maxAttempts,
    async run({ documentId }, job) {
      const row = await repository.findDocument(db, documentId);
      if (!row || row.state === 'emitido') return { issued: false };
      try {
        const doc = await documentToIssue(db, row);
        const issued = (await provider.find(row.sourceKey)) ?? (await provider.issue(doc));
        const base = `tax-documents/${row.saleId}/${row.id}-${issued.folio}`;
        await storeBytes(store, `${base}.pdf`, issued.pdf, 'application/pdf');
        await storeBytes(store, `${base}.xml`, issued.xml, 'application/xml');
        await db.transaction(async (txn) => {
          const tx = txn as unknown as Database;
          const marked = await repository.markIssued(tx, row.id, {
            folio: issued.folio,
            provider: provider.id,
            providerId: issued.providerId,
            pdfKey: `${base}.pdf`,
            xmlKey: `${base}.xml`,
          });
          if (marked)
            await enqueue(
              tx,
              taxDocumentEmailKind,
              { documentId: row.id, saleId: row.saleId },
              `${taxDocumentEmailKind}:${row.id}`,
            );
        });
        return { issued: true, folio: issued.folio };
      } catch (error) {
        const refused = error instanceof TaxDocumentRefused;
        await repository.markTryFailed(db, row.id, failureInWords(error), refused || job.attempt >= maxAttempts);
        // A refusal is not retried as is: the console shows it and an operator retries once mended.
        if (refused) return { issued: false, refused: true };
        throw error;
      }
    },
  };
}

/** What the provider is asked for a row: the receiver, the item and, for a credit note, the issued document it corrects. */
async function documentToIssue(db: Database, row: repository.TaxDocumentRow): Promise<IssueDocument> {
  const sale = await findSale(db, row.saleId);
  if (!sale) throw new Error(`Sale ${row.saleId} of tax document ${row.id} not found`);
  let corrects: IssueDocument['corrects'];
  let receiverType: number = row.type;
  if (row.type === 61) {
    const corrected = row.correctsId ? await repository.findDocument(db, row.correctsId) : undefined;
    if (corrected?.state !== 'emitido' || corrected.folio === null || !corrected.issuedAt) {
      // Retried with back-off until the document it corrects is issued.
      throw new Error('El documento que corrige aún no está emitido');
    }
    receiverType = corrected.type;
    const reason = reasons[row.sourceKey.split(':')[1] ?? ''] ?? 'Devolución';
    corrects = {
      type: corrected.type,
      folio: corrected.folio,
      date: todayInChile(corrected.issuedAt),
      reason,
      whole: row.totalClp === corrected.totalClp,
    };
  }
  return {
    key: row.sourceKey,
    type: row.type,
    date: todayInChile(),
    receiver: await receiverOf(db, sale, receiverType, isFactura(receiverType)),
    item: `${documentItem} · compra N° ${row.saleId}`,
    lines: row.type === 61 ? undefined : await saleDocumentLines(db, row),
    netClp: row.netClp,
    ivaClp: row.ivaClp,
    exemptClp: row.exemptClp,
    totalClp: row.totalClp,
    corrects,
  };
}

/**
 * The detail lines of a sale document (issue 27 §1): the purchase's own document, when the purchase bought add-ons,
 * gets the plan's line and one line per add-on kind, as its payment's snapshot sold them (never priced again), adding
 * up to the document exactly. Any other (no add-ons, a date change's difference): none, the one line of the whole.
 */
async function saleDocumentLines(db: Database, row: repository.TaxDocumentRow) {
  const attempt = await findPaidAttempt(db, row.saleId);
  const bought = attempt?.id === row.paymentId ? attempt.purchase : null;
  if (!bought || bought.price.totalClp !== row.totalClp) return undefined;
  const kinds = new Map<string, { name: string; count: number; totalClp: number }>();
  for (const { addOn } of addOnLinesOf(bought)) {
    const kind = kinds.get(addOn.code) ?? { name: addOn.name, count: 0, totalClp: 0 };
    kinds.set(addOn.code, { ...kind, count: kind.count + 1, totalClp: kind.totalClp + addOn.totalClp });
  }
  if (kinds.size === 0) return undefined;
  const addOns = [...kinds.values()].map((kind) => ({
    name: `Adicional ${kind.name} (${kind.count} ${kind.count === 1 ? 'pasajero' : 'pasajeros'})`,
    totalClp: kind.totalClp,
  }));
  return documentLines(row, `${documentItem} · plan ${bought.plan.label}`, addOns);
}

/** One document by id (the console's retry tells an unknown one from one no longer fallido). */
export const findTaxDocument = (db: Database, id: number) => repository.findDocument(db, id);

/** The documents of a sale, oldest first («Mi compra», the receipt, the console). */
export const listSaleDocuments = (db: Database, saleId: number) => repository.listDocumentsOfSale(db, saleId);

/** A document as the buyer sees it. `testMode`: issued by the local adapter (no tax value: said wherever shown). */
export function presentDocument(row: TaxDocument) {
  return {
    id: row.id,
    type: row.type,
    typeName: taxDocumentTypeNames[row.type],
    folio: row.folio,
    state: row.state,
    date: row.issuedAt ? todayInChile(row.issuedAt) : null,
    totalClp: row.type === 61 ? -row.totalClp : row.totalClp,
    formattedTotal: formatClp(row.type === 61 ? -row.totalClp : row.totalClp),
    noTaxValue: row.provider === 'local',
  };
}

/** The PDF of an issued document of this sale (the caller checked the purchase access), or null. */
export async function documentPdf(db: Database, store: DocumentStore, saleId: number, documentId: number) {
  const row = await repository.findDocument(db, documentId);
  if (!row || row.saleId !== saleId || row.state !== 'emitido' || !row.pdfKey) return null;
  return { row, body: await store.get(row.pdfKey) };
}

/** The store's name, the logo of the sale's e-mails. */
async function brandOfSale(db: Database, saleId: number) {
  const sale = await findSale(db, saleId);
  return sale ? (await requireCompany(db, sale.companyId)).name : 'Travesía';
}

/** The e-mail job: the issued document's PDF to the buyer. `buyerEmailOf`: the sale's buyer (certificates). */
export function taxDocumentEmailJob(
  db: Database,
  mailer: Mailer,
  store: DocumentStore,
  buyerEmailOf: (saleId: number) => Promise<string | null>,
): JobHandler<{ documentId: number; saleId: number }> {
  return {
    payload: z.object({ documentId: z.number().int().positive(), saleId: z.number().int().positive() }),
    logFields: ({ documentId, saleId }) => ({ documentId, saleId }),
    errorFields: mailFailureFields,
    async run({ documentId, saleId }) {
      const found = await documentPdf(db, store, saleId, documentId);
      const to = await buyerEmailOf(saleId);
      if (!found || !to) return { sent: false };
      const shown = presentDocument(found.row);
      const name = `${shown.typeName} N° ${shown.folio}`;
      const lines = [
        `Adjuntamos tu ${name} de la compra N° ${saleId}, por ${shown.formattedTotal}.`,
        ...(shown.noTaxValue ? ['SIN VALOR TRIBUTARIO: documento de prueba, no emitido ante el SII.'] : []),
        'También puedes descargarlo en «Mi compra».',
      ];
      await mailer.send({
        to: [to],
        subject: `${name} · compra N° ${saleId}`,
        text: lines.join('\n\n'),
        html: await emailHtml({
          brand: await brandOfSale(db, saleId),
          title: `${name} · compra N° ${saleId}`,
          preview: lines[0] ?? name,
          blocks: lines.map((text) =>
            shown.noTaxValue && text.startsWith('SIN VALOR') ? { type: 'notice', text } : { type: 'text', text },
          ),
        }),
        attachments: [
          {
            filename: `${found.row.type}-${shown.folio}.pdf`,
            content: await buffer(found.body),
            contentType: 'application/pdf',
          },
        ],
      });
      return { sent: true };
    },
  };
}

/** Documents not issued after `notIssuedAfterTries` tries or refused, for «Hoy», with the provider's error in words. */
export async function notIssuedDocuments(db: Database) {
  const rows = await repository.listNotIssued(db, notIssuedAfterTries);
  return rows.map((row) => ({
    id: row.id,
    saleId: row.saleId,
    typeName: taxDocumentTypeNames[row.type],
    totalClp: row.totalClp,
    state: row.state,
    tries: row.tries,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
  }));
}
export const countNotIssuedDocuments = (db: Database) => repository.countNotIssued(db, notIssuedAfterTries);

/** An operator's retry of a fallido document: pending again and a new issue job; answers the row before, or null. */
export async function retryTaxDocument(tx: Database, documentId: number) {
  const before = await repository.reopenFailed(tx, documentId);
  if (!before) return null;
  await queueIssue(tx, before, before.tries);
  return before;
}

/** The local adapter's persistence: folios from a shared sequence, issued documents kept in the document store. */
export function localProviderStore(db: Database, store: DocumentStore) {
  const keyOf = (key: string) => `tax-documents/local/${key.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`;
  return {
    nextFolio: () => repository.nextLocalFolio(db),
    async save(key: string, issued: { providerId: string; folio: number; pdf: Uint8Array; xml: Uint8Array }) {
      const json = JSON.stringify({
        providerId: issued.providerId,
        folio: issued.folio,
        pdf: Buffer.from(issued.pdf).toString('base64'),
        xml: Buffer.from(issued.xml).toString('base64'),
      });
      await store.put(keyOf(key), Readable.from([Buffer.from(json)]), 'application/json');
    },
    async load(key: string) {
      let body: Readable;
      try {
        body = await store.get(keyOf(key));
      } catch (error) {
        if (error instanceof DocumentNotFoundError) return null;
        throw error;
      }
      const saved = JSON.parse((await buffer(body)).toString('utf8')) as {
        providerId: string;
        folio: number;
        pdf: string;
        xml: string;
      };
      return {
        providerId: saved.providerId,
        folio: saved.folio,
        pdf: new Uint8Array(Buffer.from(saved.pdf, 'base64')),
        xml: new Uint8Array(Buffer.from(saved.xml, 'base64')),
      };
    },
  };
}
