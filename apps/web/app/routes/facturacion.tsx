import { BillingForm } from '#app/features/checkout/BillingForm.tsx';
import { loadBillingStep, saveBilling } from '#app/features/checkout/billing-step.server.ts';
import { CheckoutLayout } from '#app/features/checkout/CheckoutLayout.tsx';
import { CheckoutNotice } from '#app/features/checkout/CheckoutNotice.tsx';
import { stepPath } from '#app/features/checkout/checkout.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { ShellHandle } from '#app/root.tsx';
import type { Route } from './+types/facturacion';

// The checkout steps leave out the floating WhatsApp button: the nav's help button lists every contact there.
export const handle: ShellHandle = { hideWhatsApp: true };

export const meta = () => [...pageTitle('Datos de facturación'), { name: 'robots', content: 'noindex' }];

export function loader(args: Route.LoaderArgs) {
  return loadBillingStep(args);
}

export function action(args: Route.ActionArgs) {
  return saveBilling(args);
}

export default function BillingStep({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state !== 'ok') return <CheckoutNotice notice={loaderData} />;
  const { summary, initialValues } = loaderData;
  return (
    <CheckoutLayout
      step="facturacion"
      title="Datos de facturación"
      lead="¿A nombre de quién emitimos el documento tributario? Si no necesitas factura, te enviaremos una boleta."
      summary={summary}
    >
      <BillingForm
        initialValues={initialValues}
        actionResult={actionData}
        backTo={stepPath('compra', summary.planId, summary.quotationId)}
      />
    </CheckoutLayout>
  );
}
