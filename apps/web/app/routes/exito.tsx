import { Link, type ShouldRevalidateFunctionArgs, useLocation } from 'react-router';
import { Notice } from '#app/components/Notice.tsx';
import { PaymentSuccess } from '#app/features/checkout/PaymentSuccess.tsx';
import { loadPaymentSuccess, resendCertificate } from '#app/features/checkout/payment-result.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/exito';

/**
 * The buyer's own page: never cached by a browser or proxy, and its address (sale and payment ids) never sent on
 * as a Referer to other sites. same-origin, not no-referrer: under no-referrer the page's own form, posted without
 * JavaScript, says `Origin: null`, which React Router refuses as a possible cross-site request.
 */
export const headers = () => ({ 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'same-origin' });

/** The tab's title says what the page says: thanks only when the paid sale is shown. */
const titles = {
  ok: '¡Gracias por tu compra!',
  elsewhere: 'Tu pago fue aprobado',
  missing: 'No encontramos el detalle de tu compra',
  unavailable: 'No pudimos cargar tu compra',
} as const;

export const meta = ({ loaderData }: Route.MetaArgs) => [
  ...pageTitle(titles[loaderData?.state ?? 'missing']),
  { name: 'robots', content: 'noindex' },
];

export function loader(args: Route.LoaderArgs) {
  return loadPaymentSuccess(args);
}

// Sending the certificate again changes nothing the page shows.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === 'POST' ? false : defaultShouldRevalidate;
}

export function action(args: Route.ActionArgs) {
  return resendCertificate(args);
}

const homeLink = (
  <Link to="/" className="font-semibold text-brand-700 underline underline-offset-4">
    Volver al inicio
  </Link>
);

export default function PaymentSuccessPage({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation();
  if (loaderData.state === 'unavailable') {
    return (
      <Notice
        icon="alert"
        title="No pudimos cargar tu compra"
        action={{ to: `${location.pathname}${location.search}`, label: 'Intentar nuevamente', reloadDocument: true }}
        secondary={homeLink}
      >
        No pudimos cargar el detalle de tu compra en este momento. Si tu pago fue aprobado, el certificado llegará al
        correo de cada pasajero.
      </Notice>
    );
  }
  if (loaderData.state === 'missing') {
    return (
      <Notice
        icon="search"
        title="No encontramos el detalle de tu compra"
        action={{ to: '/certificados', label: 'Buscar mis certificados' }}
        secondary={homeLink}
      >
        No encontramos el detalle de este pago en el enlace. Si tu pago fue aprobado, ya enviamos el certificado al
        correo de cada pasajero; en «Certificados» lo encuentras con tu RUT, pasaporte o correo y te lo enviamos de
        nuevo.
      </Notice>
    );
  }
  if (loaderData.state === 'elsewhere') {
    return (
      <Notice
        icon="check"
        title="Tu pago fue aprobado"
        action={{ to: '/certificados', label: 'Buscar mis certificados' }}
        secondary={homeLink}
      >
        Venta N° {loaderData.result.idVenta}. Enviamos el certificado al correo de cada pasajero. Por tu seguridad, el
        detalle de los pasajeros y la descarga del certificado se muestran solo en el navegador donde se hizo el pago.{' '}
        Para verlos en otro equipo, entra a{' '}
        <Link to="/mi-compra" className="font-semibold text-brand-700 underline underline-offset-4">
          Mi compra
        </Link>{' '}
        con tu N° de venta y tu documento.
      </Notice>
    );
  }
  return (
    <PaymentSuccess
      result={loaderData.result}
      certificateUrl={loaderData.certificateUrl}
      planLabel={loaderData.planLabel}
      trip={loaderData.trip}
      postedSend={actionData}
    />
  );
}
