import { contactPhoneHref } from '@travesia/domain/links';
import { Link } from 'react-router';
import { Notice } from '#app/components/Notice.tsx';
import { loadConfirmation } from '#app/features/contact/contact.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/confirmacion';

export const meta = () => [
  ...pageTitle('Hemos recibido tu solicitud'),
  { name: 'description', content: 'Tu solicitud de contacto fue enviada; te responderemos por correo.' },
  { name: 'robots', content: 'noindex' },
];

export const loader = ({ context }: Route.LoaderArgs) => loadConfirmation(context);

/** After the contact form (spec §2, §4: pending → submitting → /confirmacion). */
export default function ContactConfirmation({ loaderData }: Route.ComponentProps) {
  return (
    <Notice
      icon="check"
      tone="success"
      title="Hemos recibido tu solicitud"
      action={{ to: '/home', label: 'Volver al inicio' }}
      secondary={
        <Link to="/contactanos" className="font-semibold text-brand-700 underline underline-offset-4">
          Ver canales de contacto
        </Link>
      }
    >
      <p>Gracias por escribirnos. Te responderemos a la brevedad en el correo que nos indicaste.</p>
      {loaderData.emergency.length > 0 ? (
        <p className="mt-4">
          Si estás de viaje y necesitas asistencia ahora, llámanos:{' '}
          {loaderData.emergency.map((info, index) => {
            const href = contactPhoneHref(info.phone);
            return (
              <span key={`${info.label}-${info.phone}`}>
                {index > 0 ? ' · ' : null}
                {href ? (
                  <a href={href} className="font-semibold text-brand-700 underline">
                    {info.phone}
                  </a>
                ) : (
                  info.phone
                )}
              </span>
            );
          })}
          .
        </p>
      ) : null}
    </Notice>
  );
}
