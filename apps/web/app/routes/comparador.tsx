import { formatMoney } from '@travesia/domain/money';
import { data, Link, redirect, useSearchParams } from 'react-router';
import { Notice } from '#app/components/Notice.tsx';
import { useShellModals } from '#app/components/ShellModals.tsx';
import { ComparisonTable } from '#app/features/plans/ComparisonTable.tsx';
import { currencyFormat } from '#app/features/plans/format.ts';
import { PlanCard } from '#app/features/plans/PlanCard.tsx';
import { PlansToolbar, parsePlansView } from '#app/features/plans/PlansToolbar.tsx';
import { parsePlanOrder, sortPlans } from '#app/features/plans/sortPlans.ts';
import { TripSummary } from '#app/features/plans/TripSummary.tsx';
import type { ComparatorPlan } from '#app/features/plans/types.ts';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import {
  departureHasPassed,
  expiredQuotationMessage,
  isQuotationId,
  toQuotationBody,
  visitorMessages,
} from '#app/lib/quotation.ts';
import { pageTitle, useWebsite } from '#app/lib/website.ts';
import type { Route } from './+types/comparador';

export const meta = () => [...pageTitle('Planes para tu viaje'), { name: 'robots', content: 'noindex' }];

const unavailable = () => new Response('Los planes no están disponibles', { status: 503 });

/**
 * The quotation and its priced plans. An unknown quotation, a trip whose departure has passed or one the catalogue no
 * longer sells are pages of their own (with a way to quote again), not errors.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) return { state: 'not-found' as const };
  const api = serverApi(context);
  const companyId = configuredCompanyId();

  const plansRequest = api.GET('/{companyId}/plans-comparador', {
    params: { path: { companyId }, query: { quotationId } },
  });
  const quotationResult = await api.GET('/quotations/{companyId}/{quotationId}', {
    params: { path: { companyId, quotationId } },
  });
  const quotation = quotationResult.data;
  if (!quotation) {
    await plansRequest.catch(() => undefined);
    if (quotationResult.response.status === 404 || quotationResult.response.status === 400) {
      return { state: 'not-found' as const };
    }
    throw unavailable();
  }

  const [plansResult, destinationsResult, originsResult] = await Promise.all([
    plansRequest,
    api.GET('/companies/{companyId}/destinations/{modalityId}', {
      params: { path: { companyId, modalityId: quotation.modality } },
    }),
    api.GET('/companies/{companyId}/origins', { params: { path: { companyId } } }),
  ]);
  if (!plansResult.data) {
    const { status } = plansResult.response;
    if (status === 400) {
      const errors = plansResult.error?.errors;
      if (departureHasPassed(errors)) return { state: 'expired' as const, quotationId };
      return { state: 'invalid' as const, quotationId, messages: visitorMessages(errors) };
    }
    if (status === 404) return { state: 'not-found' as const };
    throw unavailable();
  }
  return {
    state: 'ok' as const,
    quotation,
    plans: plansResult.data,
    destination: destinationsResult.data?.find((d) => d.id === quotation.destination)?.label ?? null,
    origin: originsResult.data?.find((o) => o.id === quotation.origin)?.label ?? null,
  };
}

type ActionResult = { error: string; planId: number | null; expired: boolean };

const failure = (result: ActionResult, status: number) => data(result, { status });

/** «Elegir plan»: stores the chosen plan on the quotation (PUT) and goes on to the purchase. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const quotationId = params.id;
  // A body that is not a form (JSON, or none with no content type) names no plan: the same 400 as a bad planId.
  const form = await request.formData().catch(() => null);
  const planId = Number(form?.get('planId'));
  if (!isQuotationId(quotationId)) {
    return failure({ error: 'No encontramos esta cotización.', planId: null, expired: false }, 404);
  }
  if (!Number.isInteger(planId) || planId <= 0) {
    return failure({ error: 'Elige uno de los planes de la lista.', planId: null, expired: false }, 400);
  }
  const api = serverApi(context);
  const companyId = configuredCompanyId();
  const path = { companyId, quotationId };
  const current = await api.GET('/quotations/{companyId}/{quotationId}', { params: { path } });
  if (!current.data) {
    if (current.response.status === 404 || current.response.status === 400) {
      return failure({ error: 'No encontramos esta cotización.', planId, expired: false }, 404);
    }
    throw unavailable();
  }
  const saved = await api.PUT('/quotations/{companyId}/{quotationId}', {
    params: { path },
    body: toQuotationBody(current.data, planId),
    parseAs: 'text',
  });
  if (!saved.response.ok) {
    if (saved.response.status === 400) {
      const errors = saved.error?.errors;
      if (departureHasPassed(errors)) return failure({ error: expiredQuotationMessage, planId, expired: true }, 400);
      const messages = visitorMessages(errors);
      const error = messages.length > 0 ? messages.join('. ') : 'No pudimos guardar tu elección. Intenta nuevamente.';
      return failure({ error, planId, expired: false }, 400);
    }
    if (saved.response.status === 404) {
      return failure({ error: 'No encontramos esta cotización.', planId, expired: false }, 404);
    }
    throw unavailable();
  }
  return redirect(`/compra/${planId}/${quotationId}`);
}

export default function Comparator({ loaderData, actionData }: Route.ComponentProps) {
  switch (loaderData.state) {
    case 'not-found':
      return (
        <Notice icon="search" title="No encontramos esta cotización" action={{ to: '/', label: 'Cotizar mi viaje' }}>
          Puede que el enlace esté incompleto o que la cotización ya no exista. Cotizar de nuevo toma menos de un
          minuto.
        </Notice>
      );
    case 'expired':
      return (
        <Notice icon="clock" title={expiredQuotationMessage} action={{ to: '/', label: 'Cotizar de nuevo' }}>
          Los precios se calculan para viajes que aún no comienzan. Ingresa tus nuevas fechas y te mostramos los planes
          disponibles.
        </Notice>
      );
    case 'invalid':
      return (
        <Notice
          icon="alert"
          title="Esta cotización ya no está disponible"
          action={{ to: `/?cotizacion=${loaderData.quotationId}`, label: 'Cotizar de nuevo' }}
        >
          {loaderData.messages.length > 0 ? (
            <ul className="space-y-1">
              {loaderData.messages.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          ) : (
            'Algunos datos del viaje cambiaron. Revisa tu cotización para ver los planes disponibles.'
          )}
        </Notice>
      );
    default:
      return <PlansPage data={loaderData} actionData={actionData} />;
  }
}

type Ready = Extract<Route.ComponentProps['loaderData'], { state: 'ok' }>;

function PlansPage({ data: loaded, actionData }: { data: Ready; actionData: ActionResult | undefined }) {
  const { website } = useWebsite();
  const { openUpgrade } = useShellModals();
  const [searchParams] = useSearchParams();
  const order = parsePlanOrder(searchParams.get('orden'));
  const view = parsePlansView(searchParams.get('vista'));
  const { quotation } = loaded;
  const plans: ComparatorPlan[] = sortPlans(loaded.plans, order);
  const modality = website.modalities.find((m) => m.id === quotation.modality)?.label ?? null;
  const destination = loaded.destination ?? 'tu destino';
  const first = loaded.plans[0];
  const discount = quotation.discountCode ? first?.discountCode : undefined;
  const error = actionData?.error ?? null;

  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 via-brand-700 to-brand-500 text-white">
        <div className="mx-auto max-w-7xl px-4 pt-10 pb-24 sm:pt-12">
          <p className="mb-4 inline-flex items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-sm font-semibold">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
              <path d="M3 3h7.6l6.9 6.9-7.6 7.6L3 10.6V3Zm3.5 2a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3Z" />
            </svg>
            Descuentos y promociones ya aplicados
          </p>
          <h1 className="mb-3 text-3xl leading-tight font-extrabold sm:text-4xl">
            Planes para tu viaje a {destination}
          </h1>
          <p className="flex items-center gap-2 text-lg text-brand-50">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 shrink-0" fill="currentColor">
              <path d="M2 5a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v1H2V5Zm0 3h16v7a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8Zm3 5v1h4v-1H5Z" />
            </svg>
            Paga en hasta 6 cuotas sin interés
          </p>
        </div>
      </section>

      <div className="mx-auto -mt-16 max-w-7xl px-4">
        <TripSummary quotation={quotation} destination={destination} origin={loaded.origin} modality={modality} />
      </div>

      <section aria-labelledby="planes" className="mx-auto max-w-7xl px-4 pt-10">
        <div className="mb-5 flex flex-wrap items-end justify-between gap-2">
          <h2 id="planes" className="text-2xl font-bold text-brand-700 sm:text-3xl">
            {view === 'comparar' ? 'Compara los planes' : 'Elige tu plan'}
          </h2>
          <p className="text-sm text-slate-600">
            {plans.length === 1 ? '1 plan disponible' : `${plans.length} planes disponibles`} para tu viaje
          </p>
        </div>

        {discount?.message ? <DiscountMessage status={discount.status} message={discount.message} /> : null}

        {error ? (
          <div role="alert" className="mb-5 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
            <p className="font-semibold">{error}</p>
            {actionData?.expired ? (
              <Link to="/" className="mt-1 inline-block font-semibold underline underline-offset-4">
                Cotizar de nuevo
              </Link>
            ) : null}
          </div>
        ) : null}

        {plans.length === 0 ? (
          <div className="rounded-2xl border border-slate-200 bg-slate-50 p-8 text-center">
            <p className="mb-4 text-lg text-slate-700">No encontramos planes que se ajusten a este viaje.</p>
            <Link
              to={`/?cotizacion=${quotation.id}`}
              className="inline-block rounded-xl bg-accent-700 px-5 py-3 font-bold text-white hover:bg-accent-800"
            >
              Modificar cotización
            </Link>
          </div>
        ) : (
          <>
            <div className="mb-6">
              <PlansToolbar order={order} view={view} />
            </div>
            {view === 'comparar' ? (
              <ComparisonTable
                plans={plans}
                caption={`Comparación de ${plans.length} planes para tu viaje a ${destination}: coberturas y precios`}
              />
            ) : (
              <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
                {plans.map((plan) => (
                  <li key={plan.id} className="flex flex-col [&>article]:flex-1">
                    <PlanCard plan={plan} error={actionData?.planId === plan.id ? error : null} />
                  </li>
                ))}
              </ul>
            )}
          </>
        )}

        <div className="mt-10 grid gap-4 rounded-2xl bg-brand-50 p-5 text-sm text-slate-700 sm:grid-cols-[1fr_auto] sm:items-center sm:p-6">
          <div className="space-y-1">
            <p>
              Precios por el total del viaje en dólares estadounidenses (USD), con su equivalente en pesos chilenos
              (CLP).
            </p>
            {first ? (
              <p>
                Tipo de cambio de hoy: 1 USD ={' '}
                {formatMoney(first.tipoCambio, { ...currencyFormat(first.monedaConvertida), decimals: 2 })} CLP.
              </p>
            ) : null}
          </div>
          <button
            type="button"
            onClick={openUpgrade}
            className="justify-self-start rounded-xl border border-brand-700 bg-white px-4 py-2 font-semibold text-brand-700 hover:bg-brand-700 hover:text-white"
          >
            Conoce el upgrade COVID-19
          </button>
        </div>
      </section>
    </>
  );
}

function DiscountMessage({ status, message }: { status: string; message: string }) {
  const applied = status === 'applied';
  return (
    <p
      role="status"
      className={`mb-5 flex items-start gap-2 rounded-xl border px-4 py-3 font-medium ${
        applied ? 'border-emerald-200 bg-emerald-50 text-emerald-900' : 'border-amber-200 bg-amber-50 text-amber-900'
      }`}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 shrink-0" fill="currentColor">
        {applied ? (
          <path d="M10 1.5a8.5 8.5 0 1 1 0 17 8.5 8.5 0 0 1 0-17Zm-1.2 11.8 5.6-5.6-1.3-1.3-4.3 4.3-2-2-1.3 1.3 3.3 3.3Z" />
        ) : (
          <path d="M10 1.5a8.5 8.5 0 1 1 0 17 8.5 8.5 0 0 1 0-17ZM9 5v6h2V5H9Zm0 8v2h2v-2H9Z" />
        )}
      </svg>
      {message}
    </p>
  );
}
