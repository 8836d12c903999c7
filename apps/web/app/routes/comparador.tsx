import { formatMoney } from '@travesia/domain/money';
import { Link, useSearchParams } from 'react-router';
import { Notice } from '#app/components/Notice.tsx';
import { UpgradeTrigger } from '#app/components/UpgradeCovid.tsx';
import { missingAddOns } from '#app/features/plans/addOns.ts';
import { ComparisonTable } from '#app/features/plans/ComparisonTable.tsx';
import { currencyFormat, unavailablePlansMessage } from '#app/features/plans/format.ts';
import { PlanCard } from '#app/features/plans/PlanCard.tsx';
import { PlansToolbar, parseOnlyDifferences, parsePlansView, plansSearch } from '#app/features/plans/PlansToolbar.tsx';
import { type ChoosePlanResult, choosePlan, loadComparator } from '#app/features/plans/plans.server.ts';
import { parsePlanOrder, sortPlans } from '#app/features/plans/sortPlans.ts';
import { TripSummary } from '#app/features/plans/TripSummary.tsx';
import type { ComparatorPlan } from '#app/features/plans/types.ts';
import { expiredQuotationMessage } from '#app/lib/quotation.ts';
import { pageTitle, useWebsite } from '#app/lib/website.ts';
import type { Route } from './+types/comparador';

export const meta = () => [...pageTitle('Planes para tu viaje'), { name: 'robots', content: 'noindex' }];

export function loader(args: Route.LoaderArgs) {
  return loadComparator(args);
}

/** A preview's headers (no-store, noindex) as its loader set them; none otherwise. */
export const headers = ({ loaderHeaders }: Route.HeadersArgs) => loaderHeaders;

export function action(args: Route.ActionArgs) {
  return choosePlan(args);
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
    case 'preview-invalid':
      return (
        <Notice icon="alert" title="Vista previa no disponible" action={{ to: '/', label: 'Ir al inicio' }}>
          El enlace de vista previa no es válido o ya venció: pide uno nuevo en la consola.
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

function PlansPage({ data: loaded, actionData }: { data: Ready; actionData: ChoosePlanResult | undefined }) {
  const { website } = useWebsite();
  const [searchParams] = useSearchParams();
  const order = parsePlanOrder(searchParams.get('orden'));
  const view = parsePlansView(searchParams.get('vista'));
  const onlyDifferences = parseOnlyDifferences(searchParams.get('diferencias'));
  const { quotation } = loaded;
  const plans: ComparatorPlan[] = sortPlans(loaded.plans, order);
  const modality = website.modalities.find((m) => m.id === quotation.modality)?.label ?? null;
  const destination = loaded.destination ?? 'tu destino';
  const first = loaded.plans[0];
  // A code may apply to some plans only: the notice says it applied (on those), each other plan's card says why not.
  const discount = quotation.discountCode
    ? (loaded.plans.find((plan) => plan.discountCode.status === 'applied') ?? first)?.discountCode
    : undefined;
  const planDiscountNote = (plan: ComparatorPlan) =>
    discount?.status === 'applied' && plan.discountCode.status !== 'applied' ? plan.discountCode.message : null;
  const error = actionData?.error ?? null;
  // Prices move forward (issue 25): plans whose prices were published after this quotation was saved.
  const repriced = plans.filter((plan) => plan.precioActualizado).map((plan) => plan.label);

  return (
    <>
      {loaded.preview ? (
        <div role="status" className="bg-amber-300 px-4 py-2 text-center font-bold text-slate-900">
          Vista previa: precios del borrador, aún no publicados
        </div>
      ) : null}
      <section className="bg-gradient-to-br from-brand-900 via-brand-700 to-brand-500 text-white">
        <div className="page-width pt-10 pb-24 sm:pt-12">
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

      <div className="page-width -mt-16">
        <TripSummary quotation={quotation} destination={destination} origin={loaded.origin} modality={modality} />
      </div>

      <section aria-labelledby="planes" className="page-width pt-10">
        <div className="mb-5 flex flex-wrap items-end justify-between gap-2">
          <h2 id="planes" className="text-2xl font-bold text-brand-700 sm:text-3xl">
            {view === 'comparar' ? 'Compara los planes' : 'Elige tu plan'}
          </h2>
          <p className="text-sm text-slate-600">
            {plans.length === 1 ? '1 plan disponible' : `${plans.length} planes disponibles`} para tu viaje
          </p>
        </div>

        {loaded.unavailable.length > 0 ? (
          <div className="mb-5 rounded-xl border border-slate-200 bg-slate-50 px-4 py-3 text-slate-800" role="note">
            <ul className="space-y-1">
              {loaded.unavailable.map((band) => (
                <li key={band.passengerTypeId} className="flex items-start gap-2">
                  <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 shrink-0" fill="currentColor">
                    <path d="M10 1.5a8.5 8.5 0 1 1 0 17 8.5 8.5 0 0 1 0-17ZM9 9v6h2V9H9Zm0-4v2h2V5H9Z" />
                  </svg>
                  <span>{unavailablePlansMessage(band)}.</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        {repriced.length > 0 ? (
          <div className="mb-5 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950" role="note">
            {repriced.length === 1
              ? `El precio de ${repriced[0]} cambió desde que cotizaste: te mostramos el precio vigente.`
              : `Los precios de ${repriced.slice(0, -1).join(', ')} y ${repriced.at(-1)} cambiaron desde que cotizaste: te mostramos los precios vigentes.`}
          </div>
        ) : null}

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
              <PlansToolbar order={order} view={view} onlyDifferences={onlyDifferences} />
            </div>
            {view === 'comparar' ? (
              <ComparisonTable
                plans={plans}
                onlyDifferences={onlyDifferences}
                allRowsSearch={plansSearch(order, 'comparar')}
                differencesSearch={plansSearch(order, 'comparar', true)}
                caption={`Comparación de ${plans.length} planes para tu viaje a ${destination}: coberturas, precios y adicionales`}
                bands={website.passangerTypes}
              />
            ) : (
              <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
                {plans.map((plan) => (
                  <li key={plan.id} className="flex flex-col [&>article]:flex-1">
                    <PlanCard
                      plan={plan}
                      error={actionData?.planId === plan.id ? error : null}
                      discountNote={planDiscountNote(plan)}
                      missingAddOns={missingAddOns(plan, plans)}
                      bands={website.passangerTypes}
                    />
                  </li>
                ))}
              </ul>
            )}
          </>
        )}

        <div className="mt-10 grid gap-4 rounded-2xl bg-brand-50 p-5 text-sm text-slate-700 sm:grid-cols-[1fr_auto] sm:items-center sm:p-6">
          <div className="space-y-1">
            <p>
              Precios por el total del viaje en pesos chilenos (CLP), lo que pagas, con su equivalente en dólares
              estadounidenses (USD).
            </p>
            {first ? (
              <p>
                Tipo de cambio de hoy: 1 USD ={' '}
                {formatMoney(first.tipoCambio, { ...currencyFormat(first.monedaConvertida), decimals: 2 })} CLP.
              </p>
            ) : null}
          </div>
          <UpgradeTrigger className="justify-self-start rounded-xl border border-brand-700 bg-white px-4 py-2 font-semibold text-brand-700 hover:bg-brand-700 hover:text-white" />
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
