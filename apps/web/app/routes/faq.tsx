import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Preguntas frecuentes');

export default function Faq() {
  return <PlaceholderPage title="Preguntas frecuentes" />;
}
