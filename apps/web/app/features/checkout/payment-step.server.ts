import { dataProcessingConsentRequired } from '@travesia/domain/consents';
import { data, redirectDocument } from 'react-router';
import { configuredCompanyId, pageHostHeaders, serverApi } from '#app/lib/api.server.ts';
import { dataOrNull, dataOrThrow, fieldErrors, rateLimitedMessage } from '#app/lib/api-answer.server.ts';
import { isQuotationId } from '#app/lib/quotation.ts';
import {
  isNotice,
  loadCheckout,
  quotationNotFound,
  rememberedSuccessUrl,
  rememberSale,
  type StepArgs,
} from './checkout.server.ts';
import { chooseGatewayMessage, gatewaysInOrder, stepPath } from './checkout.ts';
import { bandLabel } from './format.ts';
import type { PaymentActionResult } from './PaymentForm.tsx';
import { passengerSlots } from './passengers-schema.ts';

/**
 * Step 3 (/pago): the purchase as it will be paid (the travellers' names, the billing document, the amounts the API
 * priced) and the company's payment gateways. Missing data is said up front, with a link to its step.
 */
export async function loadPaymentStep({ context, request, params }: StepArgs) {
  const loaded = await loadCheckout(context, request, params, 'pago');
  if (isNotice(loaded)) return loaded;
  const { api, quotation, summary } = loaded;
  const path = { quotationId: quotation.id };
  const [passengers, invoice, gateways] = await Promise.all([
    api.GET('/quotations/{quotationId}/passangers', { params: { path } }),
    api.GET('/quotations/{quotationId}/invoice-details', { params: { path } }),
    api.GET('/companies/{companyId}/payment-gateways', { params: { path: { companyId: configuredCompanyId() } } }),
  ]);
  const saved = dataOrNull(passengers, 'Los pasajeros de tu compra');
  const details = dataOrNull(invoice, 'Los datos de facturación');
  const gatewayList = dataOrThrow(gateways, 'Los medios de pago');

  const slots = passengerSlots(summary.passengerGroups);
  const bands = new Map(summary.passengerGroups.map((g) => [g.passengerTypeId, bandLabel(g)]));
  const travellers = [...(saved?.passangers ?? [])]
    .sort((a, b) => a.seq - b.seq)
    .map((p) => ({ name: `${p.firstName} ${p.lastName}`, band: bands.get(p.passengerTypeId) ?? '' }));
  return {
    state: 'ok' as const,
    summary,
    travellers,
    passengersMissing: travellers.length !== slots.length,
    billing: details
      ? {
          document: details.generateInvoice && details.companyDetails ? 'Factura' : 'Boleta',
          company: details.generateInvoice ? (details.companyDetails?.name ?? null) : null,
          companyRut: details.generateInvoice ? (details.companyDetails?.id ?? null) : null,
          address: [
            `${details.personalInformation.address} ${details.personalInformation.streetNumber}`,
            details.personalInformation.apartment ? `depto. ${details.personalInformation.apartment}` : null,
            details.personalInformation.locality,
            details.personalInformation.province,
          ]
            .filter(Boolean)
            .join(', '),
        }
      : null,
    gateways: gatewaysInOrder(gatewayList),
  };
}

const connectionProblem = 'No pudimos conectar con el medio de pago. Intenta nuevamente en unos minutos.';

const fail = (result: PaymentActionResult, status: number) => data(result, { status });

/** Starts the payment (POST /payments) and sends the browser to the gateway's page. */
export async function startPayment({ context, request, params }: StepArgs) {
  const quotationId = params.id;
  if (!isQuotationId(quotationId)) {
    return fail({ problems: [{ message: quotationNotFound, link: null }], gatewayError: null }, 404);
  }
  const form = await request.formData();
  const gatewayId = String(form.get('gatewayId') ?? '');
  const consents = {
    dataProcessing: form.get('consentDataProcessing') === 'on',
    marketing: form.get('consentMarketing') === 'on',
  };
  if (!gatewayId || !consents.dataProcessing) {
    return fail(
      {
        problems: [],
        gatewayError: gatewayId ? null : chooseGatewayMessage,
        consentError: consents.dataProcessing ? null : dataProcessingConsentRequired.message,
      },
      400,
    );
  }

  // The API chooses where the gateway returns the payer (PUBLIC_URL, else this page's Host: pageHostHeaders).
  const headers = pageHostHeaders(request);
  // An unreachable API answers 503 (lib/api-answer.server.ts): the same «try again» as any failure but a refusal.
  const {
    data: created,
    error,
    response,
  } = await serverApi(context).POST('/payments', {
    body: { quotationId, gatewayId, consents },
    headers,
  });
  if (created && 'redirectUrl' in created) {
    const cookie = await rememberSale({
      quotationId,
      idVenta: created.idVenta,
      idTransaction: created.idTransaction,
      accessToken: created.accessToken,
    });
    return redirectDocument(created.redirectUrl, { headers: { 'Set-Cookie': cookie } });
  }
  if (response.status === 429) {
    return fail({ problems: [{ message: rateLimitedMessage, link: null }], gatewayError: null }, 429);
  }
  if (response.status !== 400) {
    return fail({ problems: [{ message: connectionProblem, link: null }], gatewayError: null }, 503);
  }
  // A refusal names what is missing by code (decision 007): each problem links to the step that fixes it.
  const planId = params.idProducto;
  const success = await rememberedSuccessUrl(request, quotationId);
  const result: PaymentActionResult = { problems: [], gatewayError: null };
  for (const problem of fieldErrors(error)) {
    if (problem.field === 'gatewayId') {
      result.gatewayError = problem.message;
      continue;
    }
    if (problem.field === 'consents.dataProcessing') {
      result.consentError = problem.message;
      continue;
    }
    const text = problem.message;
    let link: { to: string; label: string } | null = null;
    switch (problem.code) {
      case 'passengers_missing':
      case 'passengers_mismatch':
        link = { to: stepPath('compra', planId, quotationId), label: 'Completar pasajeros' };
        break;
      case 'billing_missing':
        link = { to: stepPath('facturacion', planId, quotationId), label: 'Completar facturación' };
        break;
      case 'plan_required':
      case 'plan_unavailable':
        link = { to: `/comparador/${quotationId}`, label: 'Ver planes' };
        break;
      case 'already_paid':
        link = success ? { to: success, label: 'Ver mi compra' } : null;
        break;
      case 'discount_code_refused':
        // The quotation carries a code that no longer applies: the buyer removes it (or types another) in the quoter.
        link = { to: `/?cotizacion=${quotationId}`, label: 'Revisar mi cotización' };
        break;
      default:
        if (problem.field === 'departureDate') link = { to: `/?cotizacion=${quotationId}`, label: 'Cotizar de nuevo' };
    }
    if (!result.problems.some((p) => p.message === text)) result.problems.push({ message: text, link });
  }
  if (result.problems.length === 0 && !result.gatewayError && !result.consentError) {
    result.problems.push({ message: 'Revisa los datos de tu compra e intenta nuevamente.', link: null });
  }
  return fail(result, 400);
}
