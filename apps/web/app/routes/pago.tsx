import type { ReactNode } from 'react';
import { data, Link, redirectDocument } from 'react-router';
import { FormSection } from '#app/components/fields.tsx';
import { fieldErrors } from '#app/features/checkout/api-errors.ts';
import { CheckoutError } from '#app/features/checkout/CheckoutError.tsx';
import { CheckoutLayout } from '#app/features/checkout/CheckoutLayout.tsx';
import { CheckoutNotice } from '#app/features/checkout/CheckoutNotice.tsx';
import { isNotice, loadCheckout, rememberedSuccessUrl, rememberSale } from '#app/features/checkout/checkout.server.ts';
import { stepPath } from '#app/features/checkout/checkout.ts';
import { bandLabel } from '#app/features/checkout/format.ts';
import { type PaymentActionResult, PaymentForm } from '#app/features/checkout/PaymentForm.tsx';
import { passengerSlots } from '#app/features/checkout/passengers-schema.ts';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { isQuotationId } from '#app/lib/quotation.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/pago';

export const meta = () => [...pageTitle('Pago'), { name: 'robots', content: 'noindex' }];

const unavailable = () => new Response('El pago no está disponible', { status: 503 });

/**
 * Step 3: the purchase as it will be paid (the travellers' names, the billing document, the amounts the API priced)
 * and the company's payment gateways. Missing data is said up front, with a link to its step.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const loaded = await loadCheckout(context, request, params, 'pago');
  if (isNotice(loaded)) return loaded;
  const { api, quotation, summary } = loaded;
  const path = { quotationId: quotation.id };
  const [saved, invoice, gateways] = await Promise.all([
    api.GET('/quotations/{quotationId}/passangers', { params: { path } }),
    api.GET('/quotations/{quotationId}/invoice-details', { params: { path } }),
    api.GET('/companies/{companyId}/payment-gateways', { params: { path: { companyId: configuredCompanyId() } } }),
  ]);
  if (!saved.data && saved.response.status !== 404) throw unavailable();
  if (!invoice.data && invoice.response.status !== 404) throw unavailable();
  if (!gateways.data) throw unavailable();

  const slots = passengerSlots(summary.passengerGroups);
  const bands = new Map(summary.passengerGroups.map((g) => [g.passengerTypeId, bandLabel(g)]));
  const travellers = [...(saved.data?.passangers ?? [])]
    .sort((a, b) => a.seq - b.seq)
    .map((p) => ({ name: `${p.firstName} ${p.lastName}`, band: bands.get(p.passengerTypeId) ?? '' }));
  const details = invoice.data;
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
    gateways: gateways.data,
  };
}

const connectionProblem = 'No pudimos conectar con el medio de pago. Intenta nuevamente en unos minutos.';

/** Starts the payment (POST /payments) and sends the browser to the gateway's page. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const quotationId = params.id;
  const fail = (result: PaymentActionResult, status: number) => data(result, { status });
  if (!isQuotationId(quotationId)) {
    return fail({ problems: [{ message: 'No encontramos esta cotización.', link: null }], gatewayError: null }, 404);
  }
  const form = await request.formData();
  const gatewayId = String(form.get('gatewayId') ?? '');
  if (!gatewayId) return fail({ problems: [], gatewayError: 'Elige un medio de pago' }, 400);

  // The API chooses where the gateway returns the payer from its configuration (PUBLIC_URL, else this page's Host
  // when ALLOWED_HOSTS lists it). It is told the Host this page was asked at, as this page received it; the
  // forwarded headers it believes only from a TRUST_PROXY peer (in process: this page's own peer).
  const url = new URL(request.url);
  const headers = {
    host: url.host,
    'x-forwarded-host': request.headers.get('x-forwarded-host') ?? url.host,
    'x-forwarded-proto': request.headers.get('x-forwarded-proto') ?? url.protocol.replace(':', ''),
  };
  let started: Awaited<ReturnType<ReturnType<typeof serverApi>['POST']>> | undefined;
  try {
    started = await serverApi(context).POST('/payments', { body: { quotationId, gatewayId }, headers });
  } catch {
    return fail({ problems: [{ message: connectionProblem, link: null }], gatewayError: null }, 503);
  }
  const { data: created, error, response } = started;
  if (created && 'redirectUrl' in created) {
    const cookie = await rememberSale({
      quotationId,
      idVenta: created.idVenta,
      idTransaction: created.idTransaction,
      accessToken: created.accessToken,
    });
    return redirectDocument(created.redirectUrl, { headers: { 'Set-Cookie': cookie } });
  }
  if (response.status !== 400) {
    return fail({ problems: [{ message: connectionProblem, link: null }], gatewayError: null }, 503);
  }
  const planId = params.idProducto;
  const success = await rememberedSuccessUrl(request, quotationId);
  const result: PaymentActionResult = { problems: [], gatewayError: null };
  for (const problem of fieldErrors(error)) {
    if (problem.field === 'gatewayId') {
      result.gatewayError = problem.message;
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
      default:
        if (problem.field === 'departureDate') link = { to: `/?cotizacion=${quotationId}`, label: 'Cotizar de nuevo' };
    }
    if (!result.problems.some((p) => p.message === text)) result.problems.push({ message: text, link });
  }
  if (result.problems.length === 0 && !result.gatewayError) {
    result.problems.push({ message: 'Revisa los datos de tu compra e intenta nuevamente.', link: null });
  }
  return fail(result, 400);
}

export default function PaymentStep({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state !== 'ok') return <CheckoutNotice notice={loaderData} />;
  const { summary, travellers, passengersMissing, billing, gateways } = loaderData;
  const passengersStep = stepPath('compra', summary.planId, summary.quotationId);
  const billingStep = stepPath('facturacion', summary.planId, summary.quotationId);
  const missing = [
    passengersMissing ? { message: 'Completa los datos de los pasajeros antes de pagar', to: passengersStep } : null,
    billing ? null : { message: 'Completa los datos de facturación antes de pagar', to: billingStep },
  ].filter((item) => item !== null);

  return (
    <CheckoutLayout
      step="pago"
      title="Pago"
      lead="Revisa tu compra y elige cómo pagar."
      summary={summary}
      travellers={travellers.length > 0 ? travellers : undefined}
      incomplete={[...(passengersMissing ? (['compra'] as const) : []), ...(billing ? [] : (['facturacion'] as const))]}
    >
      <div className="grid gap-5">
        {missing.length > 0 ? (
          <div className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900">
            <p className="font-bold">Antes de pagar</p>
            <ul className="mt-1 grid gap-1.5">
              {missing.map((item) => (
                <li key={item.message}>
                  {item.message}.{' '}
                  <Link to={item.to} className="font-semibold whitespace-nowrap underline underline-offset-2">
                    Completar ahora
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <FormSection title="Tus datos">
          <div className="grid gap-4 sm:grid-cols-2">
            <ReviewBlock title="Pasajeros" editTo={passengersStep} editLabel="Editar pasajeros">
              {travellers.length > 0 ? (
                <ul>
                  {travellers.map((t, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a passenger slot is its position (names may repeat; the list never reorders)
                    <li key={`${t.name}-${index}`} className="break-words">
                      {t.name}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-slate-500">Sin completar</p>
              )}
            </ReviewBlock>
            <ReviewBlock title="Facturación" editTo={billingStep} editLabel="Editar facturación">
              {billing ? (
                <>
                  <p className="font-semibold">{billing.document}</p>
                  {billing.company ? <p className="break-words">{billing.company}</p> : null}
                  {billing.companyRut ? <p className="text-sm text-slate-600">RUT {billing.companyRut}</p> : null}
                  <p className="text-sm break-words text-slate-600">{billing.address}</p>
                </>
              ) : (
                <p className="text-slate-500">Sin completar</p>
              )}
            </ReviewBlock>
          </div>
        </FormSection>

        <PaymentForm
          gateways={gateways}
          totalClp={summary.totalClp}
          blocked={missing.length > 0}
          actionResult={actionData}
        />
      </div>
    </CheckoutLayout>
  );
}

function ReviewBlock({
  title,
  editTo,
  editLabel,
  children,
}: {
  title: string;
  editTo: string;
  editLabel: string;
  children: ReactNode;
}) {
  return (
    <div className="min-w-0 rounded-xl bg-slate-50 p-4">
      <div className="mb-1 flex items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-700">{title}</h3>
        <Link
          to={editTo}
          aria-label={editLabel}
          className="rounded text-sm font-semibold text-brand-700 underline underline-offset-2"
        >
          Editar
        </Link>
      </div>
      <div className="text-slate-900">{children}</div>
    </div>
  );
}

export function ErrorBoundary() {
  return <CheckoutError />;
}
