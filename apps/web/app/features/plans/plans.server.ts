import { data, redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, fieldErrors, formOutcome, type LoadContext } from '#app/lib/api-answer.server.ts';
import { previewHeaders, previewLinkOf } from '#app/lib/preview.ts';
import {
  departureHasPassed,
  expiredQuotationMessage,
  isQuotationId,
  toQuotationBody,
  visitorMessages,
} from '#app/lib/quotation.ts';

type PlansArgs = { context: LoadContext; params: { id: string } };

const quotationNotFound = 'No encontramos esta cotización.';

/**
 * /comparador: the quotation and its priced plans. An unknown quotation, a trip whose departure has passed or one
 * the catalogue no longer sells are pages of their own (with a way to quote again), not errors.
 */
export async function loadComparator({ params, context, request }: PlansArgs & { request: Request }) {
  const link = previewLinkOf(request);
  if (!link) return comparatorOf({ params, context }, undefined);
  // A value that cannot be a token is a link that does not open, like a forged one (never sent to the API).
  if (link.token === null) return data({ state: 'preview-invalid' as const }, { headers: previewHeaders });
  // A preview of a draft's prices: the page is the real comparator priced with them, kept by no cache.
  return data(await comparatorOf({ params, context }, link.token), { headers: previewHeaders });
}

async function comparatorOf({ params, context }: PlansArgs, previewToken: string | undefined) {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) return { state: 'not-found' as const };
  const api = serverApi(context);
  const companyId = configuredCompanyId();
  const headers = previewToken ? { 'x-vista-previa': previewToken } : undefined;

  const plansRequest = api.GET('/{companyId}/plans-comparador', {
    params: { path: { companyId }, query: { quotationId } },
    headers,
  });
  const found = await api.GET('/quotations/{companyId}/{quotationId}', {
    params: { path: { companyId, quotationId } },
  });
  if (!found.response.ok) await plansRequest.catch(() => undefined);
  if (found.response.status === 404 || found.response.status === 400) return { state: 'not-found' as const };
  const quotation = dataOrThrow(found, 'La cotización');

  const [plansResult, destinations, origins, unavailable] = await Promise.all([
    plansRequest,
    api.GET('/companies/{companyId}/destinations/{modalityId}', {
      params: { path: { companyId, modalityId: quotation.modality } },
    }),
    api.GET('/companies/{companyId}/origins', { params: { path: { companyId } } }),
    api.GET('/{companyId}/plans-unavailable/{quotationId}', {
      params: { path: { companyId, quotationId } },
      headers,
    }),
  ]);
  const { status } = plansResult.response;
  if (status === 403 && previewToken) return { state: 'preview-invalid' as const };
  if (status === 400) {
    const errors = fieldErrors(plansResult.error);
    if (departureHasPassed(errors)) return { state: 'expired' as const, quotationId };
    return { state: 'invalid' as const, quotationId, messages: visitorMessages(errors) };
  }
  if (status === 404) return { state: 'not-found' as const };
  return {
    state: 'ok' as const,
    quotation,
    plans: dataOrThrow(plansResult, 'Los planes'),
    destination: destinations.data?.find((d) => d.id === quotation.destination)?.label ?? null,
    origin: origins.data?.find((o) => o.id === quotation.origin)?.label ?? null,
    // Why fewer plans are shown; the plans themselves do not depend on it, so a failed call only leaves it out.
    unavailable: unavailable.data?.passengerTypes ?? [],
    preview: previewToken !== undefined,
  };
}

/** What «Elegir plan» answers when the plan could not be stored; `planId` is the card that shows it. */
export type ChoosePlanResult = { error: string; planId: number | null; expired: boolean };

const failure = (result: ChoosePlanResult, status: number) => data(result, { status });

/** «Elegir plan»: stores the chosen plan on the quotation (PUT) and goes on to the purchase. */
export async function choosePlan({ request, params, context }: PlansArgs & { request: Request }) {
  const quotationId = params.id;
  // A body that is not a form (JSON, or none with no content type) names no plan: the same 400 as a bad planId.
  const form = await request.formData().catch(() => null);
  const planId = Number(form?.get('planId'));
  if (!isQuotationId(quotationId)) return failure({ error: quotationNotFound, planId: null, expired: false }, 404);
  if (!Number.isInteger(planId) || planId <= 0) {
    return failure({ error: 'Elige uno de los planes de la lista.', planId: null, expired: false }, 400);
  }
  const api = serverApi(context);
  const path = { companyId: configuredCompanyId(), quotationId };
  const options = {
    toField: () => null,
    invalidMessage: 'No pudimos guardar tu elección. Intenta nuevamente.',
    notFoundMessage: quotationNotFound,
  };
  const current = await api.GET('/quotations/{companyId}/{quotationId}', { params: { path } });
  if (current.response.status === 404 || current.response.status === 400) {
    return failure({ error: quotationNotFound, planId, expired: false }, 404);
  }
  const found = formOutcome(current, options);
  if (!found.ok) return failure({ error: found.failure.formErrors.join('. '), planId, expired: false }, found.status);
  const saved = await api.PUT('/quotations/{companyId}/{quotationId}', {
    params: { path },
    body: toQuotationBody(found.data, planId),
    parseAs: 'text',
  });
  if (saved.response.status === 400 && departureHasPassed(fieldErrors(saved.error))) {
    return failure({ error: expiredQuotationMessage, planId, expired: true }, 400);
  }
  const stored = formOutcome(saved, options);
  if (!stored.ok)
    return failure({ error: stored.failure.formErrors.join('. '), planId, expired: false }, stored.status);
  return redirect(`/compra/${planId}/${quotationId}`);
}

/** /preview: the quotation's plans as the capture view shows them; one that cannot be shown says why, plainly. */
export async function loadPreview({ params, context }: PlansArgs) {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) return { state: 'not-found' as const };
  const answer = await serverApi(context).GET('/{companyId}/plans-quotation/{quotationId}', {
    params: { path: { companyId: configuredCompanyId(), quotationId } },
  });
  const { status } = answer.response;
  if (status === 400 && departureHasPassed(fieldErrors(answer.error))) return { state: 'expired' as const };
  if (status === 400 || status === 404) return { state: 'not-found' as const };
  return { state: 'ok' as const, plans: dataOrThrow(answer, 'Los planes') };
}
