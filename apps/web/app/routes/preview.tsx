import { PreviewPlanCard } from '#app/features/plans/PreviewPlanCard.tsx';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { departureHasPassed, expiredQuotationMessage, isQuotationId } from '#app/lib/quotation.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { ShellHandle } from '#app/root.tsx';
import type { Route } from './+types/preview';

export const meta = () => [...pageTitle('Vista previa de planes'), { name: 'robots', content: 'noindex' }];

// Spec §2: this screen is shown without nav and footer (it is captured as an image).
export const handle: ShellHandle = { hideChrome: true };

/** The quotation's plans as the capture view shows them; a quotation that cannot be shown says why, plainly. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) return { state: 'not-found' as const };
  const { data, error, response } = await serverApi(context).GET('/{companyId}/plans-quotation/{quotationId}', {
    params: { path: { companyId: configuredCompanyId(), quotationId } },
  });
  if (data) return { state: 'ok' as const, plans: data };
  if (response.status === 400 && departureHasPassed(error?.errors)) return { state: 'expired' as const };
  if (response.status === 400 || response.status === 404) return { state: 'not-found' as const };
  throw new Response('Los planes no están disponibles', { status: 503 });
}

export default function PlanPreview({ loaderData }: Route.ComponentProps) {
  return (
    <div className="min-h-screen bg-slate-100 px-6 py-8">
      <header className="mx-auto mb-8 flex max-w-[1240px] flex-wrap items-center justify-between gap-4">
        <img src="/img/logo.svg" alt="Travesía" width={160} height={40} className="h-10 w-auto" />
        <div className="text-right">
          <h1 className="text-2xl font-extrabold text-brand-700">Planes de asistencia en viaje</h1>
          {loaderData.state === 'ok' ? (
            <p className="text-sm text-slate-600">
              Precios por el total del viaje · Descuentos y promociones ya aplicados · Hasta 6 cuotas sin interés
            </p>
          ) : null}
        </div>
      </header>
      {loaderData.state === 'ok' ? (
        loaderData.plans.length > 0 ? (
          <div className="mx-auto flex max-w-[1240px] flex-wrap items-stretch justify-center gap-5">
            {loaderData.plans.map((plan) => (
              <PreviewPlanCard key={plan.id} plan={plan} />
            ))}
          </div>
        ) : (
          <Message text="No hay planes disponibles para este viaje." />
        )
      ) : (
        <Message
          text={
            loaderData.state === 'expired' ? expiredQuotationMessage : 'No encontramos los planes de esta cotización.'
          }
        />
      )}
    </div>
  );
}

function Message({ text }: { text: string }) {
  return (
    <p className="mx-auto max-w-xl rounded-2xl bg-white p-8 text-center text-lg font-semibold text-slate-700 shadow-sm">
      {text}
    </p>
  );
}
