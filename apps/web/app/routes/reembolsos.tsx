import { Notice } from '#app/components/Notice.tsx';
import { ClaimForm } from '#app/features/claims/ClaimForm.tsx';
import { submitClaim } from '#app/features/claims/claims.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/reembolsos';

export const meta = () => [
  ...pageTitle('Solicitud de reembolso'),
  {
    name: 'description',
    content:
      'Solicita el reembolso de los gastos cubiertos por tu asistencia en viaje: adjunta tus documentos y sigue el estado de tu solicitud.',
  },
];

export async function action({ context, request }: Route.ActionArgs) {
  return submitClaim(context, request);
}

export default function Claims({ actionData }: Route.ComponentProps) {
  if (actionData?.ok) {
    return (
      <Notice
        icon="check"
        tone="success"
        title="Recibimos tu solicitud"
        action={{ to: `/reembolsos/seguimiento?numero=${actionData.number}`, label: 'Ver el estado de mi solicitud' }}
      >
        <p>
          Tu número de solicitud es <strong className="text-xl text-slate-900">{actionData.number}</strong>.
        </p>
        <p className="mt-2">
          Te lo enviamos también por correo. Con ese número y tu documento puedes seguir tu solicitud en cualquier
          momento.
        </p>
      </Notice>
    );
  }
  const failure = actionData && !actionData.ok ? actionData : undefined;
  return (
    <div className="page-width py-8 *:max-w-3xl sm:py-12">
      <h1 className="text-3xl font-bold text-brand-700">Solicitud de reembolso</h1>
      <p className="mt-2 mb-6 text-slate-700">
        Completa el formulario y adjunta los documentos de respaldo. Te responderemos por correo y podrás seguir el
        estado de tu solicitud con su número.
      </p>
      <ClaimForm errors={failure?.errors} formErrors={failure?.formErrors} values={failure?.values} />
    </div>
  );
}
