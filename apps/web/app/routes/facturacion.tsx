import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Datos de facturación');

export default function BillingStep() {
  return <PlaceholderPage title="Datos de facturación" />;
}
