import { ruleMessages } from '@travesia/domain/rules';
import { redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrNull, dataOrThrow, formFailure, formOutcome } from '#app/lib/api-answer.server.ts';
import {
  isNotice,
  loadCheckout,
  notSavedMessage,
  postedStepForm,
  quotationNotFound,
  type StepArgs,
} from './checkout.server.ts';
import { stepPath } from './checkout.ts';
import {
  initialPassengersValues,
  type PassengersValues,
  passengerSlots,
  passengersFieldOfApi,
  passengersSchema,
  passengersValuesOfForm,
  toPassengersBody,
} from './passengers-schema.ts';
import { type FailureWithValues, issuesAsFieldErrors } from './posted-form.ts';

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
  const { addOns } = loaded;
  const slots = passengerSlots(summary.passengerGroups);
  return {
    state: 'ok' as const,
    summary,
    countries: countryList,
    slots,
    addOnOffers: addOns.addOns,
    initialValues: initialPassengersValues(slots, dataOrNull(saved, 'Los pasajeros de tu compra'), countryList),
  };
}

export type PassengersFailure = FailureWithValues<PassengersValues>;

const failed = (failure: PassengersFailure, status: number) => formFailure(failure, status);

/**
 * Saves the travellers and goes on to billing. The form posts natively (urlencoded, with or without JavaScript):
 * its fields are checked here with the form's own rules (the terms, which the API does not know, included), then
 * sent as the API's body (PUT …/passangers). A refusal answers the errors by field and what was entered, so the
 * page renders them again without JavaScript; nothing the visitor typed ever goes into a URL.
 */
export async function savePassengers({ context, request, params }: StepArgs) {
  const posted = await postedStepForm({ request, params }, reviewPassengers);
  if ('failure' in posted) return failed(posted.failure, posted.status);
  const { quotationId, form } = posted;
  const api = serverApi(context);
  const found = await api.GET('/quotations/{companyId}/{quotationId}', {
    params: { path: { companyId: configuredCompanyId(), quotationId } },
  });
  const quotation = formOutcome(found, { notFoundMessage: quotationNotFound, unavailableMessage: notSavedMessage });
  if (!quotation.ok) return failed(quotation.failure, quotation.status);
  const slots = passengerSlots(quotation.data.passangerTypes.filter((p) => p.quantity > 0));
  const values = passengersValuesOfForm(form, slots.length);

  // Without JavaScript the shared-contact box cannot swap the contact fields it governs: when it was (un)ticked,
  // the page comes back showing the fields it now asks for, filled with the contact typed, before any rule applies.
  const sharedShown = form.has('emergencyContact.firstName');
  const ownShown = form.has('passengers.0.emergencyContact.firstName');
  if (slots.length > 1 && sharedShown !== ownShown && values.shareEmergencyContact !== sharedShown) {
    const typed = sharedShown ? values.emergencyContact : values.passengers[0]?.emergencyContact;
    const swapped: PassengersValues = values.shareEmergencyContact
      ? { ...values, emergencyContact: typed ?? values.emergencyContact }
      : {
          ...values,
          passengers: values.passengers.map((p) => ({ ...p, emergencyContact: { ...values.emergencyContact } })),
        };
    return failed({ errors: [], formErrors: [ruleMessages.emergencyContact], values: swapped }, 400);
  }

  const checked = passengersSchema(slots, quotation.data.departureDate).safeParse(values);
  if (!checked.success) {
    return failed({ errors: issuesAsFieldErrors(checked.error.issues), formErrors: [], values }, 400);
  }
  const saved = await api.PUT('/quotations/{quotationId}/passangers', {
    params: { path: { quotationId } },
    body: toPassengersBody(values),
  });
  const outcome = formOutcome(saved, {
    toField: passengersFieldOfApi,
    invalidMessage: reviewPassengers,
    notFoundMessage: quotationNotFound,
    unavailableMessage: notSavedMessage,
  });
  if (!outcome.ok) return failed({ ...outcome.failure, values }, outcome.status);
  return redirect(stepPath('facturacion', params.idProducto, quotationId));
}
