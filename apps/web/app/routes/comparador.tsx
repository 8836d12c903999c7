import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Comparador de planes');

export default function Comparator() {
  return <PlaceholderPage title="Comparador de planes" />;
}
