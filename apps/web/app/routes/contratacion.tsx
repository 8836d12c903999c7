import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Contratación');

export default function PurchaseMockup() {
  return <PlaceholderPage title="Contratación" />;
}
