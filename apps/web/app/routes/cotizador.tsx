import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';
import type { ShellHandle } from '#app/root.tsx';

export const meta = () => pageTitle('Cotiza tu asistencia en viaje');

// Spec §2: this screen is shown without nav and footer.
export const handle: ShellHandle = { hideChrome: true };

export default function Quoter() {
  return <PlaceholderPage title="Cotiza tu asistencia en viaje" />;
}
