import { data, redirect } from 'react-router';
import {
  type CheckoutActionResult,
  fieldErrors,
  splitErrors,
  unavailableMessage,
} from '#app/features/checkout/api-errors.ts';
import { CheckoutError } from '#app/features/checkout/CheckoutError.tsx';
import { CheckoutLayout } from '#app/features/checkout/CheckoutLayout.tsx';
import { CheckoutNotice } from '#app/features/checkout/CheckoutNotice.tsx';
import { isNotice, loadCheckout } from '#app/features/checkout/checkout.server.ts';
import { stepPath } from '#app/features/checkout/checkout.ts';
import { PassengersForm } from '#app/features/checkout/PassengersForm.tsx';
import {
  initialPassengersValues,
  type PassengersBody,
  passengerSlots,
  passengersFieldOfApi,
} from '#app/features/checkout/passengers-schema.ts';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { isQuotationId } from '#app/lib/quotation.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/compra';

export const meta = () => [...pageTitle('Datos de los pasajeros'), { name: 'robots', content: 'noindex' }];

const unavailable = () => new Response('Los datos de la compra no están disponibles', { status: 503 });

/** Step 1: the quotation, its priced plan, the destination's countries and the travellers saved so far (to resume). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const loaded = await loadCheckout(context, request, params, 'compra');
  if (isNotice(loaded)) return loaded;
  const { api, quotation, summary } = loaded;
  const companyId = configuredCompanyId();
  const [countries, saved] = await Promise.all([
    api.GET('/companies/{companyId}/destinations/{destinationId}/countries', {
      params: { path: { companyId, destinationId: quotation.destination } },
    }),
    api.GET('/quotations/{quotationId}/passangers', { params: { path: { quotationId: quotation.id } } }),
  ]);
  if (!countries.data) throw unavailable();
  if (!saved.data && saved.response.status !== 404) throw unavailable();
  const slots = passengerSlots(summary.passengerGroups);
  return {
    state: 'ok' as const,
    summary,
    countries: countries.data,
    slots,
    initialValues: initialPassengersValues(slots, saved.data ?? null, countries.data),
  };
}

const failure = (result: CheckoutActionResult, status: number) => data(result, { status });

/** Saves the travellers (PUT …/passangers, the API's exact body) and goes on to billing. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) return failure({ errors: [], formErrors: ['No encontramos esta cotización.'] }, 404);
  let body: PassengersBody;
  try {
    body = (await request.json()) as PassengersBody;
  } catch {
    return failure({ errors: [], formErrors: ['Revisa los datos de los pasajeros.'] }, 400);
  }
  const { error, response } = await serverApi(context).PUT('/quotations/{quotationId}/passangers', {
    params: { path: { quotationId } },
    body,
  });
  if (response.ok) return redirect(stepPath('facturacion', params.idProducto, quotationId));
  if (response.status === 400) {
    const result = splitErrors(fieldErrors(error), passengersFieldOfApi);
    if (result.errors.length === 0 && result.formErrors.length === 0) {
      result.formErrors.push('Revisa los datos de los pasajeros.');
    }
    return failure(result, 400);
  }
  if (response.status === 404) return failure({ errors: [], formErrors: ['No encontramos esta cotización.'] }, 404);
  return failure({ errors: [], formErrors: [unavailableMessage] }, 503);
}

export default function PurchaseStep({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state !== 'ok') return <CheckoutNotice notice={loaderData} />;
  const { summary, countries, slots, initialValues } = loaderData;
  return (
    <CheckoutLayout
      step="compra"
      title="Datos de los pasajeros"
      lead="Completa los datos de cada pasajero tal como aparecen en su documento. Te tomará un par de minutos."
      summary={summary}
    >
      <PassengersForm
        slots={slots}
        countries={countries}
        departureDate={summary.departureDate}
        initialValues={initialValues}
        actionResult={actionData}
      />
    </CheckoutLayout>
  );
}

export function ErrorBoundary() {
  return <CheckoutError />;
}
