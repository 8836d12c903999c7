import { addDays, parseIsoDate, todayInChile } from '@travesia/domain/dates';
import { redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import {
  type FieldError,
  type FormFailure,
  formFailure,
  formOutcome,
  type LoadContext,
} from '#app/lib/api-answer.server.ts';
import { fromChileanDate } from '#app/lib/dates.ts';
import { type PreviewHeaders, withPreviewFallback } from '#app/lib/preview.server.ts';
import { passengerFieldPrefix } from './fields.ts';
import { type QuoterValues, quoterErrors } from './schema.ts';

/**
 * Origins, modalities and the destinations of each modality: what the quoter offers and checks against. With a
 * console preview link of the geography (in `request`), the draft's origins and regions (the shell's banner says
 * it is a preview); a link that does not open them, the live lists.
 */
async function loadCatalogue(context: LoadContext, request?: Request) {
  const api = serverApi(context);
  const companyId = configuredCompanyId();
  const path = { companyId };
  const modalities = await api.GET('/companies/{companyId}/modalities', { params: { path } });
  const lists = (previewHeaders: PreviewHeaders) =>
    Promise.all([
      api.GET('/companies/{companyId}/origins', { params: { path }, ...previewHeaders }),
      ...(modalities.data ?? []).map((modality) =>
        api.GET('/companies/{companyId}/destinations/{modalityId}', {
          params: { path: { companyId, modalityId: modality.id } },
          ...previewHeaders,
        }),
      ),
    ]);
  const {
    answer: [origins, ...destinations],
  } = request ? await withPreviewFallback(request, lists) : { answer: await lists({}) };
  const destinationLists = (modalities.data ?? []).map(
    (modality, index) => [String(modality.id), destinations[index]?.data ?? []] as const,
  );
  return {
    origins: origins.data ?? [],
    modalities: modalities.data ?? [],
    destinationsByModality: Object.fromEntries(destinationLists),
  };
}

/** What the quoter form needs beyond the website parameters: origins, destinations per modality, and a quotation
 * to modify when the URL says `?cotizacion=`. */
export async function loadQuoter(context: LoadContext, request: Request) {
  const api = serverApi(context);
  const companyId = configuredCompanyId();
  const url = new URL(request.url);
  const quotationId = url.searchParams.get('cotizacion');
  const [catalogue, quotation] = await Promise.all([
    loadCatalogue(context, request),
    quotationId
      ? api
          .GET('/quotations/{companyId}/{quotationId}', { params: { path: { companyId, quotationId } } })
          .then(({ data }) => data ?? null)
      : null,
  ]);
  return { ...catalogue, quotation };
}

/**
 * What the quoter's action answers when the trip is refused: messages by quoter field and for the form, and the
 * values as entered, so the page rendered on the server (a post without JavaScript) shows them again.
 */
export type QuoterActionResult = FormFailure & { values?: QuoterValues };

const reviewTrip = 'Revisa los datos de tu viaje.';

/** The quoter's own fields; the API's `passangerTypes` (and its items) is the passengers' counter. */
const quoterFields = new Set(['origin', 'modality', 'destination', 'departureDate', 'returnDate', 'discountCode']);

/** The quoter field that shows an API field's error (null: the whole form shows it). */
function quoterFieldOfApi(field: string): string | null {
  if (field === 'passangerTypes' || field.startsWith('passangerTypes.')) return 'passengers';
  return quoterFields.has(field) ? field : null;
}

/** A typed date as the quoter's rules take it: ISO when it is a date (dd-mm-aaaa as typed, or ISO), else as typed. */
function enteredDate(text: string): string {
  const trimmed = text.trim();
  if (parseIsoDate(trimmed) !== null) return trimmed;
  return fromChileanDate(trimmed) ?? trimmed;
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/**
 * The quoter's fields as posted, natively (a form without JavaScript) or by the enhanced form (the same names, the
 * dates already ISO). Undefined when the body is not a form post at all.
 */
async function readQuoterForm(request: Request) {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return;
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return;
  }
  const passengers: Record<string, number> = {};
  let passengersUnreadable = false;
  for (const [name, value] of form) {
    if (!name.startsWith(passengerFieldPrefix) || typeof value !== 'string') continue;
    const count = value.trim() === '' ? 0 : Number(value);
    if (Number.isInteger(count) && count >= 0) passengers[name.slice(passengerFieldPrefix.length)] = count;
    else passengersUnreadable = true;
  }
  const upgrade = text(form, 'upgradeCovid');
  const values: QuoterValues = {
    origin: text(form, 'origin'),
    modality: text(form, 'modality'),
    destination: text(form, 'destination'),
    departureDate: enteredDate(text(form, 'departureDate')),
    returnDate: enteredDate(text(form, 'returnDate')),
    passengers,
    discountCode: text(form, 'discountCode').trim(),
    upgradeCovid: upgrade !== '' && upgrade !== 'false',
  };
  return { values, quotationId: text(form, 'quotationId') || null, passengersUnreadable };
}

const failed = (result: QuoterActionResult, status: number) => formFailure(result, status);

/** Where the quotation comes from: the partner code of /home/{code} or /cotizador/{codename}, and the screen. */
export type QuoterOrigin = { referralCode: string | null; pantalla: string };

/**
 * Creates (or, when modifying, replaces) the quotation and sends the visitor to its plans. Checks the trip with the
 * form's own rules first (a post without JavaScript was never checked in the browser); refused values come back
 * with their messages, and the page shows them as entered.
 */
export async function submitQuoter(context: LoadContext, request: Request, from: QuoterOrigin) {
  const posted = await readQuoterForm(request);
  if (!posted) return failed({ errors: [], formErrors: [reviewTrip] }, 400);
  const { values, quotationId } = posted;
  const { modalities, destinationsByModality } = await loadCatalogue(context);
  const modality = modalities.find((m) => String(m.id) === values.modality);
  // Fixed by the modality (its field is disabled, so a native post does not send it): computed here.
  if (modality && !modality.returnDateConfiguration.enabled && parseIsoDate(values.departureDate) !== null) {
    values.returnDate = addDays(values.departureDate, modality.returnDateConfiguration.addDays);
  }
  const found = quoterErrors(values, modalities, todayInChile());
  if (posted.passengersUnreadable) found.passengers = 'Indica la cantidad de pasajeros con un número entero.';
  const offered = destinationsByModality[values.modality] ?? [];
  if (modality && !found.destination && !offered.some((d) => String(d.id) === values.destination)) {
    found.destination = `Elige un destino disponible para la modalidad ${modality.label}.`;
  }
  const errors: FieldError[] = Object.entries(found).map(([field, message]) => ({ field, code: 'invalid', message }));
  if (errors.length > 0) return failed({ errors, formErrors: [reviewTrip], values }, 400);

  const api = serverApi(context);
  const companyId = configuredCompanyId();
  const body = {
    origin: Number(values.origin),
    destination: Number(values.destination),
    modality: Number(values.modality),
    departureDate: values.departureDate,
    returnDate: values.returnDate,
    passangerTypes: Object.entries(values.passengers)
      .filter(([, quantity]) => quantity > 0)
      .map(([passengerTypeId, quantity]) => ({ passengerTypeId: Number(passengerTypeId), quantity })),
    discountCode: values.discountCode || null,
    upgradeCovid: values.upgradeCovid,
    referralCode: from.referralCode,
    pantalla: from.pantalla,
  };
  const options = {
    toField: quoterFieldOfApi,
    invalidMessage: reviewTrip,
    notFoundMessage: reviewTrip,
    unavailableMessage: 'No pudimos guardar tu cotización. Intenta nuevamente en unos minutos.',
  };
  let id = quotationId;
  if (id) {
    const saved = await api.PUT('/quotations/{companyId}/{quotationId}', {
      params: { path: { companyId, quotationId: id } },
      body,
      parseAs: 'text',
    });
    const outcome = formOutcome(saved, options);
    if (!outcome.ok) return failed({ ...outcome.failure, values }, outcome.status);
  } else {
    const outcome = formOutcome(
      await api.POST('/quotations/{companyId}', { params: { path: { companyId } }, body }),
      options,
    );
    if (!outcome.ok) return failed({ ...outcome.failure, values }, outcome.status);
    id = outcome.data.id;
  }
  return redirect(`/comparador/${id}`);
}
