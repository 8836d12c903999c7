import { ContactDirectory } from '#app/features/contact/ContactDirectory.tsx';
import { loadDirectory } from '#app/features/contact/contact.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/contactanos';

export const meta = () => [
  ...pageTitle('Contáctanos'),
  {
    name: 'description',
    content:
      'Asistencia en viaje 24/7 por teléfono y WhatsApp, ventas, reembolsos, certificados y servicio al cliente: todos los canales de Travesía.',
  },
];

export const loader = ({ context, request }: Route.LoaderArgs) => loadDirectory(context, request);

export default function ContactDirectoryPage({ loaderData }: Route.ComponentProps) {
  return (
    <section className="page-width py-10 sm:py-14">
      <h1 className="mb-2 text-3xl font-bold text-brand-700 sm:text-4xl">Contáctanos</h1>
      <p className="mb-8 max-w-3xl text-lg text-slate-600">
        Estamos para ayudarte antes, durante y después de tu viaje. Elige el canal que necesitas.
      </p>
      <ContactDirectory contacts={loaderData.contacts} infos={loaderData.infos} />
    </section>
  );
}
