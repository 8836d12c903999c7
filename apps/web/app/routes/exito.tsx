import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('¡Gracias por tu compra!');

export default function PaymentSuccess() {
  return (
    <PlaceholderPage title="¡Gracias por tu compra!" lead="Aquí verás el resumen de tu compra y tus certificados." />
  );
}
