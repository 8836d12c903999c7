import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('No pudimos completar tu pago');

export default function PaymentError() {
  return (
    <PlaceholderPage
      title="No pudimos completar tu pago"
      lead="Tu pago no se realizó. Puedes intentarlo nuevamente desde tu cotización."
    />
  );
}
