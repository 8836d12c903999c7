import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Términos y condiciones');

export default function Terms() {
  return <PlaceholderPage title="Términos y condiciones" />;
}
