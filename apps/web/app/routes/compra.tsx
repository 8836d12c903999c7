import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Datos de los pasajeros');

export default function PurchaseStep() {
  return <PlaceholderPage title="Datos de los pasajeros" />;
}
