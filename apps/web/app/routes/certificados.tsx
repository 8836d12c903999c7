import { useActionData } from 'react-router';
import { CertificateSearch } from '#app/features/certificates/CertificateSearch.tsx';
import { searchFromUrl, sendCertificate } from '#app/features/certificates/certificates.server.ts';
import { certificateSettings, searchChoices } from '#app/features/certificates/search.ts';
import { pageTitle, useWebsite } from '#app/lib/website.ts';
import type { Route } from './+types/certificados';

export const meta = () => [
  ...pageTitle('Certificados'),
  {
    name: 'description',
    content:
      'Busca tus certificados de asistencia en viaje con el RUT, pasaporte o correo del titular y recíbelos por e-mail.',
  },
];

// Search answers name people (masked): no browser or proxy keeps them.
export const headers = () => ({ 'Cache-Control': 'private, no-store' });

export const loader = ({ context, request }: Route.LoaderArgs) => searchFromUrl(context, request);

export const action = ({ context, request }: Route.ActionArgs) => sendCertificate(context, request);

export default function Certificates({ loaderData }: Route.ComponentProps) {
  const { website } = useWebsite();
  const settings = certificateSettings(website);
  const sent = useActionData<typeof action>() ?? null;
  return (
    <CertificateSearch
      key={`${loaderData.type}:${loaderData.keyword}`}
      choices={searchChoices(settings)}
      search={loaderData}
      downloads={website.features.downloadCertificates}
      links={settings}
      sent={sent}
    />
  );
}
