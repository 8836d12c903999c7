import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Reembolsos');

export default function Refunds() {
  return <PlaceholderPage title="Reembolsos" />;
}
