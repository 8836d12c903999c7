import { formatClp } from '@travesia/domain/money';
import { instalmentOptions } from '@travesia/domain/payment-types';
import { createCookie, redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import type { ApiClient } from '#app/lib/api.ts';
import { dataOrThrow, type FormFailure, fieldErrors, type LoadContext } from '#app/lib/api-answer.server.ts';
import type { components } from '#app/lib/api-schema.d.ts';
import { webConfig } from '#app/lib/config.server.ts';
import { departureHasPassed, isQuotationId, visitorMessages } from '#app/lib/quotation.ts';
import { cookieSecrets } from '#app/lib/secrets.server.ts';
import { type CheckoutNoticeState, type CheckoutStep, type CheckoutSummary, stepPath, successUrl } from './checkout.ts';

/** What a purchase step's loader and action receive (React Router's arguments, as far as they are read). */
export type StepArgs = { context: LoadContext; request: Request; params: { idProducto: string; id: string } };

/** The whole-form answer of an action on a quotation that does not exist. */
export const quotationNotFound = 'No encontramos esta cotización.';

/**
 * The start of a step's save: the path's quotation id (not one: 404) and the posted form (unreadable: 400 saying
 * `unreadable`), or the failure the action answers.
 */
export async function postedStepForm(
  { request, params }: Pick<StepArgs, 'request' | 'params'>,
  unreadable: string,
): Promise<{ quotationId: string; form: FormData } | { failure: FormFailure; status: number }> {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) return { failure: { errors: [], formErrors: [quotationNotFound] }, status: 404 };
  try {
    return { quotationId, form: await request.formData() };
  } catch {
    return { failure: { errors: [], formErrors: [unreadable] }, status: 400 };
  }
}

/** The whole-form answer when the API could not save (the visitor's data is not lost: the form keeps it). */
export const notSavedMessage = 'No pudimos guardar tus datos. Intenta nuevamente en unos minutos.';

export type Quotation = components['schemas']['Quotation'];
export type QuotationAddOns = components['schemas']['QuotationAddOns'];
export type Plan = components['schemas']['Plan'];

/**
 * The last sale started in this browser, with its access token: the proof that this browser is the buyer's, which
 * the API asks for before it shows who travels or serves a certificate. Signed (a tampered cookie reads as none),
 * HttpOnly, and Secure in production.
 */
const saleCookie = createCookie('travesia-venta', {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  secure: webConfig.production,
  secrets: cookieSecrets(),
  maxAge: 60 * 60 * 24 * 30,
});

type SaleMemo = { quotationId: string; idVenta: number; idTransaction: number; accessToken: string };

export async function rememberSale(sale: SaleMemo): Promise<string> {
  return saleCookie.serialize(sale);
}

/** This browser no longer holds any sale's proof («Salir» of «Mi compra»). */
export async function forgetSale(): Promise<string> {
  return saleCookie.serialize('', { maxAge: 0 });
}

/** The sale this browser started, if it started one (and the cookie is intact). */
export async function rememberedSale(request: Request): Promise<SaleMemo | null> {
  try {
    const sale = (await saleCookie.parse(request.headers.get('Cookie'))) as Partial<SaleMemo> | null;
    if (!sale || typeof sale.accessToken !== 'string' || typeof sale.quotationId !== 'string') return null;
    return sale as SaleMemo;
  } catch {
    return null;
  }
}

/** The access token of a sale, when this browser is the one that started its payment. */
export async function accessTokenOf(request: Request, idVenta: number): Promise<string | undefined> {
  const sale = await rememberedSale(request);
  return sale?.idVenta === idVenta ? sale.accessToken : undefined;
}

/** The success page of this quotation's sale when this browser started or saw it. */
export async function rememberedSuccessUrl(request: Request, quotationId: string): Promise<string | null> {
  const sale = await rememberedSale(request);
  return sale && sale.quotationId === quotationId ? successUrl(sale) : null;
}

/**
 * The quotation of a purchase step and its plan priced by the API. An unknown quotation, a paid one, one without
 * a plan or whose trip can no longer be sold answers a notice state; a URL naming another plan than the quotation's
 * is sent to the quotation's own.
 */
export async function loadCheckout(
  context: LoadContext,
  request: Request,
  params: { idProducto?: string; id?: string },
  step: CheckoutStep,
): Promise<
  { api: ApiClient; quotation: Quotation; summary: CheckoutSummary; addOns: QuotationAddOns } | CheckoutNoticeState
> {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) return { state: 'not-found' };
  const api = serverApi(context);
  const companyId = configuredCompanyId();
  const found = await api.GET('/quotations/{companyId}/{quotationId}', {
    params: { path: { companyId, quotationId } },
  });
  if (found.response.status === 404 || found.response.status === 400) return { state: 'not-found' };
  const quotation = dataOrThrow(found, 'La compra');
  if (quotation.status === 'paid') {
    return { state: 'paid', successUrl: await rememberedSuccessUrl(request, quotationId) };
  }
  if (quotation.planId === null) return { state: 'no-plan', quotationId };
  if (String(quotation.planId) !== params.idProducto) {
    throw redirect(stepPath(step, quotation.planId, quotationId));
  }

  const [priced, destinations, offered] = await Promise.all([
    api.GET('/{companyId}/plans/{planId}', {
      params: { path: { companyId, planId: quotation.planId }, query: { quotationId } },
    }),
    api.GET('/companies/{companyId}/destinations/{modalityId}', {
      params: { path: { companyId, modalityId: quotation.modality } },
    }),
    api.GET('/companies/{companyId}/quotations/{quotationId}/add-ons', {
      params: { path: { companyId, quotationId } },
    }),
  ]);
  const { status } = priced.response;
  if (status === 400) {
    const errors = fieldErrors(priced.error);
    if (departureHasPassed(errors)) return { state: 'expired', quotationId };
    return { state: 'unavailable', quotationId, messages: visitorMessages(errors) };
  }
  const plan = status === 404 ? undefined : dataOrThrow(priced, 'El plan de tu compra')[0];
  if (!plan) return { state: 'unavailable', quotationId, messages: [] };
  // The plan is sold for the trip (above): the add-ons' answer is the purchase's total, plan + add-ons chosen.
  const addOns = dataOrThrow(offered, 'Los adicionales de tu compra');
  const { totals } = addOns;
  const withAddOns = totals.addOnsClp > 0;

  return {
    api,
    quotation,
    addOns,
    summary: {
      quotationId,
      planId: plan.id,
      planLabel: plan.label,
      planImage: plan.image.small || null,
      departureDate: quotation.departureDate,
      returnDate: quotation.returnDate,
      days: plan.dias,
      destination: destinations.data?.find((d) => d.id === quotation.destination)?.label ?? null,
      passengerGroups: quotation.passangerTypes
        .filter((p) => p.quantity > 0)
        .map((p) => ({ passengerTypeId: p.passengerTypeId, quantity: p.quantity, ageFrom: p.ageFrom, ageTo: p.ageTo }))
        .sort((a, b) => a.ageFrom - b.ageFrom),
      totalUsd: withAddOns ? totals.formatted.totalUsd : plan.formatted.totalAmount,
      totalClp: withAddOns ? totals.formatted.total : plan.formatted.montoConversion,
      amountClp: totals.totalClp,
      planClp: plan.formatted.montoConversion,
      planAmountClp: plan.montoConversion,
      addOnLines: addOns.travellers.flatMap((traveller) =>
        traveller.addOns.map((line) => ({ seq: traveller.seq, name: line.name, clp: line.formatted })),
      ),
      addOnProblems: addOns.problems.map((problem) => problem.message),
      perPassenger: plan.perPassenger.map((one) => ({
        passengerTypeId: one.passengerTypeId,
        quantity: one.quantity,
        clp: one.formatted,
        usd: one.formattedUsd,
      })),
      instalments: { count: totals.instalments.count, amount: totals.instalments.formatted },
      // Worked out here, on the server, from the total the API priced: the browser only shows them.
      instalmentOptions: instalmentOptions(totals.totalClp, totals.instalments.count).map((option) => ({
        count: option.count,
        amount: formatClp(option.amountClp),
      })),
    },
  };
}

export function isNotice<T extends object>(loaded: T | CheckoutNoticeState): loaded is CheckoutNoticeState {
  return 'state' in loaded;
}
