import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';
import type { ShellHandle } from '#app/root.tsx';

export const meta = () => pageTitle('Vista previa de planes');

// Spec §2: this screen is shown without nav and footer.
export const handle: ShellHandle = { hideChrome: true };

export default function PlanPreview() {
  return <PlaceholderPage title="Vista previa de planes" />;
}
