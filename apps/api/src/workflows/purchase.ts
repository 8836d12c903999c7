import { todayInChile } from '@travesia/domain/dates';
import {
  issueCertificates,
  listCertificates,
  queueAutomaticCertificateEmail,
  replaceCertificates,
} from '#app/modules/certificates/service.ts';
import { lockPurchase } from '#app/modules/payments/purchase-lock.ts';
import type { PurchaseSteps } from '#app/modules/payments/service.ts';
import { tripOfQuotation } from '#app/modules/quotations/service.ts';

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

/** What payments runs at its moments, acting on the modules above it. */
export const purchaseSteps: PurchaseSteps = {
  async salePaid(tx, sale) {
    await issueCertificates(tx, sale, certificateYear());
    await queueAutomaticCertificateEmail(tx, sale.id);
  },
  async dateChangeApplied(tx, sale, change) {
    await replaceCertificates(tx, sale, change.id, certificateYear());
  },
  certificatesOf: (db, saleId) => listCertificates(db, saleId),
};
