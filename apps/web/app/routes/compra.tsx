import { CheckoutLayout } from '#app/features/checkout/CheckoutLayout.tsx';
import { CheckoutNotice } from '#app/features/checkout/CheckoutNotice.tsx';
import { PassengersForm } from '#app/features/checkout/PassengersForm.tsx';
import { loadPassengersStep, savePassengers } from '#app/features/checkout/passengers-step.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { ShellHandle } from '#app/root.tsx';
import type { Route } from './+types/compra';

// The checkout steps leave out the floating WhatsApp button: the nav's help button lists every contact there.
export const handle: ShellHandle = { hideWhatsApp: true };

export const meta = () => [...pageTitle('Datos de los pasajeros'), { name: 'robots', content: 'noindex' }];

export function loader(args: Route.LoaderArgs) {
  return loadPassengersStep(args);
}

export function action(args: Route.ActionArgs) {
  return savePassengers(args);
}

export default function PurchaseStep({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state !== 'ok') return <CheckoutNotice notice={loaderData} />;
  const { summary, countries, slots, addOnOffers, initialValues } = loaderData;
  return (
    <CheckoutLayout
      step="compra"
      title="Datos de los pasajeros"
      lead="Completa los datos de cada pasajero tal como aparecen en su documento. Te tomará un par de minutos."
      summary={summary}
    >
      <PassengersForm
        slots={slots}
        addOnOffers={addOnOffers}
        planAmountClp={summary.planAmountClp}
        countries={countries}
        departureDate={summary.departureDate}
        initialValues={initialValues}
        actionResult={actionData}
      />
    </CheckoutLayout>
  );
}
