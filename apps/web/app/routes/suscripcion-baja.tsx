import { Form, Link } from 'react-router';
import { Notice } from '#app/components/Notice.tsx';
import { askToUnsubscribe, unsubscribeFromLink } from '#app/features/shell/newsletter.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/suscripcion-baja';

export const meta = () => [...pageTitle('Darse de baja'), { name: 'robots', content: 'noindex, nofollow' }];

// The token is in the URL: never cached, never sent on as a referrer.
export const headers = () => ({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });

export const loader = ({ request }: Route.LoaderArgs) => askToUnsubscribe(request);

export const action = ({ context, request }: Route.ActionArgs) => unsubscribeFromLink(context, request);

/** The unsubscribe link of the newsletter's e-mails: asked, done, or a link that is not valid. */
export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const state = actionData?.state ?? loaderData.state;
  if (state === 'done') {
    return (
      <Notice icon="check" tone="success" title="Listo: te diste de baja" action={{ to: '/', label: 'Ir al inicio' }}>
        Ya no te enviaremos ofertas ni consejos de viaje. Los correos de tus compras (certificados, «Mi compra») te
        siguen llegando.
      </Notice>
    );
  }
  if (state === 'invalid') {
    return (
      <Notice
        icon="alert"
        tone="danger"
        title="Este enlace de baja no es válido"
        action={{ to: '/', label: 'Ir al inicio' }}
      >
        Abre el enlace «Darte de baja» del último correo que te enviamos, completo.
      </Notice>
    );
  }
  return (
    <Notice
      icon="alert"
      title="¿Quieres dejar de recibir nuestros correos?"
      secondary={
        <>
          <Form method="post">
            <button
              type="submit"
              className="inline-block rounded-xl bg-accent-700 px-6 py-3 font-bold text-white shadow hover:bg-accent-800"
            >
              Darme de baja
            </button>
          </Form>
          <Link to="/" className="font-semibold text-brand-700 underline underline-offset-4">
            Seguir suscrito
          </Link>
        </>
      }
    >
      Dejarás de recibir ofertas y consejos de viaje. Puedes volver a suscribirte cuando quieras.
    </Notice>
  );
}
