import { data, redirect } from 'react-router';
import {
  type CheckoutActionResult,
  fieldErrors,
  splitErrors,
  unavailableMessage,
} from '#app/features/checkout/api-errors.ts';
import { BillingForm } from '#app/features/checkout/BillingForm.tsx';
import {
  billingFieldOfApi,
  type InvoiceDetailsBody,
  initialBillingValues,
} from '#app/features/checkout/billing-schema.ts';
import { CheckoutError } from '#app/features/checkout/CheckoutError.tsx';
import { CheckoutLayout } from '#app/features/checkout/CheckoutLayout.tsx';
import { CheckoutNotice } from '#app/features/checkout/CheckoutNotice.tsx';
import { isNotice, loadCheckout } from '#app/features/checkout/checkout.server.ts';
import { stepPath } from '#app/features/checkout/checkout.ts';
import { serverApi } from '#app/lib/api.server.ts';
import { isQuotationId } from '#app/lib/quotation.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/facturacion';

export const meta = () => [...pageTitle('Datos de facturación'), { name: 'robots', content: 'noindex' }];

/** Step 2: the quotation and its priced plan, and the billing data saved so far (404: none yet). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const loaded = await loadCheckout(context, request, params, 'facturacion');
  if (isNotice(loaded)) return loaded;
  const { api, quotation, summary } = loaded;
  const saved = await api.GET('/quotations/{quotationId}/invoice-details', {
    params: { path: { quotationId: quotation.id } },
  });
  if (!saved.data && saved.response.status !== 404) {
    throw new Response('Los datos de facturación no están disponibles', { status: 503 });
  }
  return { state: 'ok' as const, summary, initialValues: initialBillingValues(saved.data ?? null) };
}

const failure = (result: CheckoutActionResult, status: number) => data(result, { status });

/** Saves the billing data (POST …/invoice-details) and goes on to the payment. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) return failure({ errors: [], formErrors: ['No encontramos esta cotización.'] }, 404);
  let body: InvoiceDetailsBody;
  try {
    body = (await request.json()) as InvoiceDetailsBody;
  } catch {
    return failure({ errors: [], formErrors: ['Revisa los datos de facturación.'] }, 400);
  }
  const { error, response } = await serverApi(context).POST('/quotations/{quotationId}/invoice-details', {
    params: { path: { quotationId } },
    body,
  });
  if (response.ok) return redirect(stepPath('pago', params.idProducto, quotationId));
  if (response.status === 400) {
    const result = splitErrors(fieldErrors(error), billingFieldOfApi);
    if (result.errors.length === 0 && result.formErrors.length === 0) {
      result.formErrors.push('Revisa los datos de facturación.');
    }
    return failure(result, 400);
  }
  if (response.status === 404) return failure({ errors: [], formErrors: ['No encontramos esta cotización.'] }, 404);
  return failure({ errors: [], formErrors: [unavailableMessage] }, 503);
}

export default function BillingStep({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state !== 'ok') return <CheckoutNotice notice={loaderData} />;
  const { summary, initialValues } = loaderData;
  return (
    <CheckoutLayout
      step="facturacion"
      title="Datos de facturación"
      lead="¿A nombre de quién emitimos el documento tributario? Si no necesitas factura, te enviaremos una boleta."
      summary={summary}
    >
      <BillingForm
        initialValues={initialValues}
        actionResult={actionData}
        backTo={stepPath('compra', summary.planId, summary.quotationId)}
      />
    </CheckoutLayout>
  );
}

export function ErrorBoundary() {
  return <CheckoutError />;
}
