import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Pago');

export default function PaymentStep() {
  return <PlaceholderPage title="Pago" />;
}
