import { QuoterForm } from '#app/features/quoter/QuoterForm.tsx';
import { loadQuoter, submitQuoter } from '#app/features/quoter/quoter.server.ts';
import { pageTitle, useWebsite } from '#app/lib/website.ts';
import type { ShellHandle } from '#app/root.tsx';
import type { Route } from './+types/cotizador';

export const meta = () => pageTitle('Cotiza tu asistencia en viaje');

// Spec §2: the quoter mode (for partners' sites) shows no nav and footer.
export const handle: ShellHandle = { hideChrome: true };

export function loader({ context, request }: Route.LoaderArgs) {
  return loadQuoter(context, request);
}

export function action({ context, request, params }: Route.ActionArgs) {
  const codename = 'codename' in params ? (params.codename ?? null) : null;
  return submitQuoter(context, request, {
    referralCode: codename,
    pantalla: codename ? `cotizador/${codename}` : 'cotizador',
  });
}

export default function Quoter({ loaderData, actionData }: Route.ComponentProps) {
  const { website } = useWebsite();
  return (
    <section className="mx-auto max-w-4xl px-4 py-8">
      <div className="mb-6 flex items-center gap-3">
        <img src={website.navigationBar.logo} alt="Travesía" width={160} height={40} className="h-9 w-auto" />
      </div>
      <h1 className="mb-2 text-2xl font-bold text-brand-700 sm:text-3xl">Cotiza tu asistencia en viaje</h1>
      <p className="mb-6 text-slate-600">Precios en dólares y pesos chilenos, con hasta 6 cuotas sin interés.</p>
      <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-lg sm:p-6">
        <QuoterForm {...loaderData} passengerTypes={website.passangerTypes} actionResult={actionData} />
      </div>
    </section>
  );
}
