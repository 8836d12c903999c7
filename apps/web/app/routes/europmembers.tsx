import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Área exclusiva de miembros');

export default function EuropMembers() {
  return <PlaceholderPage title="Área exclusiva de miembros" />;
}
