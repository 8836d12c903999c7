import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Acceso Clientes');

export default function ClientLogin() {
  return <PlaceholderPage title="Acceso Clientes" />;
}
