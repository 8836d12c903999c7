import { data, redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext } from '#app/lib/api-answer.server.ts';
import type { components } from '#app/lib/api-schema.d.ts';
import { accessTokenOf } from './checkout.server.ts';
import type { SendCertificateResult } from './PaymentSuccess.tsx';

export type PaymentResult = components['schemas']['PaymentResult'];

/** The sale and transaction a gateway's return names (?venta=…&transaccion=…), when both are ids. */
export function paymentParams(url: URL): { idVenta: number; idTransaction: number } | null {
  const idVenta = Number(url.searchParams.get('venta'));
  const idTransaction = Number(url.searchParams.get('transaccion'));
  const valid = (n: number) => Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;
  return valid(idVenta) && valid(idTransaction) ? { idVenta, idTransaction } : null;
}

type PaymentIds = { idVenta: number; idTransaction: number };

function askPaymentResult(context: LoadContext, ids: PaymentIds, token: string | undefined) {
  return serverApi(context).GET('/companies/{idTransaction}/payment-result/{idVenta}', {
    params: { path: { idTransaction: ids.idTransaction, idVenta: ids.idVenta }, query: token ? { token } : {} },
  });
}

/**
 * The outcome of a payment attempt: the API's result, null when there is no such attempt. Throws the 503 page
 * (lib/api-answer.server.ts) when the API cannot answer.
 */
export async function fetchPaymentResult(
  context: LoadContext,
  ids: PaymentIds,
  token: string | undefined,
): Promise<PaymentResult | null> {
  const answer = await askPaymentResult(context, ids, token);
  if (answer.response.status === 404 || answer.response.status === 400) return null;
  return dataOrThrow(answer, 'El resultado del pago');
}

/**
 * What the success page shows beside the result: the certificate link and the trip (each optional). Only for the
 * browser that holds the sale's access token (the result then names its quotation).
 */
export async function saleDetails(
  context: LoadContext,
  result: PaymentResult & { quotationId: string },
  token: string,
) {
  const api = serverApi(context);
  const companyId = configuredCompanyId();
  const [certificate, quotation, plan] = await Promise.all([
    api.GET('/certificates/b2c/{idVenta}', { params: { path: { idVenta: result.idVenta }, query: { token } } }),
    api.GET('/quotations/{companyId}/{quotationId}', {
      params: { path: { companyId, quotationId: result.quotationId } },
    }),
    api.GET('/{companyId}/plans/{planId}', {
      params: { path: { companyId, planId: result.planId }, query: { quotationId: result.quotationId } },
    }),
  ]);
  const trip = quotation.data;
  let destination: string | null = null;
  if (trip) {
    const destinations = await api.GET('/companies/{companyId}/destinations/{modalityId}', {
      params: { path: { companyId, modalityId: trip.modality } },
    });
    destination = destinations.data?.find((d) => d.id === trip.destination)?.label ?? null;
  }
  return {
    certificateUrl: certificate.data?.message ?? null,
    planLabel: plan.data?.[0]?.label ?? null,
    trip: trip ? { departureDate: trip.departureDate, returnDate: trip.returnDate, destination } : null,
  };
}

/**
 * /exito, the gateway's return after an approved payment (?venta=…&transaccion=…). Anything but AUTHORIZED goes to
 * /error with the same parameters. The browser that paid (it holds the sale's access token) sees the travellers and
 * the certificate; another one (a forwarded link) only the outcome. An API that cannot answer is a state of this
 * page, not the general error page: a buyer who has just paid is told that the certificate still reaches the
 * travellers' e-mail.
 */
export async function loadPaymentSuccess({ context, request }: { context: LoadContext; request: Request }) {
  const ids = paymentParams(new URL(request.url));
  if (!ids) return { state: 'missing' as const };
  const token = await accessTokenOf(request, ids.idVenta);
  const answer = await askPaymentResult(context, ids, token);
  const { status } = answer.response;
  if (status === 404 || status === 400) return { state: 'missing' as const };
  const result = answer.data;
  if (!result || !answer.response.ok) return data({ state: 'unavailable' as const }, { status: 503 });
  if (result.resultTransaction !== 'AUTHORIZED') {
    throw redirect(`/error?venta=${ids.idVenta}&transaccion=${ids.idTransaction}`);
  }
  const { quotationId } = result;
  if (!token || quotationId === null) return { state: 'elsewhere' as const, result };
  const details = await saleDetails(context, { ...result, quotationId }, token);
  return { state: 'ok' as const, result, ...details };
}

/** «Enviar Certificado» on /exito: the certificate e-mail once more (auto-envio, type 0, canal WEB). */
export async function resendCertificate({
  context,
  request,
}: {
  context: LoadContext;
  request: Request;
}): Promise<SendCertificateResult> {
  const failed: SendCertificateResult = {
    sent: false,
    error: 'No pudimos enviar el certificado. Intenta nuevamente en unos minutos.',
  };
  const ids = paymentParams(new URL(request.url));
  if (!ids) return failed;
  const answer = await askPaymentResult(context, ids, await accessTokenOf(request, ids.idVenta));
  const result = answer.data;
  if (result?.resultTransaction !== 'AUTHORIZED' || result.quotationId === null) return failed;
  const { response } = await serverApi(context).POST('/quotations/{quotationId}/auto-envio', {
    params: { path: { quotationId: result.quotationId } },
    body: { type: 0, canal: 'WEB' },
  });
  return response.ok ? { sent: true } : failed;
}
