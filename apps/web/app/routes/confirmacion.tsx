import { PlaceholderPage } from '#app/components/PlaceholderPage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => pageTitle('Hemos recibido tu solicitud');

export default function ContactConfirmation() {
  return (
    <PlaceholderPage
      title="Hemos recibido tu solicitud"
      lead="Te responderemos a la brevedad en el correo que nos indicaste."
    />
  );
}
