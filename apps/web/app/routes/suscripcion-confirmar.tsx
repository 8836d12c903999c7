import { uiMessages } from '@travesia/domain/messages';
import { Notice } from '#app/components/Notice.tsx';
import { confirmFromLink } from '#app/features/shell/newsletter.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/suscripcion-confirmar';

export const meta = () => [...pageTitle('Confirmar suscripción'), { name: 'robots', content: 'noindex, nofollow' }];

// The token is in the URL: never cached, never sent on as a referrer.
export const headers = () => ({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });

export const loader = ({ context, request }: Route.LoaderArgs) => confirmFromLink(context, request);

/** The link of the newsletter's confirmation e-mail (double opt-in): confirmed, or a link that is not (or no longer) valid. */
export default function ConfirmSubscription({ loaderData }: Route.ComponentProps) {
  if (loaderData.confirmed) {
    return (
      <Notice
        icon="check"
        tone="success"
        title={uiMessages.subscriptionConfirmed}
        action={{ to: '/', label: 'Ir al inicio' }}
      >
        Te escribiremos con ofertas y consejos para viajar protegido.
      </Notice>
    );
  }
  return (
    <Notice
      icon="alert"
      tone="danger"
      title="No pudimos confirmar tu suscripción"
      action={{ to: '/', label: 'Ir al inicio' }}
    >
      {uiMessages.subscriptionLinkInvalid}
    </Notice>
  );
}
