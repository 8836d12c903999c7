import { useActionData } from 'react-router';
import { MyPurchase } from '#app/features/purchases/MyPurchase.tsx';
import { loadPurchasePage, purchasePageAction } from '#app/features/purchases/purchase.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/mi-compra';

export const meta = () => [
  ...pageTitle('Mi compra'),
  {
    name: 'description',
    content: 'Revisa tu compra y descarga tu comprobante y tus certificados con un código que te enviamos por correo.',
  },
  { name: 'robots', content: 'noindex' },
];

// The buyer's own purchase: never kept by a browser or proxy, and the signed link never sent to another site as a
// Referer. same-origin, not no-referrer: under no-referrer a plain form post says `Origin: null`, which React
// Router refuses as a possible cross-site request (the page must work without JavaScript).
export const headers = () => ({ 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'same-origin' });

export const loader = ({ context, request }: Route.LoaderArgs) => loadPurchasePage(context, request);

export const action = ({ context, request }: Route.ActionArgs) => purchasePageAction(context, request);

export default function MyPurchasePage({ loaderData }: Route.ComponentProps) {
  const posted = useActionData<typeof action>();
  return <MyPurchase state={posted ?? loaderData} />;
}
