import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Contáctanos');

export default function ContactDirectory() {
  return <PlaceholderPage title="Contáctanos" />;
}
