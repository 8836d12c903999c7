import { todayInChile } from '@travesia/domain/dates';
import {
  issueCertificates,
  listCertificates,
  queueAutomaticCertificateEmail,
  replaceCertificates,
} from '#app/modules/certificates/service.ts';
import { lockPurchase } from '#app/modules/payments/purchase-lock.ts';
import type { SaleRefundCompletions } from '#app/modules/payments/sale-refunds.ts';
import type { PurchaseSteps } from '#app/modules/payments/service.ts';
import { completeWithdrawal } from '#app/modules/purchases/withdrawal.ts';
import { tripOfQuotation } from '#app/modules/quotations/service.ts';
import { queueCreditNote, queueSaleDocuments } from '#app/modules/tax-documents/service.ts';

/*
 * The purchase workflow: the steps of a purchase that cross modules, owned here so the modules never import each
 * other in a cycle (docs/decisions/015-purchase-workflow.md). The modules are layered
 *   catalog ← plans ← quotations ← passengers, invoices ← payments ← certificates ← purchases
 * and each step that runs at a lower module's moment but acts on a higher one is handed down from here:
 * - the purchase lock (quotations' row + payments' sale state) to quotations and passengers, whose writes receive it
 *   as a handle (their repositories never import it);
 * - payments' steps (`PaymentDeps.workflow`): a sale made paid issues its certificates and queues their e-mail, in the same transaction; an
 *   applied date change replaces the certificates; the payment result lists them.
 * app.ts and worker.ts wire these in; nothing below imports this file.
 */

/** The purchase lock, for the writes of quotations and passengers (their routes receive it). */
/** A stored quotation's trip, for the plans of a quotation (plans' routes receive it: quotations prices with plans). */
export { lockPurchase, tripOfQuotation };

const certificateYear = () => Number(todayInChile().slice(0, 4));

/**
 * What payments runs at its moments, acting on the modules above it, and what each sale refund completes once the
 * money went back. `taxDocuments`: the store issues tax documents (TAX_DOCUMENTS_PROVIDER local or openfactura): an
 * authorised payment queues its boleta/factura and a refund its nota de crédito, each a job in the same transaction
 * (nothing waits for the provider: certificates and their e-mail never depend on it).
 */
export function purchaseWorkflow(options: { taxDocuments: boolean }): {
  steps: PurchaseSteps;
  refundCompletions: SaleRefundCompletions;
} {
  const { taxDocuments } = options;
  return {
    steps: {
      async salePaid(tx, sale) {
        await issueCertificates(tx, sale, certificateYear());
        await queueAutomaticCertificateEmail(tx, sale.id);
        if (taxDocuments) await queueSaleDocuments(tx, sale);
      },
      async dateChangeApplied(tx, sale, change) {
        await replaceCertificates(tx, sale, change.id, certificateYear());
        // A dearer change's difference was just authorised: its own document.
        if (taxDocuments) await queueSaleDocuments(tx, sale);
      },
      certificatesOf: (db, saleId) => listCertificates(db, saleId),
    },
    refundCompletions: {
      async withdrawal(tx, refund) {
        await completeWithdrawal(tx, refund);
        if (taxDocuments) await queueCreditNote(tx, refund);
      },
      ...(taxDocuments ? { date_change: (tx, refund) => queueCreditNote(tx, refund) } : {}),
    },
  };
}
