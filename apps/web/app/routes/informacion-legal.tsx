import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Información legal');

export default function LegalInformation() {
  return <PlaceholderPage title="Información legal" />;
}
