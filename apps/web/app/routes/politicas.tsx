import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Políticas de privacidad');

export default function Policies() {
  return <PlaceholderPage title="Políticas de privacidad" />;
}
