import { Notice } from '#app/components/Notice.tsx';
import { CertificateVerification } from '#app/features/certificates/CertificateVerification.tsx';
import { loadVerification } from '#app/features/certificates/certificates.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/verificar';

export const meta = () => [
  ...pageTitle('Verificación de certificado'),
  { name: 'description', content: 'Verifica la vigencia de un certificado de asistencia en viaje con su código.' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export const headers = () => ({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });

export const loader = ({ context, params }: Route.LoaderArgs) => loadVerification(context, params.code);

export default function VerifyCertificate({ loaderData }: Route.ComponentProps) {
  if (!loaderData.found) {
    return (
      <Notice icon="search" tone="danger" title="Certificado no encontrado" action={{ to: '/', label: 'Ir al inicio' }}>
        No existe un certificado con el código «{loaderData.code}». Revisa el código impreso en el certificado.{' '}
        <span lang="en">No certificate has this verification code.</span>
      </Notice>
    );
  }
  return <CertificateVerification verification={loaderData.verification} />;
}
