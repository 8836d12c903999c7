import { FormErrors, TrackingLookup, TrackingResult } from '#app/features/claims/ClaimTracking.tsx';
import { loadTracking, trackingAction } from '#app/features/claims/claims.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/reembolsos-seguimiento';

export const meta = () => [
  ...pageTitle('Seguimiento de reembolso'),
  { name: 'description', content: 'Revisa el estado de tu solicitud de reembolso con su número y tu documento.' },
];

export function loader({ request }: Route.LoaderArgs) {
  return loadTracking(request);
}

export async function action({ context, request }: Route.ActionArgs) {
  return trackingAction(context, request);
}

export default function ClaimTrackingPage({ loaderData, actionData }: Route.ComponentProps) {
  const shown = actionData ?? loaderData;
  const documento = 'documento' in shown ? shown.documento : '';
  const failure = shown.state === 'failed' ? shown : undefined;
  const tracking = 'tracking' in shown ? shown.tracking : undefined;
  const lookupErrors = failure && !tracking ? failure.errors : [];
  return (
    <div className="page-width py-8 *:max-w-3xl sm:py-12">
      <h1 className="text-3xl font-bold text-brand-700">Seguimiento de reembolso</h1>
      <p className="mt-2 mb-6 text-slate-700">
        Ingresa el número de tu solicitud (lo recibiste por correo) y el documento del titular.
      </p>
      <div className="flex flex-col gap-5">
        <TrackingLookup numero={shown.numero} documento={documento} errors={lookupErrors} />
        {failure ? <FormErrors messages={failure.formErrors} /> : null}
        {tracking ? (
          <TrackingResult
            tracking={tracking}
            numero={shown.numero}
            documento={documento}
            errors={failure?.errors}
            uploaded={shown.state === 'found' ? shown.uploaded : undefined}
          />
        ) : null}
      </div>
    </div>
  );
}
