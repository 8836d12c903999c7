import { redirect } from 'react-router';
import { accessTokenOf } from '#app/features/checkout/checkout.server.ts';
import { stepPath, successUrl } from '#app/features/checkout/checkout.ts';
import { PaymentFailure, type PaymentFailureData } from '#app/features/checkout/PaymentFailure.tsx';
import { fetchPaymentResult, paymentParams } from '#app/features/checkout/payment-result.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/error';

/**
 * The buyer's own page: never cached by a browser or proxy, and its address (sale and payment ids) never sent on
 * as a Referer to other sites.
 */
export const headers = () => ({ 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' });

export const meta = () => [...pageTitle('No pudimos completar tu pago'), { name: 'robots', content: 'noindex' }];

/**
 * The gateway's return after a payment that did not go through (?venta=…&transaccion=…), or one it could not match
 * (?motivo=desconocido). Never fails: without a result it says so in general terms.
 */
export async function loader({ context, request }: Route.LoaderArgs): Promise<PaymentFailureData> {
  const ids = paymentParams(new URL(request.url));
  if (!ids) return { state: 'generic' };
  let result: Awaited<ReturnType<typeof fetchPaymentResult>>;
  try {
    result = await fetchPaymentResult(context, ids, await accessTokenOf(request, ids.idVenta));
  } catch {
    return { state: 'generic' };
  }
  if (!result) return { state: 'generic' };
  if (result.resultTransaction === 'AUTHORIZED') throw redirect(successUrl(ids));
  return {
    state: 'result',
    status: result.resultTransaction,
    // Only the browser that started the payment knows the quotation to retry it from.
    retryUrl: result.quotationId === null ? null : stepPath('pago', result.planId, result.quotationId),
    successUrl: successUrl(ids),
    idVenta: result.idVenta,
    amountClp: result.amountClp,
    testPayment: result.testPayment,
  };
}

export default function PaymentError({ loaderData }: Route.ComponentProps) {
  return <PaymentFailure data={loaderData} />;
}

export function ErrorBoundary() {
  return <PaymentFailure data={{ state: 'generic' }} />;
}
