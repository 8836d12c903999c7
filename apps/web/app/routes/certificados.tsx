import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Certificados');

export default function Certificates() {
  return <PlaceholderPage title="Certificados" />;
}
