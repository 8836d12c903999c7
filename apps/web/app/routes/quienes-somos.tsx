import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Quiénes somos');

export default function AboutUs() {
  return <PlaceholderPage title="Quiénes somos" />;
}
