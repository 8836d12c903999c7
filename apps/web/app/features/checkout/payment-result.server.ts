import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import type { components } from '#app/lib/api-schema.d.ts';

type LoadContext = { apiFetch?: typeof fetch } | undefined;
export type PaymentResult = components['schemas']['PaymentResult'];

/** The sale and transaction a gateway's return names (?venta=…&transaccion=…), when both are ids. */
export function paymentParams(url: URL): { idVenta: number; idTransaction: number } | null {
  const idVenta = Number(url.searchParams.get('venta'));
  const idTransaction = Number(url.searchParams.get('transaccion'));
  const valid = (n: number) => Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;
  return valid(idVenta) && valid(idTransaction) ? { idVenta, idTransaction } : null;
}

/** The outcome of a payment attempt: the API's result, null when there is no such attempt. Throws when unreachable. */
export async function fetchPaymentResult(
  context: LoadContext,
  ids: { idVenta: number; idTransaction: number },
  token: string | undefined,
): Promise<PaymentResult | null> {
  const { data, response } = await serverApi(context).GET('/companies/{idTransaction}/payment-result/{idVenta}', {
    params: { path: { idTransaction: ids.idTransaction, idVenta: ids.idVenta }, query: token ? { token } : {} },
  });
  if (data) return data;
  if (response.status === 404 || response.status === 400) return null;
  throw new Response('El resultado del pago no está disponible', { status: 503 });
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
