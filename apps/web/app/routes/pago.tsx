import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { FormSection } from '#app/components/fields.tsx';
import { CheckoutLayout } from '#app/features/checkout/CheckoutLayout.tsx';
import { CheckoutNotice } from '#app/features/checkout/CheckoutNotice.tsx';
import { stepPath } from '#app/features/checkout/checkout.ts';
import { PaymentForm } from '#app/features/checkout/PaymentForm.tsx';
import { loadPaymentStep, startPayment } from '#app/features/checkout/payment-step.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { ShellHandle } from '#app/root.tsx';
import type { Route } from './+types/pago';

// The checkout steps leave out the floating WhatsApp button: the nav's help button lists every contact there.
export const handle: ShellHandle = { hideWhatsApp: true };

export const meta = () => [...pageTitle('Pago'), { name: 'robots', content: 'noindex' }];

export function loader(args: Route.LoaderArgs) {
  return loadPaymentStep(args);
}

export function action(args: Route.ActionArgs) {
  return startPayment(args);
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
          instalmentOptions={summary.instalmentOptions}
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
