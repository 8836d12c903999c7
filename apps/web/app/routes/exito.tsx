import { Link, redirect, type ShouldRevalidateFunctionArgs, useLocation } from 'react-router';
import { Notice } from '#app/components/Notice.tsx';
import { accessTokenOf } from '#app/features/checkout/checkout.server.ts';
import { PaymentSuccess, type SendCertificateResult } from '#app/features/checkout/PaymentSuccess.tsx';
import { fetchPaymentResult, paymentParams, saleDetails } from '#app/features/checkout/payment-result.server.ts';
import { serverApi } from '#app/lib/api.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/exito';

/**
 * The buyer's own page: never cached by a browser or proxy, and its address (sale and payment ids) never sent on
 * as a Referer to other sites.
 */
export const headers = () => ({ 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' });

export const meta = () => [...pageTitle('¡Gracias por tu compra!'), { name: 'robots', content: 'noindex' }];

/**
 * The gateway's return after an approved payment (?venta=…&transaccion=…). Anything but AUTHORIZED goes to /error
 * with the same parameters; the sale is remembered so the purchase steps can link back here.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const ids = paymentParams(url);
  if (!ids) return { state: 'missing' as const };
  const token = await accessTokenOf(request, ids.idVenta);
  const result = await fetchPaymentResult(context, ids, token);
  if (!result) return { state: 'missing' as const };
  if (result.resultTransaction !== 'AUTHORIZED') {
    throw redirect(`/error?venta=${ids.idVenta}&transaccion=${ids.idTransaction}`);
  }
  // Another browser (a forwarded link): the payment's outcome, but not who travels nor the certificate.
  const { quotationId } = result;
  if (!token || quotationId === null) return { state: 'elsewhere' as const, result };
  const details = await saleDetails(context, { ...result, quotationId }, token);
  return { state: 'ok' as const, result, ...details };
}

// Sending the certificate again changes nothing the page shows.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === 'POST' ? false : defaultShouldRevalidate;
}

/** «Enviar Certificado»: the certificate e-mail once more (auto-envio, type 0, canal WEB). */
export async function action({ context, request }: Route.ActionArgs): Promise<SendCertificateResult> {
  const failed: SendCertificateResult = {
    sent: false,
    error: 'No pudimos enviar el certificado. Intenta nuevamente en unos minutos.',
  };
  const ids = paymentParams(new URL(request.url));
  if (!ids) return failed;
  try {
    const result = await fetchPaymentResult(context, ids, await accessTokenOf(request, ids.idVenta));
    if (result?.resultTransaction !== 'AUTHORIZED' || result.quotationId === null) return failed;
    const { response } = await serverApi(context).POST('/quotations/{quotationId}/auto-envio', {
      params: { path: { quotationId: result.quotationId } },
      body: { type: 0, canal: 'WEB' },
    });
    return response.ok ? { sent: true } : failed;
  } catch {
    return failed;
  }
}

const homeLink = (
  <Link to="/" className="font-semibold text-brand-700 underline underline-offset-4">
    Volver al inicio
  </Link>
);

export default function PaymentSuccessPage({ loaderData }: Route.ComponentProps) {
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
        detalle de los pasajeros y la descarga del certificado se muestran solo en el navegador donde se hizo el pago.
      </Notice>
    );
  }
  return (
    <PaymentSuccess
      result={loaderData.result}
      certificateUrl={loaderData.certificateUrl}
      planLabel={loaderData.planLabel}
      trip={loaderData.trip}
    />
  );
}

export function ErrorBoundary() {
  const location = useLocation();
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
