import { redirect } from 'react-router';
import { serverApi } from '#app/lib/api.server.ts';
import { dataOrNull, formFailure, formOutcome } from '#app/lib/api-answer.server.ts';
import {
  type BillingValues,
  billingFieldOfApi,
  billingSchema,
  billingValuesOfForm,
  initialBillingValues,
  toInvoiceBody,
} from './billing-schema.ts';
import {
  isNotice,
  loadCheckout,
  notSavedMessage,
  postedStepForm,
  quotationNotFound,
  type StepArgs,
} from './checkout.server.ts';
import { stepPath } from './checkout.ts';
import { type FailureWithValues, issuesAsFieldErrors } from './posted-form.ts';

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

export type BillingFailure = FailureWithValues<BillingValues>;

const failed = (failure: BillingFailure, status: number) => formFailure(failure, status);

/**
 * Saves the billing data (POST …/invoice-details) and goes on to the payment. The form posts natively
 * (urlencoded, with or without JavaScript); a refusal answers the errors by field and what was entered.
 */
export async function saveBilling({ context, request, params }: StepArgs) {
  const posted = await postedStepForm({ request, params }, reviewBilling);
  if ('failure' in posted) return failed(posted.failure, posted.status);
  const { quotationId, form } = posted;
  const values = billingValuesOfForm(form);
  const checked = billingSchema.safeParse(values);
  if (!checked.success) {
    return failed({ errors: issuesAsFieldErrors(checked.error.issues), formErrors: [], values }, 400);
  }
  const saved = await serverApi(context).POST('/quotations/{quotationId}/invoice-details', {
    params: { path: { quotationId } },
    body: toInvoiceBody(values),
  });
  const outcome = formOutcome(saved, {
    toField: billingFieldOfApi,
    invalidMessage: reviewBilling,
    notFoundMessage: quotationNotFound,
    unavailableMessage: notSavedMessage,
  });
  if (!outcome.ok) return failed({ ...outcome.failure, values }, outcome.status);
  return redirect(stepPath('pago', params.idProducto, quotationId));
}
