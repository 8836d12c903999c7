import { PreviewPlanCard } from '#app/features/plans/PreviewPlanCard.tsx';
import { loadPreview } from '#app/features/plans/plans.server.ts';
import { expiredQuotationMessage } from '#app/lib/quotation.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { ShellHandle } from '#app/root.tsx';
import type { Route } from './+types/preview';

export const meta = () => [...pageTitle('Vista previa de planes'), { name: 'robots', content: 'noindex' }];

// Spec §2: this screen is shown without nav and footer (it is captured as an image).
export const handle: ShellHandle = { hideChrome: true };

export function loader(args: Route.LoaderArgs) {
  return loadPreview(args);
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
