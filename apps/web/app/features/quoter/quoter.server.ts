import { redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { type FormFailure, formFailure, formOutcome, type LoadContext } from '#app/lib/api-answer.server.ts';
import type { QuoterSubmission } from './schema.ts';

/** What the quoter form needs beyond the website parameters: origins, destinations per modality, and a quotation
 * to modify when the URL says `?cotizacion=`. */
export async function loadQuoter(context: LoadContext, request: Request) {
  const api = serverApi(context);
  const companyId = configuredCompanyId();
  const path = { companyId };
  const [origins, modalities] = await Promise.all([
    api.GET('/companies/{companyId}/origins', { params: { path } }),
    api.GET('/companies/{companyId}/modalities', { params: { path } }),
  ]);
  const destinationLists = await Promise.all(
    (modalities.data ?? []).map(async (modality) => {
      const { data } = await api.GET('/companies/{companyId}/destinations/{modalityId}', {
        params: { path: { companyId, modalityId: modality.id } },
      });
      return [String(modality.id), data ?? []] as const;
    }),
  );
  const quotationId = new URL(request.url).searchParams.get('cotizacion');
  let quotation = null;
  if (quotationId) {
    const { data } = await api.GET('/quotations/{companyId}/{quotationId}', {
      params: { path: { companyId, quotationId } },
    });
    quotation = data ?? null;
  }
  return {
    origins: origins.data ?? [],
    modalities: modalities.data ?? [],
    destinationsByModality: Object.fromEntries(destinationLists),
    quotation,
  };
}

/** What the quoter's action answers when the API refuses the trip: messages by quoter field, and for the form. */
export type QuoterActionResult = FormFailure;

const reviewTrip = 'Revisa los datos de tu viaje.';

/** The quoter's own fields; the API's `passangerTypes` (and its items) is the passengers' counter. */
const quoterFields = new Set(['origin', 'modality', 'destination', 'departureDate', 'returnDate', 'discountCode']);

/** The quoter field that shows an API field's error (null: the whole form shows it). */
function quoterFieldOfApi(field: string): string | null {
  if (field === 'passangerTypes' || field.startsWith('passangerTypes.')) return 'passengers';
  return quoterFields.has(field) ? field : null;
}

/** The JSON object the quoter form posts; anything else (a form post, an empty body, other JSON) is undefined. */
async function readSubmission(request: Request): Promise<QuoterSubmission | undefined> {
  try {
    const body: unknown = await request.json();
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as QuoterSubmission) : undefined;
  } catch {
    return undefined;
  }
}

/** Creates (or, when modifying, replaces) the quotation and sends the visitor to its plans. */
export async function submitQuoter(context: LoadContext, request: Request) {
  const submission = await readSubmission(request);
  if (!submission) return formFailure({ errors: [], formErrors: [reviewTrip] }, 400);
  const api = serverApi(context);
  const companyId = configuredCompanyId();
  const body = {
    origin: submission.origin,
    destination: submission.destination,
    modality: submission.modality,
    departureDate: submission.departureDate,
    returnDate: submission.returnDate,
    passangerTypes: submission.passangerTypes,
    discountCode: submission.discountCode,
    upgradeCovid: submission.upgradeCovid,
    referralCode: submission.referralCode,
    pantalla: submission.pantalla,
  };
  const options = {
    toField: quoterFieldOfApi,
    invalidMessage: reviewTrip,
    notFoundMessage: reviewTrip,
    unavailableMessage: 'No pudimos guardar tu cotización. Intenta nuevamente en unos minutos.',
  };
  let id = submission.quotationId;
  if (id) {
    const saved = await api.PUT('/quotations/{companyId}/{quotationId}', {
      params: { path: { companyId, quotationId: id } },
      body,
      parseAs: 'text',
    });
    const outcome = formOutcome(saved, options);
    if (!outcome.ok) return formFailure(outcome.failure, outcome.status);
  } else {
    const outcome = formOutcome(
      await api.POST('/quotations/{companyId}', { params: { path: { companyId } }, body }),
      options,
    );
    if (!outcome.ok) return formFailure(outcome.failure, outcome.status);
    id = outcome.data.id;
  }
  return redirect(`/comparador/${id}`);
}
