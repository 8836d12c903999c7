import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Blog');

export default function Blog() {
  return <PlaceholderPage title="Blog" />;
}
