import { redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrNull, dataOrThrow, formFailure, formOutcome } from '#app/lib/api-answer.server.ts';
import { isQuotationId } from '#app/lib/quotation.ts';
import { isNotice, loadCheckout, notSavedMessage, quotationNotFound, type StepArgs } from './checkout.server.ts';
import { stepPath } from './checkout.ts';
import {
  initialPassengersValues,
  type PassengersBody,
  passengerSlots,
  passengersFieldOfApi,
} from './passengers-schema.ts';

const reviewPassengers = 'Revisa los datos de los pasajeros.';

/** Step 1 (/compra): the quotation, its priced plan, the destination's countries and the travellers saved so far. */
export async function loadPassengersStep({ context, request, params }: StepArgs) {
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
  const countryList = dataOrThrow(countries, 'Los países de destino');
  const slots = passengerSlots(summary.passengerGroups);
  return {
    state: 'ok' as const,
    summary,
    countries: countryList,
    slots,
    initialValues: initialPassengersValues(slots, dataOrNull(saved, 'Los pasajeros de tu compra'), countryList),
  };
}

/** Saves the travellers (PUT …/passangers, the API's exact body) and goes on to billing. */
export async function savePassengers({ context, request, params }: StepArgs) {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) return formFailure({ errors: [], formErrors: [quotationNotFound] }, 404);
  let body: PassengersBody;
  try {
    body = (await request.json()) as PassengersBody;
  } catch {
    return formFailure({ errors: [], formErrors: [reviewPassengers] }, 400);
  }
  const saved = await serverApi(context).PUT('/quotations/{quotationId}/passangers', {
    params: { path: { quotationId } },
    body,
  });
  const outcome = formOutcome(saved, {
    toField: passengersFieldOfApi,
    invalidMessage: reviewPassengers,
    notFoundMessage: quotationNotFound,
    unavailableMessage: notSavedMessage,
  });
  if (!outcome.ok) return formFailure(outcome.failure, outcome.status);
  return redirect(stepPath('facturacion', params.idProducto, quotationId));
}
