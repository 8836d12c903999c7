import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Completa tu solicitud');

export default function ContactForm() {
  return <PlaceholderPage title="Completa tu solicitud" />;
}
