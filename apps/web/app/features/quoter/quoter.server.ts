import { data, redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import type { QuoterSubmission } from './schema.ts';

type LoadContext = { apiFetch?: typeof fetch } | undefined;

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

export type QuoterActionResult = { errors: { field: string; message: string }[]; formError: string | null };

/** Field names of the API's quotation body → the quoter's fields. */
const fieldOfApi: Record<string, string> = { passangerTypes: 'passengers' };

const invalidSubmission = () =>
  data<QuoterActionResult>({ errors: [], formError: 'Revisa los datos de tu viaje.' }, { status: 400 });

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
export async function submitQuoter(
  context: LoadContext,
  request: Request,
): Promise<Response | QuoterActionResult | ReturnType<typeof invalidSubmission>> {
  const submission = await readSubmission(request);
  if (!submission) return invalidSubmission();
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
  let quotationId = submission.quotationId;
  let failure: { status: number; errors: { field: string; message: string }[] } | null = null;
  if (quotationId) {
    const { error, response } = await api.PUT('/quotations/{companyId}/{quotationId}', {
      params: { path: { companyId, quotationId } },
      body,
      parseAs: 'text',
    });
    if (error || !response.ok) failure = { status: response.status, errors: parseErrors(error) };
  } else {
    const { data, error, response } = await api.POST('/quotations/{companyId}', {
      params: { path: { companyId } },
      body,
    });
    if (data) quotationId = data.id;
    else failure = { status: response.status, errors: error?.errors ?? [] };
  }
  if (failure || !quotationId) {
    const errors = (failure?.errors ?? []).map((e) => ({ field: fieldOfApi[e.field] ?? e.field, message: e.message }));
    return {
      errors,
      formError:
        failure && failure.status >= 500
          ? 'No pudimos guardar tu cotización. Intenta nuevamente en unos minutos.'
          : errors.length === 0
            ? 'Revisa los datos de tu viaje.'
            : null,
    };
  }
  return redirect(`/comparador/${quotationId}`);
}

function parseErrors(error: unknown): { field: string; message: string }[] {
  if (typeof error === 'string') {
    try {
      return (JSON.parse(error) as { errors?: { field: string; message: string }[] }).errors ?? [];
    } catch {
      return [];
    }
  }
  return (error as { errors?: { field: string; message: string }[] } | undefined)?.errors ?? [];
}
