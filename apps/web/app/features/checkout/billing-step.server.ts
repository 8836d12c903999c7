import { redirect } from 'react-router';
import { serverApi } from '#app/lib/api.server.ts';
import { dataOrNull, formFailure, formOutcome } from '#app/lib/api-answer.server.ts';
import { isQuotationId } from '#app/lib/quotation.ts';
import { billingFieldOfApi, type InvoiceDetailsBody, initialBillingValues } from './billing-schema.ts';
import { isNotice, loadCheckout, notSavedMessage, quotationNotFound, type StepArgs } from './checkout.server.ts';
import { stepPath } from './checkout.ts';

const reviewBilling = 'Revisa los datos de facturación.';

/** Step 2 (/facturacion): the quotation and its priced plan, and the billing data saved so far (404: none yet). */
export async function loadBillingStep({ context, request, params }: StepArgs) {
  const loaded = await loadCheckout(context, request, params, 'facturacion');
  if (isNotice(loaded)) return loaded;
  const { api, quotation, summary } = loaded;
  const saved = await api.GET('/quotations/{quotationId}/invoice-details', {
    params: { path: { quotationId: quotation.id } },
  });
  return {
    state: 'ok' as const,
    summary,
    initialValues: initialBillingValues(dataOrNull(saved, 'Los datos de facturación')),
  };
}

/** Saves the billing data (POST …/invoice-details) and goes on to the payment. */
export async function saveBilling({ context, request, params }: StepArgs) {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) return formFailure({ errors: [], formErrors: [quotationNotFound] }, 404);
  let body: InvoiceDetailsBody;
  try {
    body = (await request.json()) as InvoiceDetailsBody;
  } catch {
    return formFailure({ errors: [], formErrors: [reviewBilling] }, 400);
  }
  const saved = await serverApi(context).POST('/quotations/{quotationId}/invoice-details', {
    params: { path: { quotationId } },
    body,
  });
  const outcome = formOutcome(saved, {
    toField: billingFieldOfApi,
    invalidMessage: reviewBilling,
    notFoundMessage: quotationNotFound,
    unavailableMessage: notSavedMessage,
  });
  if (!outcome.ok) return formFailure(outcome.failure, outcome.status);
  return redirect(stepPath('pago', params.idProducto, quotationId));
}
